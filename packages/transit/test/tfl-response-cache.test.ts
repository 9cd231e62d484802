// The TfL answer cache on its own clock: TfL's lifetime (earliest of max-age less Age and the predictions'
// timeToLive), shared in-flight loads, failures not kept, entry and byte bounds, a caller's own abort.
import { SwitchyardError } from '@switchyard/contracts/errors';
import { describe, expect, it } from 'vitest';
import { answerLifetimeMs, headerLifetimeMs } from '../src/tfl/cache-lifetime.js';
import { createResponseCache, type Loaded } from '../src/tfl/response-cache.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function counter<T>(value: T, lifetimeMs: number) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    load: async (): Promise<Loaded<T>> => {
      calls += 1;
      return { value, lifetimeMs };
    },
  };
}

describe('TfL caching hints', () => {
  it('max-age less Age; none for no-store and no-cache; undefined without max-age', () => {
    expect(headerLifetimeMs(new Headers({ 'cache-control': 'public, must-revalidate, max-age=30' }))).toBe(
      30_000,
    );
    expect(headerLifetimeMs(new Headers({ 'cache-control': 'max-age=30', age: '12' }))).toBe(18_000);
    expect(headerLifetimeMs(new Headers({ 'cache-control': 'max-age=30', age: '40' }))).toBe(0);
    expect(headerLifetimeMs(new Headers({ 'cache-control': 'no-store, max-age=30' }))).toBe(0);
    expect(headerLifetimeMs(new Headers({ 'cache-control': 'no-cache' }))).toBe(0);
    expect(headerLifetimeMs(new Headers({ 'cache-control': 's-maxage=60' }))).toBeUndefined();
    expect(headerLifetimeMs(new Headers())).toBeUndefined();
  });

  it('the earliest of max-age and the timeToLive instants; nothing said keeps nothing', () => {
    const headers = new Headers({ 'cache-control': 'max-age=30' });
    expect(answerLifetimeMs(headers, [5_000 + 12_000, 5_000 + 90_000], 5_000)).toBe(12_000);
    expect(answerLifetimeMs(headers, [5_000 + 45_000, Number.NaN], 5_000)).toBe(30_000);
    expect(answerLifetimeMs(headers, [Number.NEGATIVE_INFINITY, 5_000 + 20_000], 5_000)).toBe(20_000);
    expect(answerLifetimeMs(new Headers(), [5_000 + 45_000], 5_000)).toBe(45_000);
    expect(answerLifetimeMs(headers, [1_000], 5_000)).toBe(0);
    expect(answerLifetimeMs(new Headers(), [], 5_000)).toBe(0);
  });
});

describe('response cache', () => {
  it('answers from the cache within the lifetime, and loads again once it has passed', async () => {
    const time = clock();
    const cache = createResponseCache({ maxEntries: 10, maxBytes: 10_000, now: time.now });
    const source = counter(['a'], 20_000);
    const first = await cache.get('k', source.load);
    expect(first.expiresAtMs).toBe(time.now() + 20_000);
    time.advance(19_999);
    expect((await cache.get('k', source.load)).value).toEqual(['a']);
    expect(source.calls).toBe(1);
    time.advance(2);
    await cache.get('k', source.load);
    expect(source.calls).toBe(2);
  });

  it('keys by request: another key is another load', async () => {
    const cache = createResponseCache({ maxEntries: 10, maxBytes: 10_000, now: clock().now });
    const source = counter(1, 60_000);
    await cache.get('StopPoint/A/Arrivals?', source.load);
    await cache.get('StopPoint/B/Arrivals?', source.load);
    await cache.get('StopPoint/A/Arrivals?', source.load);
    expect(source.calls).toBe(2);
  });

  it('identical requests in flight share one load', async () => {
    const cache = createResponseCache({ maxEntries: 10, maxBytes: 10_000, now: clock().now });
    let release!: () => void;
    let calls = 0;
    const load = async (): Promise<Loaded<string>> => {
      calls += 1;
      await new Promise<void>((resolve) => (release = resolve));
      return { value: 'v', lifetimeMs: 0 };
    };
    const waiting = Array.from({ length: 8 }, () => cache.get('k', load));
    await Promise.resolve();
    release();
    expect((await Promise.all(waiting)).map((c) => c.value)).toEqual(Array(8).fill('v'));
    expect(calls).toBe(1);
  });

  it('keeps no failure and no answer without a lifetime', async () => {
    const cache = createResponseCache({ maxEntries: 10, maxBytes: 10_000, now: clock().now });
    let calls = 0;
    const failing = async (): Promise<Loaded<string>> => {
      calls += 1;
      throw new SwitchyardError('upstream-error', 'TfL answered 500');
    };
    await expect(cache.get('k', failing)).rejects.toThrow('TfL answered 500');
    await expect(cache.get('k', failing)).rejects.toThrow('TfL answered 500');
    expect(calls).toBe(2);
    const uncacheable = counter('v', 0);
    await cache.get('u', uncacheable.load);
    await cache.get('u', uncacheable.load);
    expect(uncacheable.calls).toBe(2);
  });

  it('holds at most maxEntries answers, least recently used out first', async () => {
    const cache = createResponseCache({ maxEntries: 2, maxBytes: 10_000, now: clock().now });
    const source = counter('v', 60_000);
    await cache.get('a', source.load);
    await cache.get('b', source.load);
    await cache.get('a', source.load);
    await cache.get('c', source.load); // evicts b
    expect(source.calls).toBe(3);
    await cache.get('a', source.load);
    expect(source.calls).toBe(3);
    await cache.get('b', source.load);
    expect(source.calls).toBe(4);
  });

  it('holds at most maxBytes (answers measured as JSON); one larger than that is not kept', async () => {
    const cache = createResponseCache({ maxEntries: 100, maxBytes: 100, now: clock().now });
    const big = counter('x'.repeat(200), 60_000);
    await cache.get('big', big.load);
    await cache.get('big', big.load);
    expect(big.calls).toBe(2);
    const small = counter('x'.repeat(40), 60_000);
    for (const key of ['a', 'b', 'c']) await cache.get(key, small.load);
    expect(small.calls).toBe(3);
    await cache.get('a', small.load); // a (42 bytes) was pushed out by c: 3 x 42 > 100
    expect(small.calls).toBe(4);
  });

  it('0 entries keeps nothing', async () => {
    const cache = createResponseCache({ maxEntries: 0, maxBytes: 10_000, now: clock().now });
    const source = counter('v', 60_000);
    await cache.get('k', source.load);
    await cache.get('k', source.load);
    expect(source.calls).toBe(2);
  });

  it("a caller's abort ends its own wait only; the shared load still answers the others", async () => {
    const cache = createResponseCache({ maxEntries: 10, maxBytes: 10_000, now: clock().now });
    let release!: () => void;
    const load = async (): Promise<Loaded<string>> => {
      await new Promise<void>((resolve) => (release = resolve));
      return { value: 'v', lifetimeMs: 60_000 };
    };
    const controller = new AbortController();
    const aborted = cache.get('k', load, controller.signal);
    const other = cache.get('k', load);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ kind: 'cancelled' });
    // A caller whose signal is already aborted does not wait at all.
    const alreadyAborted = expect(cache.get('k', load, AbortSignal.abort())).rejects.toMatchObject({
      kind: 'cancelled',
    });
    release();
    await alreadyAborted;
    expect((await other).value).toBe('v');
  });
});
