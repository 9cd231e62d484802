import { RUN_STATES, type RunState } from '@switchyard/contracts/launch-runs';
import type Database from 'better-sqlite3';
import type { RunRow } from '../../db/schema.js';
import { isLeaseLive } from './lease.js';
import { isTerminal, isTransitional } from './state-machine.js';

type Columns = Pick<RunRow, 'state' | 'lastError' | 'activeWorker' | 'interruptedAt' | 'lastStableState'>;

const TERMINAL = RUN_STATES.filter(isTerminal);
const TRANSITIONAL = RUN_STATES.filter(isTransitional);

/**
 * Left mid-step, the one definition: not finished, no recorded failure explains the stop, and either a worker
 * was running or its state is transitional and not one it rests in (a run of model drafting rests in DRAFTING,
 * waiting for the caller's drafts, and records it as its last stable state: events.ts). Its lease aside.
 */
export function leftMidStep(row: Columns): boolean {
  const state = row.state as RunState;
  if (TERMINAL.includes(state) || row.lastError !== null) return false;
  return row.activeWorker !== null || (TRANSITIONAL.includes(state) && row.lastStableState !== row.state);
}

/** A run a dead process left mid-step: left so, and nobody holds its lease. */
export function isInterrupted(row: RunRow, nowMs: number): boolean {
  return leftMidStep(row) && !isLeaseLive(row, nowMs);
}

const placeholders = (states: readonly RunState[]) => states.map(() => '?').join(', ');

/**
 * `leftMidStep` and not marked interrupted yet, as a WHERE clause over `runs` with its parameters, for the
 * start-up check that must not load the run store (hasRunsToRecover); test/lazy-store.test.ts holds it to
 * leftMidStep in every combination of the columns. The lease is left out: a live one only makes the sweep
 * skip the run.
 */
export const UNMARKED_LEFT_MID_STEP_SQL = {
  where:
    `state NOT IN (${placeholders(TERMINAL)}) AND last_error IS NULL AND interrupted_at IS NULL AND ` +
    `(active_worker IS NOT NULL OR (state IN (${placeholders(TRANSITIONAL)}) AND ` +
    '(last_stable_state IS NULL OR last_stable_state <> state)))',
  params: [...TERMINAL, ...TRANSITIONAL],
};

const RECOVERY_QUERY = `SELECT 1 FROM runs WHERE ${UNMARKED_LEFT_MID_STEP_SQL.where} LIMIT 1`;

/**
 * Whether the start-up sweep (open-runs.ts) may find a run to mark interrupted (SQLite), asked in SQL so that
 * a start on an empty, finished or resting database does not load the run store. A run parked in a stable
 * state (VALIDATING, READY_FOR_PR, …) waits for its user, not for recovery.
 */
export function hasRunsToRecover(sqlite: Database.Database): boolean {
  return sqlite.prepare(RECOVERY_QUERY).get(...UNMARKED_LEFT_MID_STEP_SQL.params) !== undefined;
}
