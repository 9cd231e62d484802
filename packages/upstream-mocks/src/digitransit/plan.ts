// planConnection (and the deprecated plan): reads OTP's arguments, applies what OTP honours
// (first, maximumTransfers, transit modes, includeRealTimeCancellations, wheelchair), answers routing errors.
import { HELSINKI, localDateTime, localDateTimeMs, offsetDateTime } from '../time.js';
import { findStop, ROUTER_BOUNDS } from './data.js';
import type { Node, ResolverContext } from './context.js';
import { buildItinerary } from './itineraries.js';
import type { BuiltItinerary, Endpoint } from './itineraries.js';
import type { RoutingErrorCode } from './scenario-data.js';

type Obj = Record<string, unknown>;

const asObj = (value: unknown): Obj => (value !== null && typeof value === 'object' ? (value as Obj) : {});

type InputField = 'FROM' | 'TO' | null;

interface RoutingError {
  readonly code: RoutingErrorCode;
  readonly description: string;
  readonly inputField: InputField;
}

/** OTP's English messages for these codes (PlannerErrorMapper); LOCATION_NOT_FOUND names the side. */
const DESCRIPTIONS: Record<RoutingErrorCode, (inputField: InputField) => string> = {
  NO_TRANSIT_CONNECTION: () =>
    'No trip found. There may be no transit service within the maximum specified distance or at the specified time, or your start or end point might not be safely accessible.',
  OUTSIDE_BOUNDS: () =>
    'Trip is not possible. You might be trying to plan a trip outside the map data boundary.',
  LOCATION_NOT_FOUND: (inputField) =>
    inputField === 'TO'
      ? 'Destination is unknown.  Can you be a bit more descriptive?'
      : 'Origin is unknown. Can you be a bit more descriptive?',
};

function routingError(code: RoutingErrorCode, inputField: InputField): RoutingError {
  return { code, inputField, description: DESCRIPTIONS[code](inputField) };
}

type EndpointResult = { readonly endpoint: Endpoint } | { readonly error: RoutingError };

function endpointFromInput(input: Obj, side: 'FROM' | 'TO', router: string): EndpointResult {
  const location = asObj(input['location']);
  const label = typeof input['label'] === 'string' ? input['label'] : undefined;
  const fallbackName = side === 'FROM' ? 'Origin' : 'Destination';
  const stopLocation = asObj(location['stopLocation']);
  if (typeof stopLocation['stopLocationId'] === 'string') {
    const stop = findStop(stopLocation['stopLocationId']);
    if (!stop) return { error: routingError('LOCATION_NOT_FOUND', side) };
    return { endpoint: { name: label ?? stop.name, lat: stop.lat, lon: stop.lon, stopId: stop.gtfsId } };
  }
  const coordinate = asObj(location['coordinate']);
  const lat = Number(coordinate['latitude']);
  const lon = Number(coordinate['longitude']);
  if (!Number.isFinite(lat) || !Number.isFinite(lon))
    return { error: routingError('LOCATION_NOT_FOUND', side) };
  const bounds = ROUTER_BOUNDS[router] ?? ROUTER_BOUNDS['hsl'];
  if (bounds && (lat < bounds.minLat || lat > bounds.maxLat || lon < bounds.minLon || lon > bounds.maxLon)) {
    return { error: routingError('OUTSIDE_BOUNDS', side) };
  }
  return { endpoint: { name: label ?? fallbackName, lat, lon } };
}

export interface PlanRequest {
  readonly origin: Obj;
  readonly destination: Obj;
  /** Epoch ms of the requested instant. */
  readonly timeMs: number;
  readonly arriveBy: boolean;
  readonly first: number;
  readonly maximumTransfers: number | undefined;
  readonly includeCancellations: boolean;
  readonly wheelchair: boolean;
  readonly transitModes: readonly string[] | undefined;
  readonly transitOnly: boolean;
}

export interface PlanResult {
  readonly itineraries: readonly BuiltItinerary[];
  readonly routingErrors: readonly RoutingError[];
  readonly origin: Endpoint;
  readonly destination: Endpoint;
}

function runPlan(request: PlanRequest, ctx: ResolverContext): PlanResult {
  const call = ctx.nextPlanCall();
  const from = endpointFromInput(request.origin, 'FROM', ctx.router);
  const to = endpointFromInput(request.destination, 'TO', ctx.router);
  const origin = 'endpoint' in from ? from.endpoint : { name: 'Origin', lat: 0, lon: 0 };
  const destination = 'endpoint' in to ? to.endpoint : { name: 'Destination', lat: 0, lon: 0 };
  const errors = [from, to].flatMap((r) => ('error' in r ? [r.error] : []));
  if (errors.length > 0) return { itineraries: [], routingErrors: errors, origin, destination };

  if (ctx.routingError) {
    return { itineraries: [], routingErrors: [routingError(...ctx.routingError)], origin, destination };
  }

  const options = { origin, destination, wheelchair: request.wheelchair };
  const specs = ctx.plans[Math.min(call, ctx.plans.length - 1)] ?? [];
  // Timetables run on whole minutes: start from the next minute (or end by the previous one when arriving by).
  const base = Math.ceil(request.timeMs / 60_000) * 60_000;
  let built = specs.map((spec) => buildItinerary(spec, base, options));
  if (request.arriveBy && built.length > 0) {
    const latestEnd = Math.max(...built.map((b) => b.endMs));
    const shift = latestEnd - Math.floor(request.timeMs / 60_000) * 60_000 + 60_000;
    built = specs.map((spec) => buildItinerary(spec, base - shift, options));
  }
  const allowed = request.transitModes ? new Set(request.transitModes) : undefined;
  const kept = built
    .filter((it) => request.includeCancellations || !it.hasCancelledLeg)
    .filter(
      (it) => request.maximumTransfers === undefined || it.numberOfTransfers <= request.maximumTransfers,
    )
    .filter((it) => !allowed || it.transitModes.every((mode) => allowed.has(mode)))
    .filter((it) => !request.transitOnly || it.hasTransit)
    .sort((a, b) => a.endMs - b.endMs)
    .slice(0, Math.max(0, request.first));
  const routingErrors = kept.length === 0 ? [routingError('NO_TRANSIT_CONNECTION', null)] : [];
  return { itineraries: kept, routingErrors, origin, destination };
}

function pageCursor(kind: 'NEXT_PAGE' | 'PREVIOUS_PAGE', ms: number): string {
  const iso = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return Buffer.from(`1|${kind}|${iso}||1h|STREET_AND_ARRIVAL_TIME|false||`, 'utf8').toString('base64');
}

function requestedTime(dateTime: Obj, now: Date): { ms: number; arriveBy: boolean } {
  const parse = (value: unknown): number | undefined => {
    if (typeof value !== 'string') return undefined;
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  };
  const latest = parse(dateTime['latestArrival']);
  if (latest !== undefined) return { ms: latest, arriveBy: true };
  return { ms: parse(dateTime['earliestDeparture']) ?? now.getTime(), arriveBy: false };
}

/** QueryType.planConnection */
export function planConnection(args: Obj, ctx: ResolverContext): Node {
  const preferences = asObj(args['preferences']);
  const transitPrefs = asObj(preferences['transit']);
  const modes = asObj(args['modes']);
  const transitModes = asObj(modes['transit'])['transit'];
  const when = requestedTime(asObj(args['dateTime']), ctx.now);
  const maximumTransfers = asObj(transitPrefs['transfer'])['maximumTransfers'];
  const result = runPlan(
    {
      origin: asObj(args['origin']),
      destination: asObj(args['destination']),
      timeMs: when.ms,
      arriveBy: when.arriveBy,
      first: typeof args['first'] === 'number' ? args['first'] : 50,
      maximumTransfers: typeof maximumTransfers === 'number' ? maximumTransfers : undefined,
      includeCancellations: asObj(transitPrefs['timetable'])['includeRealTimeCancellations'] === true,
      wheelchair: asObj(asObj(preferences['accessibility'])['wheelchair'])['enabled'] === true,
      transitModes: Array.isArray(transitModes)
        ? transitModes.map((m) => String(asObj(m)['mode']))
        : undefined,
      transitOnly: modes['transitOnly'] === true,
    },
    ctx,
  );
  const searched = result.routingErrors.length === 0 || result.itineraries.length > 0;
  return {
    searchDateTime: offsetDateTime(when.ms, HELSINKI),
    routingErrors: result.routingErrors,
    edges: result.itineraries.map((it) => ({ cursor: 'NoCursor', node: it.node })),
    pageInfo: {
      hasNextPage: searched,
      hasPreviousPage: searched,
      startCursor: searched ? pageCursor('PREVIOUS_PAGE', when.ms - 3600_000) : null,
      endCursor: searched ? pageCursor('NEXT_PAGE', when.ms + 3600_000) : null,
      searchWindowUsed: searched ? 'PT1H' : null,
    },
  };
}

function legacyPlace(endpoint: Endpoint, ms: number): Node {
  return {
    name: endpoint.name,
    lat: endpoint.lat,
    lon: endpoint.lon,
    vertexType: 'NORMAL',
    arrivalTime: ms,
    departureTime: ms,
  };
}

function legacyEndpoint(coords: unknown, place: unknown): Obj {
  const c = asObj(coords);
  if (typeof c['lat'] === 'number' && typeof c['lon'] === 'number') {
    return { location: { coordinate: { latitude: c['lat'], longitude: c['lon'] } }, label: c['address'] };
  }
  if (typeof place === 'string') {
    const [label, rest] = place.includes('::') ? place.split('::') : [undefined, place];
    const [lat, lon] = (rest ?? '').split(',').map(Number);
    if (lat !== undefined && lon !== undefined && Number.isFinite(lat) && Number.isFinite(lon)) {
      return { location: { coordinate: { latitude: lat, longitude: lon } }, label };
    }
    return { location: { stopLocation: { stopLocationId: rest ?? place } }, label };
  }
  return {};
}

/** QueryType.plan (deprecated): same itineraries, legacy argument and result shapes. */
export function legacyPlan(args: Obj, ctx: ResolverContext): Node {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(args['date'] ?? ''));
  const time = /^(\d{1,2}):(\d{2})/.exec(String(args['time'] ?? ''));
  // What is not given is today's, or noon.
  const day = date?.[0] ?? localDateTime(ctx.now.getTime(), HELSINKI).slice(0, 10);
  const ms =
    date || time
      ? localDateTimeMs(`${day}T${time ? `${time[1]}:${time[2]}` : '12:00'}`, HELSINKI)
      : ctx.now.getTime();
  const result = runPlan(
    {
      origin: legacyEndpoint(args['from'], args['fromPlace']),
      destination: legacyEndpoint(args['to'], args['toPlace']),
      timeMs: ms,
      arriveBy: args['arriveBy'] === true,
      first: typeof args['numItineraries'] === 'number' ? args['numItineraries'] : 3,
      maximumTransfers: typeof args['maxTransfers'] === 'number' ? args['maxTransfers'] : undefined,
      includeCancellations: args['omitCanceled'] === false,
      wheelchair: args['wheelchair'] === true,
      transitModes: undefined,
      transitOnly: false,
    },
    ctx,
  );
  return {
    date: ms,
    from: legacyPlace(result.origin, ms),
    to: legacyPlace(result.destination, ms),
    itineraries: result.itineraries.map((it) => it.node),
    routingErrors: result.routingErrors,
    messageEnums: [],
    messageStrings: [],
    searchWindowUsed: 3600,
    nextDateTime: ms + 3600_000,
    prevDateTime: ms - 3600_000,
    nextPageCursor: pageCursor('NEXT_PAGE', ms + 3600_000),
    previousPageCursor: pageCursor('PREVIOUS_PAGE', ms - 3600_000),
    debugOutput: {
      pathCalculationTime: 41,
      precalculationTime: 3,
      renderingTime: 2,
      timedOut: false,
      totalTime: 46,
    },
  };
}
