import type Database from 'better-sqlite3';
import { UNMARKED_LEFT_MID_STEP_SQL } from './model/interrupted.js';

const QUERY = `SELECT 1 FROM runs WHERE ${UNMARKED_LEFT_MID_STEP_SQL.where} LIMIT 1`;

/**
 * Whether the start-up sweep (open-runs.ts) may find a run to mark interrupted: an unfinished run, not
 * marked yet, without an error, left mid-step (runs/model/interrupted.ts), asked in SQL so that a start on an
 * empty, finished or resting database does not load the run store. A run parked in a stable state (VALIDATING,
 * READY_FOR_PR, …) waits for its user, not for recovery.
 */
export function hasRunsToRecover(sqlite: Database.Database): boolean {
  return sqlite.prepare(QUERY).get(...UNMARKED_LEFT_MID_STEP_SQL.params) !== undefined;
}
