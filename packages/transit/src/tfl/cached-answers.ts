// TfL reads that go through the answer cache: one upstream request per distinct request (path and query)
// within TfL's own lifetime for its answer, shared by every caller; the tool's limiter (in its `get`)
// counts only the requests that reach TfL. Each London tool says how to read its body and what TfL's 404
// means for it.
import type { SwitchyardError } from '@switchyard/contracts/errors';
import { assertOk, readJson } from '@switchyard/resilience';
import type { SearchParams, UpstreamGet } from '../upstream.js';
import { answerLifetimeMs } from './cache-lifetime.js';
import { TFL } from './client.js';
import type { Cached, ResponseCache } from './response-cache.js';

export interface TflRequest {
  path: string;
  searchParams: SearchParams;
}

/** How one tool reads TfL's answer. */
export interface TflAnswerReader<T> {
  /** The error for TfL's 404 (what the tool asked for does not exist). */
  notFound(): SwitchyardError;
  /** The parsed answer, and the instants (epoch ms) at which parts of it expire, if the body says. */
  read(body: unknown, fetchedAtMs: number): { value: T; expiries?: readonly number[] };
}

/** An answer and when this server received it (epoch ms). */
export type Fetched<T> = T & { fetchedAtMs: number };

export type CachedTflGet = <T extends object>(
  request: TflRequest,
  reader: TflAnswerReader<T>,
  signal?: AbortSignal,
) => Promise<Cached<Fetched<T>>>;

export interface CachedTflGetOptions {
  /** TfL's GET under this tool's limiter (cache hits and shared calls cost nothing). */
  get: UpstreamGet;
  cache: ResponseCache;
  now?: () => number;
}

export function cacheKey(request: TflRequest): string {
  const query = new URLSearchParams(
    Object.entries(request.searchParams).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
  return query === '' ? request.path : `${request.path}?${query}`;
}

export function createCachedTflGet(options: CachedTflGetOptions): CachedTflGet {
  const now = options.now ?? Date.now;
  return (request, reader, signal) =>
    options.cache.get(
      cacheKey(request),
      () =>
        // The body is read inside the policy, so that a malformed one counts as this attempt's failure.
        options.get(request.path, request.searchParams, async (response) => {
          if (response.status === 404) {
            throw reader.notFound();
          }
          await assertOk(response, { upstream: TFL });
          const body = await readJson(response, { upstream: TFL });
          const fetchedAtMs = now();
          const { value, expiries = [] } = reader.read(body, fetchedAtMs);
          return {
            value: { ...value, fetchedAtMs },
            lifetimeMs: answerLifetimeMs(response.headers, expiries, fetchedAtMs),
          };
        }),
      signal,
    );
}
