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

type Answer = (segments: readonly string[], request: TflRouteRequest) => TflRouteAnswer;

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

/** The stop's arrivals (an unknown stop's body faults start from Oxford Circus's); 404 for an unknown stop or line. */
function arrivals(
  params: Record<string, string>,
  request: TflRouteRequest,
  lineIds?: string[],
): TflRouteAnswer {
  const stopId = params['stopPointId'] ?? '';
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
  return { endpoint: 'tfl-arrivals', params, body, error, notFoundMessage };
}

function lineStatus(
  params: Record<string, string>,
  request: TflRouteRequest,
  selection: StatusSelection,
): TflRouteAnswer {
  const unknown =
    'modes' in selection
      ? selection.modes.find((mode) => !KNOWN_STATUS_MODES.has(mode))
      : selection.lineIds.find((id) => !KNOWN_STATUS_LINES.has(id));
  const notFoundMessage = `The following ${'modes' in selection ? 'mode' : 'line'} id is not recognised: ${unknown ?? ''}`;
  const body = buildLineStatus(selection, request.nowMs);
  const error = unknown === undefined ? undefined : { status: 404 as const, message: notFoundMessage };
  return { endpoint: 'tfl-line-status', params, body, error, notFoundMessage };
}

const MAX_SEARCH_RESULTS = 50;

/** Stop points around a coordinate; TfL takes `location.lat`/`location.lon` (its swagger) or `lat`/`lon`. */
const stopsNearby: Answer = (_segments, { query }) => {
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
  return { endpoint: 'tfl-stops', params: {}, body, error, notFoundMessage: 'No stop point found' };
};

/** Each route: its path (case-insensitive, segments URL-decoded) and its answer. */
const ROUTES: readonly (readonly [RegExp, Answer])[] = [
  [
    /^\/journey\/journeyresults\/([^/]+)\/to\/([^/]+)\/?$/i,
    ([from = '', to = ''], request) => {
      const journey = journeyRequest(from, to, request.url, request.query, request.nowMs);
      const body = buildItineraryResult(journey);
      return {
        endpoint: 'tfl-journey',
        params: { from, to },
        body,
        journey,
        notFoundMessage: NO_JOURNEY_MESSAGE,
      };
    },
  ],
  [
    /^\/stoppoint\/([^/]+)\/arrivals\/?$/i,
    ([stopPointId = ''], request) => arrivals({ stopPointId }, request),
  ],
  [
    /^\/line\/([^/]+)\/arrivals\/([^/]+)\/?$/i,
    ([ids = '', stopPointId = ''], request) => arrivals({ ids, stopPointId }, request, idList(ids)),
  ],
  [
    /^\/stoppoint\/search\/([^/]+)\/?$/i,
    ([query = ''], request) => {
      const max = Math.min(Number(request.query['maxResults'] ?? MAX_SEARCH_RESULTS), MAX_SEARCH_RESULTS);
      const body = buildStopSearch(query, listParam(request.query['modes']), max);
      return {
        endpoint: 'tfl-stops',
        params: { query },
        body,
        notFoundMessage: `No stop point matches ${query}`,
      };
    },
  ],
  [/^\/stoppoint\/?$/i, stopsNearby],
  [
    /^\/line\/mode\/([^/]+)\/status\/?$/i,
    ([modes = ''], request) => lineStatus({ modes }, request, { modes: idList(modes) }),
  ],
  [
    /^\/line\/([^/]+)\/status\/([^/]+)\/to\/([^/]+)\/?$/i,
    ([ids = '', startDate = '', endDate = ''], request) => {
      const range = { fromMs: pathInstant(startDate), toMs: pathInstant(endDate) };
      return lineStatus({ ids, startDate, endDate }, request, { lineIds: idList(ids), range });
    },
  ],
  [
    /^\/line\/([^/]+)\/status\/?$/i,
    ([ids = ''], request) => lineStatus({ ids }, request, { lineIds: idList(ids) }),
  ],
];

/** The route a path belongs to and its answers; undefined when no route matches. */
export function matchTflRoute(request: TflRouteRequest): TflRouteAnswer | undefined {
  for (const [pattern, answer] of ROUTES) {
    const match = pattern.exec(request.url.pathname);
    if (match) return answer(match.slice(1).map(decodeSegment), request);
  }
  return undefined;
}
