// TfL stop points by name or around a coordinate, through the answer cache (cached-answers.ts): stops change
// rarely, so TfL's max-age usually lets a repeated search cost nothing.
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { FindLondonStopsRequest, LondonStop } from '@switchyard/contracts/transit';
import type { SearchParams } from '../upstream.js';
import { nonEmpty } from '../wire.js';
import type { CachedTflGet, Fetched, TflRequest } from './cached-answers.js';
import { parseTfl } from './client.js';
import { tflPathSegment } from './path-segment.js';
import type { Cached } from './response-cache.js';
import {
  SearchResponseSchema,
  StopPointsResponseSchema,
  type MatchedStop,
  type StopPointWire,
} from './stops-wire.js';

/** The NaPTAN stop types a search around a coordinate asks for: stations, bus, coach and tram stops, piers. */
export const NEARBY_STOP_TYPES = [
  'NaptanMetroStation',
  'NaptanRailStation',
  'NaptanPublicBusCoachTram',
  'NaptanFerryPort',
].join(',');

export interface StopsAnswer {
  stops: LondonStop[];
  /** How many stops TfL says matched (more than `stops` when it kept some back). */
  total: number;
}

export interface StopsSource {
  find(request: FindLondonStopsRequest, signal?: AbortSignal): Promise<Cached<Fetched<StopsAnswer>>>;
}

/** TfL's request: a search by name (TfL's own maximum of results), or the stop points around a coordinate. */
export function stopsRequest(request: FindLondonStopsRequest): TflRequest {
  const modes: SearchParams =
    request.modes === undefined ? {} : { modes: [...new Set(request.modes)].sort().join(',') };
  if (request.name !== undefined) {
    return {
      path: `StopPoint/Search/${tflPathSegment(request.name, 'name')}`,
      searchParams: { ...modes, maxResults: 50 },
    };
  }
  const near = request.near!;
  return {
    path: 'StopPoint',
    searchParams: {
      'location.lat': near.lat,
      'location.lon': near.lon,
      radius: request.radiusMeters,
      stopTypes: NEARBY_STOP_TYPES,
      ...modes,
      returnLines: true,
    },
  };
}

interface StopExtras {
  stopLetter?: string | undefined;
  distance?: number | undefined;
}

function toStop(
  stop: MatchedStop | StopPointWire,
  id: string,
  name: string,
  extras: StopExtras = {},
): LondonStop {
  return {
    id,
    name,
    lat: stop.lat,
    lon: stop.lon,
    modes: stop.modes,
    lines: stop.lines.map((line) => line.id),
    stopLetter: nonEmpty(extras.stopLetter),
    zone: nonEmpty(stop.zone),
    distanceMeters: extras.distance === undefined ? undefined : Math.round(extras.distance),
  };
}

function readSearch(body: unknown): StopsAnswer {
  const { matches, total } = parseTfl(SearchResponseSchema, body, 'stop search answer');
  return {
    stops: matches.map((match) => toStop(match, match.id, match.name)),
    total: total ?? matches.length,
  };
}

function readNearby(body: unknown): StopsAnswer {
  const { stopPoints, total } = parseTfl(StopPointsResponseSchema, body, 'stop points answer');
  const stops = stopPoints.flatMap((stop) => {
    const id = nonEmpty(stop.naptanId) ?? nonEmpty(stop.id);
    return id === undefined
      ? []
      : [toStop(stop, id, stop.commonName, { stopLetter: stop.stopLetter, distance: stop.distance })];
  });
  stops.sort((a, b) => (a.distanceMeters ?? 0) - (b.distanceMeters ?? 0));
  return { stops, total: Math.max(total ?? 0, stops.length) };
}

export function createStopsSource(get: CachedTflGet): StopsSource {
  return {
    find: (request, signal) =>
      get(
        stopsRequest(request),
        {
          notFound: () =>
            new SwitchyardError('not-found', 'TfL found no stop for this search', {
              hint: 'Try another part of the name, or a wider radiusMeters.',
              retryable: false,
            }),
          read: (body) => ({ value: request.name !== undefined ? readSearch(body) : readNearby(body) }),
        },
        signal,
      ),
  };
}
