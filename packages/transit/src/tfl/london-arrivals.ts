// get_london_arrivals: TfL predictions as the contract's envelope, soonest first, with minutes counted from
// the moment of the answer (a cached answer's `timeToStation` would be stale).
import {
  type GetLondonArrivalsOutput,
  type GetLondonArrivalsRequest,
  type LondonArrival,
} from '@switchyard/contracts/transit';
import { nonEmpty } from '../wire.js';
import type { ArrivalsQuery, ArrivalsSource } from './arrivals-client.js';
import type { Prediction } from './arrivals-wire.js';
import { tflAnswer } from './tfl-answer.js';

const DIRECTIONS = new Set(['inbound', 'outbound']);

export interface LondonArrivalsCall {
  /** The NaPTAN id (from the input, or the saved tfl-stop it named). */
  stopId: string;
  request: GetLondonArrivalsRequest;
  signal?: AbortSignal;
  /** The clock minutes are counted on (epoch ms); read once the answer is there. */
  now?: () => number;
}

/** The upstream query: the id in TfL's upper case, the lines sorted and once each (one cache entry per question). */
export function arrivalsQuery(stopId: string, request: GetLondonArrivalsRequest): ArrivalsQuery {
  return {
    stopId: stopId.toUpperCase(),
    lineIds: request.lines === undefined ? undefined : [...new Set(request.lines)].sort(),
    direction: request.direction,
  };
}

/**
 * A prediction that can be shown (it has a line and a readable expected arrival) with what it is sorted by;
 * only the ones shown become arrivals.
 */
interface Timed {
  prediction: Prediction;
  lineId: string;
  expectedMs: number;
}

function timed(prediction: Prediction): Timed | undefined {
  const lineId = nonEmpty(prediction.lineId);
  const expectedMs = Date.parse(prediction.expectedArrival ?? '');
  return lineId === undefined || !Number.isFinite(expectedMs)
    ? undefined
    : { prediction, lineId, expectedMs };
}

function soonestFirst(a: Timed, b: Timed): number {
  return a.expectedMs - b.expectedMs || a.lineId.localeCompare(b.lineId);
}

function toArrival({ prediction, lineId, expectedMs }: Timed, nowMs: number): LondonArrival {
  const direction = nonEmpty(prediction.direction)?.toLowerCase();
  return {
    lineId,
    lineName: nonEmpty(prediction.lineName) ?? lineId,
    mode: nonEmpty(prediction.modeName) ?? 'unknown',
    destination: nonEmpty(prediction.destinationName) ?? '',
    towards: nonEmpty(prediction.towards),
    platform: nonEmpty(prediction.platformName),
    direction:
      direction !== undefined && DIRECTIONS.has(direction)
        ? (direction as 'inbound' | 'outbound')
        : undefined,
    expectedArrival: new Date(expectedMs).toISOString(),
    minutesToArrival: Math.max(0, Math.floor((expectedMs - nowMs) / 60_000)),
    currentLocation: nonEmpty(prediction.currentLocation),
  };
}

/** Still current (TfL's `timeToLive` not passed), on a line and in a direction asked for. */
function wanted(prediction: Prediction, query: ArrivalsQuery, nowMs: number): boolean {
  const expiry = Date.parse(prediction.timeToLive ?? '');
  if (Number.isFinite(expiry) && expiry < nowMs) return false;
  const lineId = nonEmpty(prediction.lineId)?.toLowerCase();
  if (query.lineIds !== undefined && (lineId === undefined || !query.lineIds.includes(lineId))) return false;
  return query.direction === 'all' || nonEmpty(prediction.direction)?.toLowerCase() === query.direction;
}

/** When TfL last updated any of the predictions (epoch ms); undefined when none says so readably. */
function latestUpdate(predictions: readonly Prediction[]): number | undefined {
  let latest: number | undefined;
  for (const { timestamp } of predictions) {
    const ms = Date.parse(timestamp ?? '');
    if (Number.isFinite(ms) && (latest === undefined || ms > latest)) latest = ms;
  }
  return latest;
}

export async function getLondonArrivals(
  source: ArrivalsSource,
  call: LondonArrivalsCall,
): Promise<GetLondonArrivalsOutput> {
  const query = arrivalsQuery(call.stopId, call.request);
  const cached = await tflAnswer(() => source.arrivals(query, call.signal));
  const { predictions, fetchedAtMs } = cached.value;
  const nowMs = (call.now ?? Date.now)();
  const arrivals: Timed[] = [];
  for (const prediction of predictions) {
    const arrival = wanted(prediction, query, nowMs) ? timed(prediction) : undefined;
    if (arrival !== undefined) arrivals.push(arrival);
  }
  const shown = arrivals
    .sort(soonestFirst)
    .slice(0, call.request.limit)
    .map((arrival) => toArrival(arrival, nowMs));
  const stopName =
    predictions.reduce<string | undefined>((found, p) => found ?? nonEmpty(p.stationName), undefined) ?? null;
  const where = stopName ?? query.stopId;
  return {
    success: true,
    code: 'OK',
    message:
      shown.length === 0
        ? `No arrivals are predicted at ${where} for this selection.`
        : `${shown.length} next ${shown.length === 1 ? 'arrival' : 'arrivals'} at ${where}, soonest first.`,
    stopId: query.stopId,
    stopName,
    arrivals: shown,
    dataFreshness: new Date(latestUpdate(predictions) ?? fetchedAtMs).toISOString(),
    validUntil: new Date(cached.expiresAtMs).toISOString(),
    ...(arrivals.length > shown.length
      ? {
          warnings: [
            {
              code: 'truncated-results' as const,
              message: `${arrivals.length} arrivals are predicted; the ${shown.length} soonest are shown (limit).`,
            },
          ],
        }
      : {}),
  };
}
