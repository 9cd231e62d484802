// Pelias (Digitransit geocoding) FeatureCollections for /search and /autocomplete: the recorded places that
// match the text, ranked as Pelias ranks them.
import { readFixture } from '../recorded.js';

interface PeliasQuery {
  readonly endpoint: 'search' | 'autocomplete';
  readonly params: Readonly<Record<string, string>>;
  readonly acceptLanguage: string | undefined;
  /** The key came as a query parameter, which Pelias itself flags as an unknown parameter. */
  readonly keyInQuery: boolean;
  readonly nowMs: number;
  /** Answer with no features (the `geocoding-empty` scenario). */
  readonly empty: boolean;
}

const DEFAULT_LAYERS = ['station', 'stop', 'venue', 'address', 'street'];
const DEFAULT_SOURCES = ['openstreetmap', 'openaddresses', 'nlsfi', 'gtfshsl'];
const MAX_SIZE = 40;

/** A Pelias feature as recorded; `confidence` is set per answer. */
interface PeliasFeature {
  readonly geometry: { readonly coordinates: readonly [lon: number, lat: number] };
  readonly properties: {
    readonly layer: string;
    readonly source: string;
    readonly name: string;
    readonly label: string;
  };
}

/**
 * Places the Pelias mock knows (fixtures/geocoding/places.json): the HSL stations and stops of the routing data,
 * venues, addresses and a street. Stop ids are `GTFS:<feed>:<stop>#<code>`: strip `GTFS:` and `#...` for the
 * routing id.
 */
const PELIAS_PLACES = readFixture<{ features: PeliasFeature[] }>('geocoding/places.json').features;

const normalize = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();

function listParam(value: string | undefined, fallback: readonly string[]): string[] {
  if (!value) return [...fallback];
  return value
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');
}

function numericParams(params: Readonly<Record<string, string>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(params)) {
    if ((name.startsWith('boundary.') || name.startsWith('focus.')) && Number.isFinite(Number(value))) {
      out[name] = Number(value);
    }
  }
  return out;
}

/** The response body and status for a /search or /autocomplete request. */
export function peliasResponse(query: PeliasQuery): { status: number; body: Record<string, unknown> } {
  const text = query.params['text'] ?? '';
  const preferred = query.acceptLanguage?.split(',')[0]?.split(/[-;]/)[0]?.trim().toLowerCase();
  const lang = query.params['lang'] ?? (preferred && /^[a-z]{2}$/.test(preferred) ? preferred : 'fi');
  const size = Math.min(MAX_SIZE, Math.max(1, Number(query.params['size'] ?? 10) || 10));
  const layers = listParam(query.params['layers'], DEFAULT_LAYERS);
  const sources = listParam(query.params['sources'], DEFAULT_SOURCES);
  const missingText = text.trim() === '';
  const needle = normalize(text);
  /** 0: the name itself, 1: the start of the name, 2: anywhere in the label; -1: no match. */
  const rankOf = ({ properties: p }: PeliasFeature): number => {
    const name = normalize(p.name);
    return [name === needle, name.startsWith(needle), normalize(p.label).includes(needle)].indexOf(true);
  };
  const layerOrder = ({ place }: { place: PeliasFeature }) => DEFAULT_LAYERS.indexOf(place.properties.layer);
  const ranked = (query.empty || missingText ? [] : PELIAS_PLACES)
    .filter(({ properties: p }) => layers.includes(p.layer) && sources.includes(p.source))
    .map((place) => ({ place, rank: rankOf(place) }))
    .filter(({ rank }) => rank >= 0 && (query.endpoint === 'search' || rank < 2 || needle.length > 3))
    .sort((a, b) => a.rank - b.rank || layerOrder(a) - layerOrder(b))
    .slice(0, size);
  const features = ranked.map(({ place, rank }) => ({
    ...place,
    properties: { ...place.properties, confidence: [1, 0.9, 0.8][rank] ?? 0.8 },
  }));
  // Pelias echoes the query (without a text, less of it, and why it refuses): search puts its parse last,
  // autocomplete names its parser first.
  const echoed = { size, layers, sources, private: false, lang, querySize: size * 10 };
  const queryEcho =
    query.endpoint === 'search'
      ? { text, ...echoed, parsed_text: { name: text } }
      : { text, parser: 'pelias', parsed_text: { subject: text }, ...echoed };
  const answered = missingText
    ? {
        query: { text, size, private: false, lang },
        errors: ["invalid param 'text': text length, must be >0"],
      }
    : { query: { ...queryEcho, ...numericParams(query.params) } };
  const lons = ranked.map((r) => r.place.geometry.coordinates[0]);
  const lats = ranked.map((r) => r.place.geometry.coordinates[1]);
  const body = {
    geocoding: {
      version: '0.2',
      attribution: 'http://pelias-api:8080/attribution',
      ...answered,
      ...(query.keyInQuery ? { warnings: ['Invalid Parameter: digitransit-subscription-key'] } : {}),
      engine: { name: 'Pelias', author: 'Mapzen', version: '1.0' },
      timestamp: query.nowMs,
    },
    type: 'FeatureCollection',
    features,
    // JSON leaves out a key whose value is undefined: no bbox without features.
    bbox:
      ranked.length > 0
        ? [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)]
        : undefined,
  };
  return { status: missingText ? 400 : 200, body };
}
