import { describe, expect, it } from 'vitest';
import { lazyStore } from '../src/runtime/index.js';

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A domain's own error for a store that could not be loaded. */
class StoreUnavailable extends Error {
  constructor(operation: string, cause: unknown) {
    super(`${operation}: the store could not be loaded`, { cause });
  }
}

/** A store that records whether it was closed. */
function fakeStore() {
  return { closed: 0 };
}

describe('lazyStore', () => {
  it('loads nothing until asked, then once: concurrent and later callers share the store', async () => {
    let loads = 0;
    const store = lazyStore({
      load: async () => {
        loads += 1;
        return fakeStore();
      },
      unavailable: (cause) => new Error('unavailable', { cause }),
    });
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([store.get(), store.get()]);
    expect(b).toBe(a);
    expect(await store.get()).toBe(a);
    expect(loads).toBe(1);
  });

  it('answers a failed load with the domain’s error, from its cause and the caller’s why', async () => {
    const broken = new Error('Cannot find module ./store.js');
    const store = lazyStore({
      load: () => Promise.reject(broken),
      unavailable: (cause, operation: string) => new StoreUnavailable(operation, cause),
    });
    const failure = await store.get('Failed to add document').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailable);
    expect(failure).toMatchObject({
      message: 'Failed to add document: the store could not be loaded',
      cause: broken,
    });
  });

  it('retries after a failure: the next call loads again, and keeps what it loaded', async () => {
    let attempts = 0;
    const store = lazyStore({
      load: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('EMFILE: too many open files');
        return fakeStore();
      },
      unavailable: (cause) => new Error('unavailable', { cause }),
    });
    await expect(store.get()).rejects.toThrow('unavailable');
    const loaded = await store.get();
    expect(await store.get()).toBe(loaded);
    expect(attempts).toBe(2);
  });

  it('maps a loader that throws synchronously too', async () => {
    const store = lazyStore({
      load: () => {
        throw new Error('broken');
      },
      unavailable: (cause) => new Error('unavailable', { cause }),
    });
    await expect(store.get()).rejects.toThrow('unavailable');
  });

  it('close() waits for a load in flight and closes what it loaded, once', async () => {
    const loading = deferred<{ closed: number }>();
    const store = lazyStore({
      load: () => loading.promise,
      unavailable: (cause) => new Error('unavailable', { cause }),
      close: (loaded) => {
        loaded.closed += 1;
      },
    });
    const got = store.get();
    let closeDone = false;
    const closing = store.close().then(() => {
      closeDone = true;
    });
    await new Promise(setImmediate);
    expect(closeDone).toBe(false);
    const loaded = fakeStore();
    loading.resolve(loaded);
    await closing;
    expect(await got).toBe(loaded);
    expect(loaded.closed).toBe(1);
    await store.close();
    expect(loaded.closed).toBe(1);
  });

  it('close() closes nothing when nothing loaded, or when the load in flight fails', async () => {
    let closes = 0;
    const loading = deferred<{ closed: number }>();
    const store = lazyStore({
      load: () => loading.promise,
      unavailable: (cause) => new Error('unavailable', { cause }),
      close: () => {
        closes += 1;
      },
    });
    await store.close();
    const got = store.get().catch((error: unknown) => error);
    const closing = store.close();
    loading.reject(new Error('disk I/O error'));
    await closing;
    expect(await got).toMatchObject({ message: 'unavailable' });
    expect(closes).toBe(0);
  });
});
