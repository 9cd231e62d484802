// The TfL mock's routes: which path is which endpoint, and each one's normal answer.
import type { RecordedRequest } from '../http.js';
import { buildArrivals, KNOWN_ARRIVAL_LINES } from './arrivals.js';
import { TFL_STATIONS } from './data.js';
import { NO_JOURNEY_MESSAGE } from './errors.js';
import { buildItineraryResult, type JourneyRequest } from './journeys.js';
import { buildLineStatus, KNOWN_STATUS_LINES, KNOWN_STATUS_MODES } from './line-status.js';
import type { StatusSelection } from './line-status.js';
import { journeyRequest } from './request.js';
import { buildStopSearch, buildStopsNearby } from './stops.js';

/** What a matched route answers when no fault is chosen, and what the faults start from. */
export interface TflRouteAnswer {
  readonly endpoint: RecordedRequest['endpoint'];
  readonly params: Readonly<Record<string, string>>;
  /** The 200 body, which the body faults also start from (even when the request itself fails). */
  readonly body: unknown;
  /** The ApiError the route answers instead of the body (an unknown stop, a missing parameter). */
  readonly error?: { readonly status: 400 | 404; readonly message: string } | undefined;
  readonly journey?: JourneyRequest;
  /** The route's 404 message (`not-found`). */
  readonly notFoundMessage: string;
}

interface TflRouteRequest {
  readonly url: URL;
  readonly query: Readonly<Record<string, string>>;
  readonly nowMs: number;
}

/** A route's answer from its decoded path parameters; `matchTflRoute` adds the endpoint and parameters. */
type Answer = (
  params: Readonly<Record<string, string>>,
  request: TflRouteRequest,
) => Omit<TflRouteAnswer, 'endpoint' | 'params'>;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A comma-separated list of ids, lower case. */
function idList(ids: string): string[] {
  return ids
    .split(',')
    .map((id) => id.trim().toLowerCase())
    .filter((id) => id !== '');
}

/** A comma-separated list parameter, or undefined when absent. */
function listParam(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : idList(value);
}

/** A TfL date-time path segment (`2026-11-28T00:00:00`, London time as TfL reads it; taken as UTC here). */
function pathInstant(segment: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(segment) ? segment : `${segment}Z`);
}

/**
 * A stop's arrivals, of the lines `ids` when given (an unknown stop's body faults start from Oxford
 * Circus's); 404 for an unknown stop or line.
 */
const arrivals: Answer = ({ stopPointId: stopId = '', ids }, request) => {
  const lineIds = listParam(ids);
  const known = Object.values(TFL_STATIONS).some((station) => station.naptanId === stopId.toUpperCase());
  const unknownLine = lineIds?.find((id) => !KNOWN_ARRIVAL_LINES.has(id));
  const notFoundMessage =
    unknownLine !== undefined
      ? `The following line id is not recognised: ${unknownLine}`
      : `The following stop point is not recognised: ${stopId}`;
  const naptanId = known ? stopId.toUpperCase() : '940GZZLUOXC';
  const body = buildArrivals({ naptanId, lineIds, direction: request.query['direction'] }, request.nowMs);
  const error =
    !known || unknownLine !== undefined ? { status: 404 as const, message: notFoundMessage } : undefined;
  return { body, error, notFoundMessage };
};

function lineStatus(request: TflRouteRequest, selection: StatusSelection): ReturnType<Answer> {
  const unknown =
    'modes' in selection
      ? selection.modes.find((mode) => !KNOWN_STATUS_MODES.has(mode))
      : selection.lineIds.find((id) => !KNOWN_STATUS_LINES.has(id));
  const notFoundMessage = `The following ${'modes' in selection ? 'mode' : 'line'} id is not recognised: ${unknown ?? ''}`;
  const body = buildLineStatus(selection, request.nowMs);
  const error = unknown === undefined ? undefined : { status: 404 as const, message: notFoundMessage };
  return { body, error, notFoundMessage };
}

const MAX_SEARCH_RESULTS = 50;

/** Stop points around a coordinate; TfL takes `location.lat`/`location.lon` (its swagger) or `lat`/`lon`. */
const stopsNearby: Answer = (_params, { query }) => {
  const lat = Number(query['location.lat'] ?? query['lat']);
  const lon = Number(query['location.lon'] ?? query['lon']);
  const stopTypes = listParam(query['stopTypes']);
  const body = buildStopsNearby({
    lat,
    lon,
    radius: Number(query['radius'] ?? 200),
    stopTypes: stopTypes ?? [],
    modes: listParam(query['modes']),
    returnLines: query['returnLines']?.toLowerCase() === 'true',
  });
  const missing =
    stopTypes === undefined
      ? 'stopTypes'
      : !Number.isFinite(lat) || !Number.isFinite(lon)
        ? 'location'
        : undefined;
  const error = missing && { status: 400 as const, message: `The ${missing} field is required.` };
  return { body, error, notFoundMessage: 'No stop point found' };
};

/** Each route: its path (case-insensitive; named groups are its parameters, URL-decoded) and its answer. */
const ROUTES: readonly (readonly [RegExp, RecordedRequest['endpoint'], Answer])[] = [
  [
    /^\/journey\/journeyresults\/(?<from>[^/]+)\/to\/(?<to>[^/]+)\/?$/i,
    'tfl-journey',
    ({ from = '', to = '' }, request) => {
      const journey = journeyRequest(from, to, request.url, request.query, request.nowMs);
      return { body: buildItineraryResult(journey), journey, notFoundMessage: NO_JOURNEY_MESSAGE };
    },
  ],
  [/^\/stoppoint\/(?<stopPointId>[^/]+)\/arrivals\/?$/i, 'tfl-arrivals', arrivals],
  [/^\/line\/(?<ids>[^/]+)\/arrivals\/(?<stopPointId>[^/]+)\/?$/i, 'tfl-arrivals', arrivals],
  [
    /^\/stoppoint\/search\/(?<query>[^/]+)\/?$/i,
    'tfl-stops',
    ({ query = '' }, request) => {
      const max = Math.min(Number(request.query['maxResults'] ?? MAX_SEARCH_RESULTS), MAX_SEARCH_RESULTS);
      const body = buildStopSearch(query, listParam(request.query['modes']), max);
      return { body, notFoundMessage: `No stop point matches ${query}` };
    },
  ],
  [/^\/stoppoint\/?$/i, 'tfl-stops', stopsNearby],
  [
    /^\/line\/mode\/(?<modes>[^/]+)\/status\/?$/i,
    'tfl-line-status',
    ({ modes = '' }, request) => lineStatus(request, { modes: idList(modes) }),
  ],
  [
    /^\/line\/(?<ids>[^/]+)\/status\/(?<startDate>[^/]+)\/to\/(?<endDate>[^/]+)\/?$/i,
    'tfl-line-status',
    ({ ids = '', startDate = '', endDate = '' }, request) => {
      const range = { fromMs: pathInstant(startDate), toMs: pathInstant(endDate) };
      return lineStatus(request, { lineIds: idList(ids), range });
    },
  ],
  [
    /^\/line\/(?<ids>[^/]+)\/status\/?$/i,
    'tfl-line-status',
    ({ ids = '' }, request) => lineStatus(request, { lineIds: idList(ids) }),
  ],
];

/** The route a path belongs to and its answers; undefined when no route matches. */
export function matchTflRoute(request: TflRouteRequest): TflRouteAnswer | undefined {
  for (const [pattern, endpoint, answer] of ROUTES) {
    const match = pattern.exec(request.url.pathname);
    if (match === null) continue;
    const params = Object.fromEntries(
      Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeSegment(value)]),
    );
    return { endpoint, params, ...answer(params, request) };
  }
  return undefined;
}
