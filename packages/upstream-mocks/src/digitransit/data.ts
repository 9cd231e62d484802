// The Helsinki-region data behind the Digitransit mock: the agency, routes, stops and stations of the HSL feed as
// OTP answers them (fixtures/digitransit/feed.json, with the routes serving each stop and the headsigns of each
// route's directions), and the area each router covers. The types name what the mock reads.
import { readFixture } from '../recorded.js';

export interface HslRoute {
  readonly gtfsId: string;
  readonly shortName: string;
  readonly longName: string;
  readonly mode: 'BUS' | 'TRAM' | 'SUBWAY' | 'RAIL' | 'FERRY';
  /** Headsigns by direction id ("0", "1"). */
  readonly headsigns: readonly [string, string];
}

interface Place {
  readonly gtfsId: string;
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
}

export interface HslStop extends Place {
  /** Routes serving the stop, and the direction they serve it in. */
  readonly routes: readonly { readonly route: string; readonly directionId: '0' | '1' }[];
  readonly parentStation?: string;
}

export interface HslStation extends Place {
  readonly stops: readonly string[];
}

interface Feed {
  readonly agency: { readonly gtfsId: string };
  readonly routes: readonly HslRoute[];
  readonly stops: readonly HslStop[];
  readonly stations: readonly HslStation[];
}

const FEED = readFixture<Feed>('digitransit/feed.json');

export const HSL_AGENCY = FEED.agency;
export const HSL_ROUTES = FEED.routes;
export const HSL_STOPS = FEED.stops;
export const HSL_STATIONS = FEED.stations;

/** Coordinates each router covers; planConnection answers OUTSIDE_BOUNDS beyond them. */
export const ROUTER_BOUNDS: Readonly<
  Record<string, { minLat: number; maxLat: number; minLon: number; maxLon: number }>
> = {
  hsl: { minLat: 59.9, maxLat: 60.8, minLon: 24.0, maxLon: 25.9 },
  waltti: { minLat: 59.7, maxLat: 70.1, minLon: 19.0, maxLon: 31.6 },
  finland: { minLat: 59.7, maxLat: 70.1, minLon: 19.0, maxLon: 31.6 },
};

export const ROUTERS = Object.keys(ROUTER_BOUNDS);

export function findStop(gtfsId: string): HslStop | undefined {
  return HSL_STOPS.find((stop) => stop.gtfsId === gtfsId);
}

export function findRoute(gtfsId: string): HslRoute {
  const route = HSL_ROUTES.find((r) => r.gtfsId === gtfsId);
  if (!route) throw new Error(`unknown fixture route ${gtfsId}`);
  return route;
}

export function findStation(gtfsId: string): HslStation | undefined {
  return HSL_STATIONS.find((station) => station.gtfsId === gtfsId);
}
