// Places the Pelias mock knows: HSL stops and stations (matching the routing fixtures), venues, addresses, a street.
import { HSL_STATIONS, HSL_STOPS } from '../digitransit/data.js';

export type PeliasLayer = 'stop' | 'station' | 'venue' | 'address' | 'street';

export interface PeliasPlace {
  readonly id: string;
  readonly layer: PeliasLayer;
  readonly source: 'gtfshsl' | 'openstreetmap' | 'openaddresses' | 'nlsfi';
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
  readonly postalcode: string;
  readonly neighbourhood: string;
  readonly localadmin: string;
  readonly street?: string;
  readonly housenumber?: string;
  readonly modes?: readonly string[];
  readonly code?: string;
  readonly platform?: string;
}

interface Area {
  readonly neighbourhood: string;
  readonly postalcode: string;
  readonly localadmin: string;
}

const STOP_AREAS: Readonly<Record<string, Area>> = {
  'HSL:1040129': { neighbourhood: 'Kamppi', postalcode: '00100', localadmin: 'Helsinki' },
  'HSL:1020453': { neighbourhood: 'Kluuvi', postalcode: '00100', localadmin: 'Helsinki' },
  'HSL:1040602': { neighbourhood: 'Kamppi', postalcode: '00100', localadmin: 'Helsinki' },
  'HSL:1020502': { neighbourhood: 'Kluuvi', postalcode: '00100', localadmin: 'Helsinki' },
  'HSL:1174502': { neighbourhood: 'Pasila', postalcode: '00520', localadmin: 'Helsinki' },
  'HSL:1130446': { neighbourhood: 'Töölö', postalcode: '00250', localadmin: 'Helsinki' },
  'HSL:1174403': { neighbourhood: 'Pasila', postalcode: '00520', localadmin: 'Helsinki' },
  'HSL:2431252': { neighbourhood: 'Latokaskenmäki', postalcode: '02340', localadmin: 'Espoo' },
  'HSL:1000003': { neighbourhood: 'Kamppi', postalcode: '00100', localadmin: 'Helsinki' },
  'HSL:1000202': { neighbourhood: 'Kluuvi', postalcode: '00100', localadmin: 'Helsinki' },
};

const DEFAULT_AREA: Area = { neighbourhood: 'Kluuvi', postalcode: '00100', localadmin: 'Helsinki' };

/** Pelias stop ids are `GTFS:<feed>:<stop>#<code>`: strip `GTFS:` and `#...` for the routing id. */
export const PELIAS_PLACES: readonly PeliasPlace[] = [
  ...HSL_STATIONS.map((station): PeliasPlace => ({
    id: `GTFS:${station.gtfsId}`,
    layer: 'station',
    source: 'gtfshsl',
    name: station.name,
    lat: station.lat,
    lon: station.lon,
    ...(STOP_AREAS[station.gtfsId] ?? DEFAULT_AREA),
    modes: [station.vehicleMode],
  })),
  ...HSL_STOPS.map((stop): PeliasPlace => ({
    id: `GTFS:${stop.gtfsId}#${stop.code}`,
    layer: 'stop',
    source: 'gtfshsl',
    name: stop.name,
    lat: stop.lat,
    lon: stop.lon,
    ...(STOP_AREAS[stop.gtfsId] ?? DEFAULT_AREA),
    modes: [stop.vehicleMode],
    code: stop.code,
    ...(stop.platformCode ? { platform: stop.platformCode } : {}),
  })),
  {
    id: 'way:4253317',
    layer: 'venue',
    source: 'openstreetmap',
    name: 'Eduskuntatalo',
    lat: 60.172532,
    lon: 24.933409,
    street: 'Mannerheimintie',
    housenumber: '30',
    neighbourhood: 'Etu-Töölö',
    postalcode: '00100',
    localadmin: 'Helsinki',
  },
  {
    id: 'way:23489551',
    layer: 'venue',
    source: 'openstreetmap',
    name: 'Nykytaiteen museo Kiasma',
    lat: 60.171898,
    lon: 24.936755,
    street: 'Mannerheiminaukio',
    housenumber: '2',
    neighbourhood: 'Kluuvi',
    postalcode: '00100',
    localadmin: 'Helsinki',
  },
  {
    id: 'way:8046732',
    layer: 'venue',
    source: 'openstreetmap',
    name: 'Suomen Kansallisooppera',
    lat: 60.181541,
    lon: 24.92779,
    street: 'Helsinginkatu',
    housenumber: '58',
    neighbourhood: 'Töölö',
    postalcode: '00260',
    localadmin: 'Helsinki',
  },
  {
    id: 'node:2755190104',
    layer: 'venue',
    source: 'openstreetmap',
    name: 'Helsinki-Vantaan lentoasema',
    lat: 60.317812,
    lon: 24.963301,
    street: 'Lentoasemantie',
    housenumber: '1',
    neighbourhood: 'Lentokenttä',
    postalcode: '01530',
    localadmin: 'Vantaa',
  },
  {
    id: 'fi/uusimaa:helsinki-mannerheimintie-22',
    layer: 'address',
    source: 'openaddresses',
    name: 'Mannerheimintie 22',
    lat: 60.17118,
    lon: 24.93524,
    street: 'Mannerheimintie',
    housenumber: '22',
    neighbourhood: 'Kamppi',
    postalcode: '00100',
    localadmin: 'Helsinki',
  },
  {
    id: 'fi/uusimaa:helsinki-arkadiankatu-7',
    layer: 'address',
    source: 'openaddresses',
    name: 'Arkadiankatu 7',
    lat: 60.17136,
    lon: 24.93017,
    street: 'Arkadiankatu',
    housenumber: '7',
    neighbourhood: 'Kamppi',
    postalcode: '00100',
    localadmin: 'Helsinki',
  },
  {
    id: 'polyline:1843207',
    layer: 'street',
    source: 'openstreetmap',
    name: 'Arkadiankatu',
    lat: 60.17164,
    lon: 24.92812,
    street: 'Arkadiankatu',
    neighbourhood: 'Kamppi',
    postalcode: '00100',
    localadmin: 'Helsinki',
  },
];

/** Who's On First ids of the administrative areas (region, local admin, locality). */
export const WOF = {
  region: '85683067',
  localadmin: { Helsinki: '907199715', Espoo: '907198517', Vantaa: '907199651' } as Readonly<
    Record<string, string>
  >,
  locality: { Helsinki: '101748417', Espoo: '101748415', Vantaa: '101748419' } as Readonly<
    Record<string, string>
  >,
};

/** A stable made-up Who's On First id for a neighbourhood or postcode. */
export function wofId(base: number, name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) % 100_000;
  return String(base + hash);
}
