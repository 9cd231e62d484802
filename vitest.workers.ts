import { availableParallelism } from 'node:os';

/**
 * How many test files run at once (SWITCHYARD_TEST_WORKERS; default: one per core). vitest's own default is
 * one less than the cores, which on a 2-core machine runs every file alone; most files spend their time
 * waiting on the processes they start (servers, PostgreSQL, git, hugo, chromium), so one per core is measured
 * faster (server-kit on 2 cores: 72 s with 1 worker, 52 s with 2) and still leaves each file a core's worth.
 */
export function testWorkers(): number {
  const given = process.env.SWITCHYARD_TEST_WORKERS?.trim();
  if (given === undefined || given === '') return Math.max(availableParallelism(), 1);
  const workers = Number(given);
  if (!Number.isInteger(workers) || workers < 1) {
    throw new Error(`SWITCHYARD_TEST_WORKERS must be a whole number of at least 1, not "${given}"`);
  }
  return workers;
}
