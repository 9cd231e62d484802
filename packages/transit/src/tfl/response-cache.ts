// A small in-process cache of TfL answers, keyed by the exact upstream request and kept for TfL's own
// lifetime: several callers asking the same thing within it cost one upstream call. Bounded in entries and
// bytes (least recently used out first); identical requests in flight share one call; failures are not kept.
import { SwitchyardError } from '@switchyard/contracts/errors';
import { LRUCache } from 'lru-cache';

/** What a load fetched, and for how long TfL says it stays current. */
export interface Loaded<T> {
  value: T;
  /** Milliseconds from now; 0 or less keeps nothing. */
  lifetimeMs: number;
}

/** A value with the instant (epoch ms) until which it is current. */
export interface Cached<T> {
  value: T;
  expiresAtMs: number;
}

export interface ResponseCacheOptions {
  /** Most answers kept; 0 keeps none (identical requests in flight still share one call). */
  maxEntries: number;
  /** Most bytes kept, answers measured as JSON. */
  maxBytes: number;
  /** The clock (epoch ms); tests pass their own. */
  now?: () => number;
}

export interface ResponseCache {
  /**
   * The current answer for `key`, else the one `load` fetches. The load runs without the caller's signal
   * (other callers may be waiting on it); `signal` only stops this caller's wait.
   */
  get<T>(key: string, load: () => Promise<Loaded<T>>, signal?: AbortSignal): Promise<Cached<T>>;
}

function sizeOf(value: unknown): number {
  return Math.max(1, Buffer.byteLength(JSON.stringify(value) ?? ''));
}

function waitFor<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  const cancelled = () => new SwitchyardError('cancelled', 'The call was cancelled while waiting for TfL');
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const now = options.now ?? Date.now;
  const stored =
    options.maxEntries > 0 && options.maxBytes > 0
      ? new LRUCache<string, Cached<unknown>>({
          max: options.maxEntries,
          maxSize: options.maxBytes,
          perf: { now },
          // Read the clock at every lookup (by default lru-cache reuses one reading for 1 ms of real time).
          ttlResolution: 0,
        })
      : undefined;
  const inFlight = new Map<string, Promise<Cached<unknown>>>();

  async function fetchAndKeep<T>(key: string, load: () => Promise<Loaded<T>>): Promise<Cached<T>> {
    const { value, lifetimeMs } = await load();
    const cached = { value, expiresAtMs: now() + Math.max(0, lifetimeMs) };
    // lru-cache refuses an entry larger than maxSize on its own.
    if (lifetimeMs >= 1) stored?.set(key, cached, { ttl: Math.floor(lifetimeMs), size: sizeOf(value) });
    return cached;
  }

  return {
    get<T>(key: string, load: () => Promise<Loaded<T>>, signal?: AbortSignal): Promise<Cached<T>> {
      const hit = stored?.get(key) as Cached<T> | undefined;
      if (hit !== undefined) return Promise.resolve(hit);
      let pending = inFlight.get(key) as Promise<Cached<T>> | undefined;
      if (pending === undefined) {
        pending = fetchAndKeep(key, load).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return waitFor(pending, signal);
    },
  };
}
