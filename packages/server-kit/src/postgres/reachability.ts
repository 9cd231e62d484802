import type pg from 'pg';

/**
 * Whether `pool` reaches its database now, for `/readyz`: a `SELECT 1`, answered false when it fails or takes
 * longer than `timeoutMs`. Askers at the same moment share one probe, so that a flood of readiness requests
 * costs one query at a time.
 */
export function postgresReachability(pool: pg.Pool, timeoutMs: number): () => Promise<boolean> {
  let probing: Promise<boolean> | undefined;
  const probe = async (): Promise<boolean> => {
    if (pool.ending) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const answered = pool.query('SELECT 1').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  return () =>
    (probing ??= probe().finally(() => {
      probing = undefined;
    }));
}
