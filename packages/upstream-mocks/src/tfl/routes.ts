// The TfL mock's routes: which path is which endpoint, and each one's normal answer.
import type { RecordedRequest } from '../http.js';
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';
import { buildArrivals, KNOWN_ARRIVAL_LINES } from './arrivals.js';
import { TFL_STATIONS } from './data.js';
import { apiErrorReply, NO_JOURNEY_MESSAGE } from './errors.js';
import { buildItineraryResult, type JourneyRequest } from './journeys.js';
import {
  buildLineStatus,
  KNOWN_STATUS_LINES,
  KNOWN_STATUS_MODES,
  type StatusSelection,
} from './line-status.js';
import { journeyRequest } from './request.js';
import { buildStopSearch, buildStopsNearby } from './stops.js';
import { JSON_HEADERS } from './scenarios.js';

/** What a matched route answers when no fault is chosen, and what the faults start from. */
export interface TflRouteAnswer {
  readonly endpoint: RecordedRequest['endpoint'];
  readonly params: Readonly<Record<string, string>>;
  readonly normal: MockReply;
  readonly body: unknown;
  readonly journey?: JourneyRequest;
  readonly notFoundMessage: string;
}

export interface TflRouteRequest {
  readonly url: URL;
  readonly rawUrl: string;
  readonly query: Readonly<Record<string, string>>;
  readonly nowMs: number;
}

interface TflRoute {
  readonly pattern: RegExp;
  answer(segments: readonly string[], request: TflRouteRequest): TflRouteAnswer;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The stop's arrivals (an unknown stop's body faults start from Oxford Circus's); 404 for an unknown stop or line. */
function arrivalsAnswer(
  params: Record<string, string>,
  request: TflRouteRequest,
  lineIds?: readonly string[],
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
  const normal =
    !known || unknownLine !== undefined
      ? apiErrorReply(404, request.rawUrl, notFoundMessage, request.nowMs)
      : reply.json(200, body, JSON_HEADERS);
  return { endpoint: 'tfl-arrivals', params, normal, body, notFoundMessage };
}

function idList(ids: string): string[] {
  return ids
    .split(',')
    .map((id) => id.trim().toLowerCase())
    .filter((id) => id !== '');
}

/** A TfL date-time path segment (`2026-11-28T00:00:00`, London time as TfL reads it; taken as UTC here). */
function pathInstant(segment: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(segment) ? segment : `${segment}Z`);
}

function lineStatusAnswer(
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
  const normal =
    unknown === undefined
      ? reply.json(200, body, JSON_HEADERS)
      : apiErrorReply(404, request.rawUrl, notFoundMessage, request.nowMs);
  return { endpoint: 'tfl-line-status', params, normal, body, notFoundMessage };
}

const MAX_SEARCH_RESULTS = 50;

/** A comma-separated list parameter, or undefined when absent. */
function listParam(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : idList(value);
}

function stopSearchAnswer(query: string, request: TflRouteRequest): TflRouteAnswer {
  const maxResults = Math.min(Number(request.query['maxResults'] ?? MAX_SEARCH_RESULTS), MAX_SEARCH_RESULTS);
  const body = buildStopSearch(query, listParam(request.query['modes']), maxResults);
  return {
    endpoint: 'tfl-stops',
    params: { query },
    normal: reply.json(200, body, JSON_HEADERS),
    body,
    notFoundMessage: `No stop point matches ${query}`,
  };
}

/** Stop points around a coordinate; TfL takes `location.lat`/`location.lon` (its swagger) or `lat`/`lon`. */
function stopsNearbyAnswer(request: TflRouteRequest): TflRouteAnswer {
  const { query } = request;
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
  const normal =
    missing === undefined
      ? reply.json(200, body, JSON_HEADERS)
      : apiErrorReply(400, request.rawUrl, `The ${missing} field is required.`, request.nowMs);
  return { endpoint: 'tfl-stops', params: {}, normal, body, notFoundMessage: 'No stop point found' };
}

const ROUTES: readonly TflRoute[] = [
  {
    pattern: /^\/journey\/journeyresults\/([^/]+)\/to\/([^/]+)\/?$/i,
    answer([from = '', to = ''], request) {
      const journey = journeyRequest(from, to, request.url, request.query, request.nowMs);
      const body = buildItineraryResult(journey);
      return {
        endpoint: 'tfl-journey',
        params: { from, to },
        normal: reply.json(200, body, JSON_HEADERS),
        body,
        journey,
        notFoundMessage: NO_JOURNEY_MESSAGE,
      };
    },
  },
  {
    pattern: /^\/stoppoint\/([^/]+)\/arrivals\/?$/i,
    answer: ([stopPointId = ''], request) => arrivalsAnswer({ stopPointId }, request),
  },
  {
    pattern: /^\/line\/([^/]+)\/arrivals\/([^/]+)\/?$/i,
    answer: ([ids = '', stopPointId = ''], request) =>
      arrivalsAnswer({ ids, stopPointId }, request, idList(ids)),
  },
  {
    pattern: /^\/stoppoint\/search\/([^/]+)\/?$/i,
    answer: ([query = ''], request) => stopSearchAnswer(query, request),
  },
  {
    pattern: /^\/stoppoint\/?$/i,
    answer: (_segments, request) => stopsNearbyAnswer(request),
  },
  {
    pattern: /^\/line\/mode\/([^/]+)\/status\/?$/i,
    answer: ([modes = ''], request) => lineStatusAnswer({ modes }, request, { modes: idList(modes) }),
  },
  {
    pattern: /^\/line\/([^/]+)\/status\/([^/]+)\/to\/([^/]+)\/?$/i,
    answer([ids = '', startDate = '', endDate = ''], request) {
      const range = { fromMs: pathInstant(startDate), toMs: pathInstant(endDate) };
      return lineStatusAnswer({ ids, startDate, endDate }, request, { lineIds: idList(ids), range });
    },
  },
  {
    pattern: /^\/line\/([^/]+)\/status\/?$/i,
    answer: ([ids = ''], request) => lineStatusAnswer({ ids }, request, { lineIds: idList(ids) }),
  },
];

/** The route a path belongs to and its answers; undefined when no route matches. */
export function matchTflRoute(request: TflRouteRequest): TflRouteAnswer | undefined {
  for (const route of ROUTES) {
    const match = route.pattern.exec(request.url.pathname);
    if (match) return route.answer(match.slice(1).map(decodeSegment), request);
  }
  return undefined;
}
