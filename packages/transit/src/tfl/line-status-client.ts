// Line status from TfL through the response cache: one upstream request per distinct question within TfL's
// own lifetime for its answer (its Cache-Control), shared by every caller.
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { LineStatusMode } from '@switchyard/contracts/transit';
import { assertOk, readJson, type CallLimiter } from '@switchyard/resilience';
import type { UpstreamGet } from '../upstream.js';
import { answerLifetimeMs } from './cache-lifetime.js';
import { parseTfl, TFL } from './client.js';
import { LineListSchema, type LineWire } from './line-status-wire.js';
import type { Cached, ResponseCache } from './response-cache.js';

/** Lines (lower-case ids, sorted) or modes, and for lines optionally a range of London days. */
export type LineStatusQuery =
  { lineIds: readonly string[]; days?: { from: string; to: string } } | { modes: readonly LineStatusMode[] };

export interface LineStatusAnswer {
  lines: LineWire[];
  /** When this server received them (epoch ms). */
  fetchedAtMs: number;
}

export interface LineStatusSource {
  status(query: LineStatusQuery, signal?: AbortSignal): Promise<Cached<LineStatusAnswer>>;
}

export interface LineStatusSourceOptions {
  get: UpstreamGet;
  cache: ResponseCache;
  /** Upstream calls per second (cache hits and shared calls cost nothing). */
  limiter: CallLimiter;
  now?: () => number;
}

const joined = (ids: readonly string[]) => ids.map(encodeURIComponent).join(',');

/** The TfL path for a query: by line ids (over whole days for a range), or by mode. */
export function lineStatusPath(query: LineStatusQuery): string {
  if ('modes' in query) return `Line/Mode/${joined(query.modes)}/Status`;
  if (query.days === undefined) return `Line/${joined(query.lineIds)}/Status`;
  const { from, to } = query.days;
  return `Line/${joined(query.lineIds)}/Status/${from}T00:00:00/to/${to}T23:59:59`;
}

function unknownLine(query: LineStatusQuery): SwitchyardError {
  const asked =
    'modes' in query ? `the modes ${query.modes.join(', ')}` : `the lines ${query.lineIds.join(', ')}`;
  return new SwitchyardError('not-found', `TfL does not know ${asked}`, {
    hint: 'Check the line ids (e.g. victoria, hammersmith-city, elizabeth, 25).',
    retryable: false,
  });
}

export function createLineStatusSource(options: LineStatusSourceOptions): LineStatusSource {
  const now = options.now ?? Date.now;

  async function load(query: LineStatusQuery, path: string) {
    await options.limiter.consume();
    const { lines, headers } = await options.get(path, {}, async (response) => {
      if (response.status === 404) {
        await response.body?.cancel().catch(() => undefined);
        throw unknownLine(query);
      }
      await assertOk(response, { upstream: TFL });
      const body = await readJson(response, { upstream: TFL });
      return { lines: parseTfl(LineListSchema, body, 'line status answer'), headers: response.headers };
    });
    const fetchedAtMs = now();
    return { value: { lines, fetchedAtMs }, lifetimeMs: answerLifetimeMs(headers, [], fetchedAtMs) };
  }

  return {
    status(query, signal) {
      const path = lineStatusPath(query);
      return options.cache.get(path, () => load(query, path), signal);
    },
  };
}
