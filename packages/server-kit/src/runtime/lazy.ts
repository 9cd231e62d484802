/**
 * A loader for something startup does not need, typically a module: `lazy(() => import('./heavy.js'))`.
 * The first call starts `load`; every caller gets that same promise. A failed load is not kept, so the next
 * call tries again (a package being reinstalled, a transient EMFILE) instead of failing for the process's life.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= Promise.resolve()
      .then(load)
      .catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
    return pending;
  };
}
