import type { RunRow, TaskRow } from '../db/schema.js';
import { RELEASED_LEASE } from '../runs/model/events.js';
import type { RunEvent, TraceIds } from './event-chain.js';
import { toRunEvent } from './event-log.js';
import type { Decide, EventMatch, EventsAfter, LeaseOptions, LeaseStatus, NewRun } from './launch-store.js';
import { renewalRefused } from './run-changes.js';
import type { runConditions } from './run-conditions.js';
import {
  appending,
  inserting,
  leasing,
  type RunStatements,
  type Steps,
  type Transaction,
  type WriteSettings,
} from './run-transactions.js';
import { EXPIRED_TASK_BATCH } from './task-rows.js';

/** The largest event number a run can have: PostgreSQL's `integer`. */
const MAX_EVENT_SEQ = 2 ** 31 - 1;

/** What a dialect store is built with besides its database: the clock, the trace, the expiry batch. */
export type StoreSettings = ConstructorParameters<typeof StatementLaunchStore>;

/** The conditions of run-conditions.ts the lease calls update by, bound to a dialect's tables. */
type LeaseConditions = Pick<ReturnType<typeof runConditions>, 'renewable' | 'leasedTo' | 'leasedForRequest'>;

/**
 * What both stores do the same way, each method written once: the writes as run-transactions.ts's
 * transactions over a dialect's RunStatements, the lease calls over its statements outside a transaction, and
 * close. A dialect store extends it with its reads, its lease status and how it runs a transaction.
 */
export abstract class StatementLaunchStore {
  private readonly settings: WriteSettings;

  constructor(
    trace: () => TraceIds | undefined,
    protected readonly now: () => number = Date.now,
    /** LAUNCH_EXPIRED_TASK_BATCH. */
    expiredTaskBatch: number = EXPIRED_TASK_BATCH,
  ) {
    this.settings = { now, trace, expiredTaskBatch };
  }

  /** The dialect's statements outside any transaction, for the reads they share with one. */
  protected abstract readonly statements: RunStatements;

  /** The dialect's run conditions (run-conditions.ts). */
  protected abstract readonly match: LeaseConditions;

  /** Runs `steps` in one write transaction over the dialect's statements on it (run-transactions.ts). */
  protected abstract inTransaction<T>(steps: (db: RunStatements) => Steps<T>): Promise<T>;

  abstract leaseStatus(runId: string, token: string): Promise<LeaseStatus>;

  async getByIdempotencyKey(owner: string, key: string): Promise<RunRow | undefined> {
    return this.statements.byKey(owner, key);
  }

  /** `steps` in one write transaction, over the dialect's statements on it with the store's settings. */
  private transaction<T>(steps: (db: Transaction) => Steps<T>): Promise<T> {
    return this.inTransaction((db) => steps({ ...db, ...this.settings }));
  }

  insert(run: NewRun): Promise<{ row: RunRow; created: boolean }> {
    return this.transaction((db) => inserting(db, run));
  }

  append(runId: string, token: string | null, decide: Decide): Promise<RunRow> {
    return this.transaction((db) => appending(db, runId, token, decide));
  }

  acquireLease(
    runId: string,
    token: string,
    leaseMs: number,
    options: LeaseOptions = {},
  ): Promise<{ row: RunRow; busy: boolean }> {
    return this.transaction((db) => leasing(db, runId, token, leaseMs, options));
  }

  /** One statement renews; only when it renews nothing is the run read, to say why (cancelled or lost). */
  async renewLease(runId: string, token: string, leaseMs: number): Promise<'renewed' | 'lost' | 'cancelled'> {
    const extend = { leaseExpiresMs: this.now() + leaseMs };
    const renewed = await this.statements.updateRuns(extend, this.match.renewable(runId, token));
    return renewed === 1 ? 'renewed' : renewalRefused(await this.leaseStatus(runId, token));
  }

  async releaseLease(runId: string, token: string): Promise<void> {
    await this.statements.updateRuns(RELEASED_LEASE, this.match.leasedTo(runId, token));
  }

  async cancelRequest(owner: string, request: string): Promise<number> {
    const marked = { leaseRequestCancelled: true };
    return this.statements.updateRuns(marked, this.match.leasedForRequest(owner, request));
  }

  /** The run's events in order (numbered from 1): the whole log, or those one of `matches` selects. */
  async events(runId: string, matches?: readonly EventMatch[]): Promise<RunEvent[]> {
    return this.eventsAfter({ runId, after: 0, matches });
  }

  async eventsAfter(selection: EventsAfter): Promise<RunEvent[]> {
    // Event numbers are 32-bit integers in PostgreSQL, which refuses a larger one as a parameter: a caller's
    // number past every event's selects what the largest does.
    const { after, until } = selection;
    const within = { after: Math.min(after, MAX_EVENT_SEQ), until: until && Math.min(until, MAX_EVENT_SEQ) };
    return (await this.statements.eventsAfter({ ...selection, ...within })).map(toRunEvent);
  }

  async lastEvent(runId: string, match: EventMatch): Promise<RunEvent | undefined> {
    const row = await this.statements.newestEvent(runId, match);
    return row === undefined ? undefined : toRunEvent(row);
  }

  async eventsFrom(runId: string, match: EventMatch): Promise<RunEvent[]> {
    const first = await this.lastEvent(runId, match);
    if (first === undefined) return [];
    const after = await this.statements.eventsAfter({ runId, after: first.seq });
    return [first, ...after.map(toRunEvent)];
  }

  async task(taskId: string, principal: string): Promise<TaskRow | undefined> {
    const row = await this.statements.taskById(taskId);
    return row?.principal === principal ? row : undefined;
  }

  async close(): Promise<void> {
    // The database handle (SQLite) or pool (PostgreSQL) belongs to the domain (open.ts), which closes it.
  }
}
