import { RUN_STATES, type RunState } from '@switchyard/contracts/launch-runs';
import type Database from 'better-sqlite3';
import type { RunRow } from '../../db/schema.js';
import { isLeaseLive } from './lease.js';
import { isTerminal, isTransitional } from './state-machine.js';

type Columns = Pick<RunRow, 'state' | 'lastError' | 'activeWorker' | 'interruptedAt' | 'lastStableState'>;

/** One test on one column of `runs`: how it reads a row, and the same test in SQL. */
interface ColumnTest {
  holds(row: Columns): boolean;
  sql: string;
  params: readonly string[];
}

const stateIn = (states: readonly RunState[], wanted: boolean): ColumnTest => ({
  holds: (row) => states.includes(row.state as RunState) === wanted,
  sql: `state ${wanted ? '' : 'NOT '}IN (${states.map(() => '?').join(', ')})`,
  params: states,
});

const isNull = (field: 'lastError' | 'activeWorker' | 'interruptedAt', column: string, wanted: boolean) => ({
  holds: (row: Columns) => (row[field] === null) === wanted,
  sql: `${column} IS ${wanted ? '' : 'NOT '}NULL`,
  params: [],
});

const TRANSITIONAL = RUN_STATES.filter(isTransitional);

/**
 * In a transitional state it does not rest in: a run of model drafting rests in DRAFTING, waiting for the
 * caller's drafts, and records it as its last stable state (events.ts).
 */
const mid: ColumnTest = {
  holds: (row) => TRANSITIONAL.includes(row.state as RunState) && row.lastStableState !== row.state,
  sql:
    `(state IN (${TRANSITIONAL.map(() => '?').join(', ')}) AND ` +
    '(last_stable_state IS NULL OR last_stable_state <> state))',
  params: TRANSITIONAL,
};

/**
 * Left mid-step, the one definition: not finished, no recorded failure explains the stop, and either its state
 * is transitional (and not one it rests in) or a worker was running. Every test of `all` holds, and one at least of `any`.
 */
const LEFT_MID_STEP = {
  all: [stateIn(RUN_STATES.filter(isTerminal), false), isNull('lastError', 'last_error', true)],
  any: [mid, isNull('activeWorker', 'active_worker', false)],
};

/** Whether a dead process may have left the run mid-step (its lease aside). */
export function leftMidStep(row: Columns): boolean {
  return (
    LEFT_MID_STEP.all.every((test) => test.holds(row)) && LEFT_MID_STEP.any.some((test) => test.holds(row))
  );
}

/** A run a dead process left mid-step: left so, and nobody holds its lease. */
export function isInterrupted(row: RunRow, nowMs: number): boolean {
  return leftMidStep(row) && !isLeaseLive(row, nowMs);
}

const NOT_MARKED = isNull('interruptedAt', 'interrupted_at', true);

/**
 * `leftMidStep` and not marked interrupted yet, as a WHERE clause over `runs` with its parameters, for the
 * start-up check that must not load the run store (hasRunsToRecover). The lease is left out: a live one
 * only makes the sweep skip the run.
 */
export const UNMARKED_LEFT_MID_STEP_SQL = {
  where: [...LEFT_MID_STEP.all, NOT_MARKED]
    .map((test) => test.sql)
    .concat(`(${LEFT_MID_STEP.any.map((test) => test.sql).join(' OR ')})`)
    .join(' AND '),
  params: [...LEFT_MID_STEP.all, NOT_MARKED, ...LEFT_MID_STEP.any].flatMap((test) => test.params),
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
