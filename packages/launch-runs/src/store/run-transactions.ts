import type { EventRow, IssueRow, RunRow, TaskRow } from '../db/schema.js';
import { reduce, type RunEventInput } from '../runs/model/events.js';
import type { SQL } from 'drizzle-orm';
import type { TraceIds } from './event-chain.js';
import type {
  Decide,
  EventMatch,
  EventsAfter,
  LeaseOptions,
  NewRun,
  RunWrite,
  TaskChange,
} from './launch-store.js';
import {
  assertActiveRunRoom,
  chainedEventRows,
  insertWinner,
  leaseTake,
  requireRun,
  runInsert,
  type EventValues,
} from './run-changes.js';
import { taskRowValues } from './task-rows.js';

// The stores' write transactions, each written once over a dialect's statements (RunStatements). SQLite's
// statements answer at once (better-sqlite3's transactions are synchronous), PostgreSQL's answer promises; so
// a transaction is a generator that yields each statement's answer, and the dialect's runner (runAtOnce,
// runAwaiting) gives it back as a value. What is written is decided by run-changes.ts, without a database.

/** A statement's answer: the value, or a promise of it. */
export type Answer<T> = T | Promise<T>;

/** The statements of one open write transaction, in one dialect. */
export interface RunStatements {
  /** The run, locked for the transaction (other writers of it wait). */
  lockRow(runId: string): Answer<RunRow | undefined>;
  /** The run, locked, or as it is and `busy` when another transaction is changing it right now. */
  lockForLease(runId: string): Answer<{ row: RunRow | undefined; busy: boolean }>;
  /** Makes the inserts (and leases that make a DONE run active) of all processes take turns. */
  lockInserts(): Answer<void>;
  byKey(owner: string, key: string | undefined): Answer<RunRow | undefined>;
  /** `owner`'s active runs at `nowMs` (active-runs.ts), all but `except`. */
  activeRuns(owner: string, nowMs: number, except?: string): Answer<number>;
  newestCreatedMs(): Answer<number | null>;
  /** The inserted row, or undefined when the run's idempotency key is taken. */
  insertRow(values: RunRow): Answer<RunRow | undefined>;
  write(runId: string, values: Partial<RunRow>): Answer<RunRow>;
  replaceIssues(runId: string, rows: IssueRow[]): Answer<void>;
  putArtifact(artifact: NonNullable<RunWrite['artifact']>): Answer<void>;
  /** The run's newest event's number and hash: where its chain goes on (undefined: the run has none). */
  eventTail(runId: string): Answer<{ runSeq: number; eventHash: string } | undefined>;
  insertEvents(rows: EventValues[]): Answer<void>;
  /** The run's newest event `match` selects (run-conditions.ts eventsMatching). */
  newestEvent(runId: string, match: EventMatch): Answer<EventRow | undefined>;
  /** The events `selection` selects, in order. */
  eventsAfter(selection: EventsAfter): Answer<EventRow[]>;
  /** The task whatever its principal (callers check it). */
  taskById(taskId: string): Answer<TaskRow | undefined>;
  insertTask(values: TaskRow): Answer<void>;
  /**
   * Deletes up to `batch` of the tasks expired at `nowMs` (run-conditions.ts expiredTasks), of any run; rows
   * another transaction holds are left for a later one.
   */
  deleteExpiredTasks(nowMs: number, batch: number): Answer<void>;
  /** Sets the task's end unless it has one. */
  endTask(taskId: string, outcome: string, nowMs: number): Answer<void>;
  /** Sets `values` on the runs `where` selects: how many it changed (the lease calls, outside a transaction). */
  updateRuns(values: Partial<RunRow>, where: SQL | undefined): Answer<number>;
}

export type Steps<T> = Generator<unknown, T, unknown>;

/** What the write transactions take besides the statements, the same in both dialects. */
export interface WriteSettings {
  now: () => number;
  /** The calling span's ids, recorded on each event appended. */
  trace: () => TraceIds | undefined;
  /** Expired tasks each task opened deletes (LAUNCH_EXPIRED_TASK_BATCH). */
  expiredTaskBatch: number;
}

/** An open write transaction: the dialect's statements on it, with the settings its writes take. */
export type Transaction = RunStatements & WriteSettings;

/** The statement's value, from the runner that awaited it if it is a promise. */
function* answer<T>(statement: Answer<T>): Steps<T> {
  return (yield statement) as T;
}

/** Runs a transaction whose statements answer at once. */
export function runAtOnce<T>(steps: Steps<T>): T {
  let step = steps.next();
  while (step.done !== true) step = steps.next(step.value);
  return step.value;
}

/** Runs a transaction whose statements answer promises, one statement at a time. */
export async function runAwaiting<T>(steps: Steps<T>): Promise<T> {
  let step = steps.next();
  while (step.done !== true) {
    step = await Promise.resolve(step.value).then(
      (value) => steps.next(value),
      (error: unknown) => steps.throw(error),
    );
  }
  return step.value;
}

/** LaunchStore.insert. */
export function* inserting(db: Transaction, run: NewRun): Steps<{ row: RunRow; created: boolean }> {
  yield* answer(db.lockInserts());
  const existing = yield* answer(db.byKey(run.owner, run.idempotencyKey));
  if (existing !== undefined) return yield* withTask(db, run, { row: existing, created: false });
  const active = yield* answer(db.activeRuns(run.owner, db.now()));
  const write = runInsert(run, active, yield* answer(db.newestCreatedMs()), db.now());
  const inserted = yield* answer(db.insertRow(write.values));
  if (inserted === undefined) {
    const winner = insertWinner(run, yield* answer(db.byKey(run.owner, run.idempotencyKey)));
    return yield* withTask(db, run, winner);
  }
  yield* appendEvents(db, run.runId, write.events);
  return yield* withTask(db, run, { row: inserted, created: true });
}

/** The insert's answer, with its task (if any) bound to the run answered, in the same transaction. */
function* withTask<T extends { row: RunRow }>(db: Transaction, run: NewRun, answered: T) {
  if (run.task !== undefined)
    yield* opening(db, taskRowValues(run.task, answered.row.runId, answered.row.leaseOwner, db.now()));
  return answered;
}

/** A task's row inserted, and a batch of expired ones deleted with it: each open keeps the table bounded. */
function* opening(db: Transaction, values: TaskRow): Steps<void> {
  yield* answer(db.insertTask(values));
  yield* answer(db.deleteExpiredTasks(values.createdMs, db.expiredTaskBatch));
}

/** Appends to the run's chain after its tail (its row is locked, or was just inserted). */
function* appendEvents(db: Transaction, runId: string, added: RunEventInput[]): Steps<void> {
  if (added.length === 0) return;
  const tail = yield* answer(db.eventTail(runId));
  yield* answer(db.insertEvents(chainedEventRows(tail, runId, added, db.trace(), db.now())));
}

/** LaunchStore.append. */
export function* appending(
  db: Transaction,
  runId: string,
  token: string | null,
  decide: Decide,
): Steps<RunRow> {
  const row = requireRun(yield* answer(db.lockRow(runId)), runId, token);
  const nowMs = db.now();
  const write = decide(row, nowMs);
  if (write === undefined) return row;
  const values = reduce(row, write.events, nowMs);
  if (write.issues !== undefined) yield* answer(db.replaceIssues(runId, write.issues));
  if (write.artifact !== undefined) yield* answer(db.putArtifact(write.artifact));
  if (write.task !== undefined) yield* taskWrite(db, runId, write.task, nowMs);
  const written = values === undefined ? row : yield* answer(db.write(runId, values));
  yield* appendEvents(db, runId, write.events);
  return written;
}

/** The statements writing a task change of the run `runId`. */
function* taskWrite(db: Transaction, runId: string, change: TaskChange, nowMs: number): Steps<void> {
  if ('open' in change) yield* opening(db, taskRowValues(change.open, runId, change.leaseOwner, nowMs));
  else yield* answer(db.endTask(change.end, change.outcome, nowMs));
}

/** LaunchStore.acquireLease. */
export function* leasing(
  db: Transaction,
  runId: string,
  token: string,
  leaseMs: number,
  options: LeaseOptions,
): Steps<{ row: RunRow; busy: boolean }> {
  const locked = yield* answer(db.lockForLease(runId));
  const row = requireRun(locked.row, runId, null);
  const take = locked.busy
    ? { answer: { row, busy: true } }
    : leaseTake(row, token, leaseMs, options, db.now());
  if ('answer' in take) {
    options.admit?.(row, true);
    return take.answer;
  }
  if (take.roomUnder !== undefined) {
    // After the row lock: inserts take the insert lock alone and wait on no row, so no lock cycle forms.
    yield* answer(db.lockInserts());
    assertActiveRunRoom(take.roomUnder, yield* answer(db.activeRuns(row.owner, db.now(), runId)));
  }
  if (options.admit?.(row, false) === false) return { row, busy: false };
  const leased = yield* answer(db.write(runId, take.values));
  if (options.task !== undefined) yield* opening(db, taskRowValues(options.task, runId, token, db.now()));
  return { row: leased, busy: false };
}
