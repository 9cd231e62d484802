import { RUN_STATES } from '@switchyard/contracts/launch-runs';
import type Database from 'better-sqlite3';
import { isTerminal, isTransitional } from './model/state-machine.js';

const TERMINAL = RUN_STATES.filter(isTerminal);
const TRANSITIONAL = RUN_STATES.filter(isTransitional);
const placeholders = (list: readonly unknown[]) => list.map(() => '?').join(', ');

const QUERY = `SELECT 1 FROM runs
  WHERE state NOT IN (${placeholders(TERMINAL)})
    AND interrupted_at IS NULL
    AND last_error IS NULL
    AND (state IN (${placeholders(TRANSITIONAL)}) OR active_worker IS NOT NULL)
  LIMIT 1`;

/**
 * Whether the start-up sweep (open-runs.ts) may find a run to mark interrupted: an unfinished run, not
 * marked yet, without an error, left mid-step. It is status.ts's isInterrupted short of the lease check (a
 * live lease only makes the sweep skip the run), asked in raw SQL so that a start on an empty, finished or
 * resting database does not load the run store. A run parked in a stable state (VALIDATING, READY_FOR_PR,
 * …) waits for its user, not for recovery.
 */
export function hasRunsToRecover(sqlite: Database.Database): boolean {
  return sqlite.prepare(QUERY).get(...TERMINAL, ...TRANSITIONAL) !== undefined;
}
