// The upstream requests each transit tool makes for the benchmark's calls, made directly (no MCP, no
// resilience): the floor the tools are compared against, shared by the bare server and the direct runs.
import { HSL_REGION_BOUNDS } from '../src/config.js';
import { PLAN_CONNECTION_QUERY, STOP_DEPARTURES_QUERY, STOPS_BY_NAME_QUERY } from '../src/hsl/queries.js';
import { planConnectionVariables } from '../src/hsl/plan-request.js';
import { arrivalsRequest as arrivalsRequestOf } from '../src/tfl/arrivals-client.js';
import { cacheKey, type TflRequest } from '../src/tfl/cached-answers.js';
import { journeyResultsPath } from '../src/tfl/client.js';
import { lineStatusPath } from '../src/tfl/line-status-client.js';
import { stopsRequest } from '../src/tfl/stops-client.js';

export interface BenchTargets {
  tflUrl: string;
  tflKey: string;
  routingUrl: string;
  geocodingUrl: string;
  digitransitKey: string;
}

export const JOURNEY_ARGS = { from: 'Bank', to: 'Mile End' };
export const DEPARTURES_ARGS = { stop: { type: 'id', value: 'HSL:1040129' }, limit: 10 };
export const TRIP_ARGS = {
  origin: { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } },
  destination: { type: 'coords', value: { lat: 60.1989, lon: 24.9325 } },
};
/** plan_trip between two names: two geocoding searches (at once, as the tool makes them), then the plan. */
export const NAMED_TRIP_ARGS = {
  origin: { type: 'label', value: 'Kamppi' },
  destination: { type: 'label', value: 'Kiasma' },
};
export const FIND_STOPS_ARGS = { name: 'Kamppi' };
export const ARRIVALS_ARGS = { stop: { type: 'id', value: '940GZZLUOXC' } };
export const LINE_STATUS_ARGS = { lines: ['central', 'victoria'] };
export const LONDON_STOPS_ARGS = { name: 'Oxford Circus' };

/** The arguments of each case the profilers run (profile.ts, allocation.ts), by case name. */
export const CASE_ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  planJourney: JOURNEY_ARGS,
  get_departures: DEPARTURES_ARGS,
  plan_trip: TRIP_ARGS,
  'plan_trip/names': NAMED_TRIP_ARGS,
  find_stops: FIND_STOPS_ARGS,
  get_london_arrivals: ARRIVALS_ARGS,
  get_line_status: LINE_STATUS_ARGS,
  find_london_stops: LONDON_STOPS_ARGS,
};

/** The tool a profiled case calls on the bin or on the bare server: its own name but for plan_trip/names. */
export function toolOfCase(name: string, bare: boolean): string {
  if (name !== 'plan_trip/names') return name;
  return bare ? 'plan_trip_named' : 'plan_trip';
}

async function json(response: Response): Promise<Record<string, unknown>> {
  if (!response.ok) throw new Error(`upstream answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

export function journeyRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  const url = `${targets.tflUrl}/${journeyResultsPath(JOURNEY_ARGS.from, JOURNEY_ARGS.to)}?app_key=${targets.tflKey}`;
  return fetch(url, { headers: { accept: 'application/json' } }).then(json);
}

/** A TfL GET as the London tools send it (their request, the key as app_key); the body as TfL sent it. */
function tflGet(targets: BenchTargets, request: TflRequest): Promise<Record<string, unknown>> {
  const url = new URL(`${targets.tflUrl}/${cacheKey(request)}`);
  url.searchParams.set('app_key', targets.tflKey);
  return fetch(url, { headers: { accept: 'application/json' } }).then(async (response) => {
    if (!response.ok) throw new Error(`upstream answered ${response.status}`);
    const body = (await response.json()) as unknown;
    return Array.isArray(body) ? { items: body } : (body as Record<string, unknown>);
  });
}

export function arrivalsRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  return tflGet(targets, arrivalsRequestOf({ stopId: ARRIVALS_ARGS.stop.value, direction: 'all' }));
}

export function lineStatusRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  return tflGet(targets, { path: lineStatusPath({ lineIds: LINE_STATUS_ARGS.lines }), searchParams: {} });
}

export function londonStopsRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  return tflGet(targets, stopsRequest({ ...LONDON_STOPS_ARGS, radiusMeters: 300, limit: 10 }));
}

function graphql(targets: BenchTargets, query: string, variables: Record<string, unknown>) {
  return fetch(targets.routingUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'accept-language': 'en',
      'digitransit-subscription-key': targets.digitransitKey,
    },
    body: JSON.stringify({ query, variables }),
  }).then(json);
}

export function departuresRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  return graphql(targets, STOP_DEPARTURES_QUERY, {
    id: DEPARTURES_ARGS.stop.value,
    startTime: Math.floor(Date.now() / 1000),
    timeRange: 30 * 60,
    numberOfDepartures: DEPARTURES_ARGS.limit + 1,
  });
}

function plan(
  targets: BenchTargets,
  origin: { lat: number; lon: number },
  destination: { lat: number; lon: number },
): Promise<Record<string, unknown>> {
  return graphql(
    targets,
    PLAN_CONNECTION_QUERY,
    planConnectionVariables({
      origin: { coordinate: origin, label: 'Origin' },
      destination: { coordinate: destination, label: 'Destination' },
      type: 'depart',
      time: new Date().toISOString(),
      constraints: {
        optimize: 'balanced',
        maxWalkingDistance: 1500,
        maxTransfers: 4,
        accessibility: { stepFree: false, lowWalkingDistance: false },
        language: 'en',
      },
    }),
  );
}

export function tripRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  return plan(targets, TRIP_ARGS.origin.value, TRIP_ARGS.destination.value);
}

/** Pelias search as the geocoder sends it: one result, the HSL area as the boundary. */
async function geocode(targets: BenchTargets, text: string): Promise<{ lat: number; lon: number }> {
  const query = new URLSearchParams({
    text,
    size: '1',
    lang: 'en',
    'boundary.rect.min_lat': String(HSL_REGION_BOUNDS.minLat),
    'boundary.rect.min_lon': String(HSL_REGION_BOUNDS.minLon),
    'boundary.rect.max_lat': String(HSL_REGION_BOUNDS.maxLat),
    'boundary.rect.max_lon': String(HSL_REGION_BOUNDS.maxLon),
  });
  const response = await fetch(`${targets.geocodingUrl}/search?${query}`, {
    headers: { accept: 'application/json', 'digitransit-subscription-key': targets.digitransitKey },
  });
  const body = (await json(response)) as { features?: { geometry: { coordinates: [number, number] } }[] };
  const [lon, lat] = body.features?.[0]?.geometry.coordinates ?? [NaN, NaN];
  return { lat, lon };
}

export async function namedTripRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  const [origin, destination] = await Promise.all([
    geocode(targets, NAMED_TRIP_ARGS.origin.value),
    geocode(targets, NAMED_TRIP_ARGS.destination.value),
  ]);
  return plan(targets, origin, destination);
}

export function findStopsRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  return graphql(targets, STOPS_BY_NAME_QUERY, { name: FIND_STOPS_ARGS.name });
}

export function targetsFromEnv(env: NodeJS.ProcessEnv = process.env): BenchTargets {
  const get = (name: string): string => {
    const value = env[name];
    if (value === undefined || value === '') throw new Error(`${name} is required`);
    return value;
  };
  return {
    tflUrl: get('TFL_API_BASE_URL'),
    tflKey: get('TFL_API_KEY'),
    routingUrl: get('DIGITRANSIT_ROUTING_URL'),
    geocodingUrl: get('DIGITRANSIT_GEOCODING_URL'),
    digitransitKey: get('DIGITRANSIT_SUBSCRIPTION_KEY'),
  };
}

/**
 * The environment the benchmarked bin runs with: the server's defaults, limits included, against these
 * targets. Loopback endpoints get no local Digitransit limit (DIGITRANSIT_CALLS_PER_SECOND=auto); the London
 * tools' own limits are lifted, as the benchmark calls them faster than a person would, and every London call
 * goes upstream, as the direct one does (with the answer cache a repeated question within TfL's lifetime costs
 * no upstream call at all, which is not what this compares).
 */
export function serverEnv(targets: BenchTargets, dataDir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TFL_API_KEY: targets.tflKey,
    DIGITRANSIT_SUBSCRIPTION_KEY: targets.digitransitKey,
    TFL_API_BASE_URL: targets.tflUrl,
    DIGITRANSIT_ROUTING_URL: targets.routingUrl,
    DIGITRANSIT_GEOCODING_URL: targets.geocodingUrl,
    PLAN_JOURNEY_TPS: '10000',
    LONDON_ARRIVALS_TPS: '10000',
    LINE_STATUS_TPS: '10000',
    LONDON_STOPS_TPS: '10000',
    TFL_CACHE_MAX_ENTRIES: '0',
    SWITCHYARD_DATA_DIR: dataDir,
    SWITCHYARD_LOG_LEVEL: 'warn',
  };
}
