// Digitransit geocoding (Pelias): a place name as a coordinate, for plan_trip labels that are not saved places.
import type { Coordinate, Language } from '@switchyard/contracts/transit';
import { assertOk, readJson, type UpstreamPolicy } from '@switchyard/resilience';
import type { HslConfig, RegionBounds } from '../config.js';
import { createUpstreamGet, malformed } from '../upstream.js';
import { lenientRecord, required, type ReadValue } from '../wire-record.js';
import { nonEmpty, readNumber, readText } from '../wire.js';
import { KEY_HEADER } from './client.js';

export const GEOCODING = 'Digitransit geocoding';

/** A number within [min, max], or a string holding one. */
const readWithin =
  (min: number, max: number) =>
  (value: unknown): number | undefined => {
    const number = readNumber(value);
    return number !== undefined && number >= min && number <= max ? number : undefined;
  };
const readLongitude = readWithin(-180, 180);
const readLatitude = readWithin(-90, 90);

/** GeoJSON coordinates: `[lon, lat]` (a third, altitude, value is ignored). */
function readPoint(value: unknown): { lon: number; lat: number } | undefined {
  if (!Array.isArray(value) || value.length < 2) return undefined;
  const lon = readLongitude(value[0]);
  const lat = readLatitude(value[1]);
  return lon === undefined || lat === undefined ? undefined : { lon, lat };
}

/**
 * A GeoJSON point feature, read from a field table (../wire-record.ts) rather than zod: only the first usable
 * feature of an answer is read, and no issue objects are built for the ones before it.
 */
const readFeature = lenientRecord({
  geometry: required(lenientRecord({ coordinates: required(readPoint) })),
  properties: lenientRecord({ name: readText, label: readText }),
});

/** A Pelias FeatureCollection's first feature with a usable point; null when it has none. */
function firstFeature(body: unknown): ReadValue<typeof readFeature> | null | undefined {
  const features =
    typeof body === 'object' && body !== null ? (body as { features?: unknown }).features : undefined;
  if (!Array.isArray(features)) return undefined;
  for (const feature of features) {
    const read = readFeature(feature);
    if (read !== undefined) return read;
  }
  return null;
}

export interface GeocodedPlace {
  coordinate: Coordinate;
  name?: string;
  /** Pelias' formatted label, e.g. "Helsingfors-Vanda flygplats (Airport), Flygstationsvägen 1, Vanda". */
  address?: string;
}

export interface Geocoder {
  /** The best match inside `bounds`, or undefined when there is none. */
  search(
    textQuery: string,
    options: { language: Language; bounds: RegionBounds; signal?: AbortSignal },
  ): Promise<GeocodedPlace | undefined>;
}

/**
 * The first usable feature. Pelias always gives `name` and `label` in its own API, but not every deployment
 * or layer does: without `label` the address is left out; without `name` the label's first part names it.
 */
export function firstPlace(body: unknown): GeocodedPlace | undefined {
  const feature = firstFeature(body);
  if (feature === undefined) throw malformed(GEOCODING, 'geocoding result');
  if (feature === null) return undefined;
  const { lon, lat } = feature.geometry.coordinates;
  const address = nonEmpty(feature.properties?.label);
  const name = nonEmpty(feature.properties?.name) ?? nonEmpty(address?.split(',')[0]);
  return { coordinate: { lat, lon }, name, address };
}

export function createGeocoder(options: { config: HslConfig; policy: UpstreamPolicy }): Geocoder {
  const { config } = options;
  const get = createUpstreamGet({
    upstream: GEOCODING,
    baseUrl: config.geocodingUrl,
    policy: options.policy,
    secretHeaders: { [KEY_HEADER]: config.subscriptionKey },
    maxResponseBytes: config.maxResponseBytes,
  });
  return {
    search(textQuery, { language, bounds, signal }) {
      return get(
        'search',
        {
          text: textQuery,
          size: 1,
          lang: language,
          'boundary.rect.min_lat': bounds.minLat,
          'boundary.rect.min_lon': bounds.minLon,
          'boundary.rect.max_lat': bounds.maxLat,
          'boundary.rect.max_lon': bounds.maxLon,
        },
        async (response) => {
          await assertOk(response, { upstream: GEOCODING });
          return firstPlace(await readJson(response, { upstream: GEOCODING }));
        },
        signal,
      );
    },
  };
}
