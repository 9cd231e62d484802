import { lazy } from './lazy.js';

/** How a domain's store loads on first use, and what a caller is told when it cannot. */
export interface LazyStoreOptions<Store, Why extends unknown[]> {
  /** Imports the store's code (drizzle and what is over it) and opens it over the already open database. */
  load: () => Promise<Store>;
  /**
   * The domain's own error for a failed load (every failure comes here, its cause untouched); `why` is what
   * the caller passed to `get`, for domains whose errors name the operation that needed the store.
   */
  unavailable: (cause: unknown, ...why: Why) => Error;
  /** Frees what the loaded store holds; the database under it is closed by its owner. */
  close?: (store: Store) => void | Promise<void>;
}

/** A store that loads with the first call that needs it. */
export interface LazyStore<Store, Why extends unknown[] = []> {
  /** Loaded once; a failed load rejects with `unavailable(cause, ...why)`; the next call retries. */
  get: (...why: Why) => Promise<Store>;
  /**
   * Waits for a load in flight, then closes what was loaded (once). A load after close is the domain's to
   * refuse (its `load` checks its own closed flag) or to fail (on the closed database).
   */
  close: () => Promise<void>;
}

/**
 * The one way a domain loads its drizzle-backed store: not at start (drizzle's query builder is over a
 * hundred modules), but with the first call that needs it. What happens when that load fails is decided
 * here: the caller gets the domain's `unavailable` error, the process keeps serving, the next call loads
 * again. (`lazy` is the same for a module, with its failure as it is.)
 */
export function lazyStore<Store, Why extends unknown[] = []>(
  options: LazyStoreOptions<Store, Why>,
): LazyStore<Store, Why> {
  const load = lazy(options.load);
  /** The latest load, so that close() can wait for one in flight and close what it loaded. */
  let latest: Promise<Store> | undefined;
  return {
    async get(...why) {
      latest = load();
      try {
        return await latest;
      } catch (cause) {
        throw options.unavailable(cause, ...why);
      }
    },
    async close() {
      const closing = latest;
      latest = undefined;
      await closing?.then(
        (store) => options.close?.(store),
        () => undefined,
      );
    },
  };
}
