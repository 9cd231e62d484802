// Arrival predictions from TfL through the response cache: one upstream request per distinct query within
// TfL's lifetime for it, shared by every caller.
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { ArrivalDirection } from '@switchyard/contracts/transit';
import { assertOk, readJson, type CallLimiter } from '@switchyard/resilience';
import type { SearchParams, UpstreamGet } from '../upstream.js';
import { answerLifetimeMs } from './cache-lifetime.js';
import { parseTfl, TFL } from './client.js';
import { PredictionListSchema, type Prediction } from './arrivals-wire.js';
import type { Cached, ResponseCache } from './response-cache.js';

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
  /** When this server received them (epoch ms). */
  fetchedAtMs: number;
}

export interface ArrivalsSource {
  arrivals(query: ArrivalsQuery, signal?: AbortSignal): Promise<Cached<ArrivalsAnswer>>;
}

export interface ArrivalsSourceOptions {
  get: UpstreamGet;
  cache: ResponseCache;
  /** Upstream calls per second (cache hits and shared calls cost nothing). */
  limiter: CallLimiter;
  now?: () => number;
}

/** The TfL request for a query: StopPoint arrivals, or Line arrivals (with TfL's direction) when lines are named. */
export function arrivalsRequest(query: ArrivalsQuery): { path: string; searchParams: SearchParams } {
  const stop = encodeURIComponent(query.stopId);
  if (query.lineIds === undefined) return { path: `StopPoint/${stop}/Arrivals`, searchParams: {} };
  return {
    path: `Line/${query.lineIds.map(encodeURIComponent).join(',')}/Arrivals/${stop}`,
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

export function createArrivalsSource(options: ArrivalsSourceOptions): ArrivalsSource {
  const now = options.now ?? Date.now;

  async function load(query: ArrivalsQuery, path: string, searchParams: SearchParams) {
    await options.limiter.consume();
    const { predictions, headers } = await options.get(path, searchParams, async (response) => {
      if (response.status === 404) {
        await response.body?.cancel().catch(() => undefined);
        throw unknownStop(query);
      }
      await assertOk(response, { upstream: TFL });
      const body = await readJson(response, { upstream: TFL });
      return {
        predictions: parseTfl(PredictionListSchema, body, 'arrivals answer'),
        headers: response.headers,
      };
    });
    const fetchedAtMs = now();
    const live = predictions.filter((prediction) => prediction.operationType !== 2);
    const expiries = live.map((prediction) => Date.parse(prediction.timeToLive ?? ''));
    return {
      value: { predictions: live, fetchedAtMs },
      lifetimeMs: answerLifetimeMs(headers, expiries, fetchedAtMs),
    };
  }

  return {
    arrivals(query, signal) {
      const { path, searchParams } = arrivalsRequest(query);
      const key = `${path}?${new URLSearchParams(searchParams as Record<string, string>).toString()}`;
      return options.cache.get(key, () => load(query, path, searchParams), signal);
    },
  };
}
