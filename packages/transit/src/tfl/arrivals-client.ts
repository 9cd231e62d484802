// Arrival predictions from TfL, through the answer cache (cached-answers.ts).
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { ArrivalDirection } from '@switchyard/contracts/transit';
import { PredictionListSchema, type Prediction } from './arrivals-wire.js';
import type { CachedTflGet, Fetched, TflRequest } from './cached-answers.js';
import { parseTfl } from './client.js';
import { tflListSegment, tflPathSegment } from './path-segment.js';
import type { Cached } from './response-cache.js';

export interface ArrivalsQuery {
  /** NaPTAN id, upper case. */
  stopId: string;
  /** Lower-case TfL line ids, sorted; undefined for every line at the stop. */
  lineIds?: readonly string[];
  direction: ArrivalDirection;
}

export interface ArrivalsAnswer {
  /** Predictions as TfL sent them, less the ones it marks for deletion (operationType 2). */
  predictions: Prediction[];
}

export interface ArrivalsSource {
  arrivals(query: ArrivalsQuery, signal?: AbortSignal): Promise<Cached<Fetched<ArrivalsAnswer>>>;
}

/** The TfL request for a query: StopPoint arrivals, or Line arrivals (with TfL's direction) when lines are named. */
export function arrivalsRequest(query: ArrivalsQuery): TflRequest {
  const stop = tflPathSegment(query.stopId, 'stop');
  if (query.lineIds === undefined) return { path: `StopPoint/${stop}/Arrivals`, searchParams: {} };
  return {
    path: `Line/${tflListSegment(query.lineIds, 'lines')}/Arrivals/${stop}`,
    searchParams: { direction: query.direction },
  };
}

function unknownStop(query: ArrivalsQuery): SwitchyardError {
  const lines = query.lineIds === undefined ? '' : ` or one of the lines ${query.lineIds.join(', ')}`;
  return new SwitchyardError('not-found', `TfL does not know the stop point "${query.stopId}"${lines}`, {
    hint: 'Check the NaPTAN id (e.g. 940GZZLUOXC for Oxford Circus) and the line ids (e.g. victoria).',
    retryable: false,
  });
}

/** Kept for the earliest prediction `timeToLive` (and TfL's max-age): predictions change every few seconds. */
export function createArrivalsSource(get: CachedTflGet): ArrivalsSource {
  return {
    arrivals: (query, signal) =>
      get(
        arrivalsRequest(query),
        {
          notFound: () => unknownStop(query),
          read(body) {
            const predictions = parseTfl(PredictionListSchema, body, 'arrivals answer').filter(
              (prediction) => prediction.operationType !== 2,
            );
            const expiries = predictions.map((prediction) => Date.parse(prediction.timeToLive ?? ''));
            return { value: { predictions }, expiries };
          },
        },
        signal,
      ),
  };
}
