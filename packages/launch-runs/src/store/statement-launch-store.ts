import type { RunRow, TaskRow } from '../db/schema.js';
import type { Decide, LeaseOptions, LeaseStatus, NewRun } from './launch-store.js';
import { taskRowValues, type NewTask } from './task-rows.js';
import { renewalRefused } from './run-changes.js';
import { appending, inserting, leasing, type RunStatements, type Steps } from './run-transactions.js';

/**
 * What both stores do the same way, each method written once: the writes as run-transactions.ts's
 * transactions over a dialect's RunStatements, the renewal's answer, and close. A dialect store extends it
 * with its reads, its lease statements and how it runs a transaction.
 */
export abstract class StatementLaunchStore {
  constructor(protected readonly now: () => number) {}

  /** The dialect's statements outside any transaction, for the reads they share with one. */
  protected abstract readonly statements: RunStatements;

  /** Runs `steps` in one write transaction over the dialect's statements on it (run-transactions.ts). */
  protected abstract transaction<T>(steps: (db: RunStatements) => Steps<T>): Promise<T>;

  /** Extends the run's lease to `expiresMs` if `token` holds it and the run is not cancelled: whether it did. */
  protected abstract extendLease(runId: string, token: string, expiresMs: number): Promise<boolean>;

  abstract leaseStatus(runId: string, token: string): Promise<LeaseStatus>;

  async getByIdempotencyKey(owner: string, key: string): Promise<RunRow | undefined> {
    return this.statements.byKey(owner, key);
  }

  insert(run: NewRun): Promise<{ row: RunRow; created: boolean }> {
    return this.transaction((db) => inserting(db, run, this.now));
  }

  append(runId: string, token: string | null, decide: Decide): Promise<RunRow> {
    return this.transaction((db) => appending(db, runId, token, decide, this.now));
  }

  acquireLease(
    runId: string,
    token: string,
    leaseMs: number,
    options: LeaseOptions = {},
  ): Promise<{ row: RunRow; busy: boolean }> {
    return this.transaction((db) => leasing(db, runId, token, leaseMs, options, this.now));
  }

  /** One statement renews; only when it renews nothing is the run read, to say why (cancelled or lost). */
  async renewLease(runId: string, token: string, leaseMs: number): Promise<'renewed' | 'lost' | 'cancelled'> {
    const renewed = await this.extendLease(runId, token, this.now() + leaseMs);
    return renewed ? 'renewed' : renewalRefused(await this.leaseStatus(runId, token));
  }

  async task(taskId: string, principal: string): Promise<TaskRow | undefined> {
    const row = await this.statements.taskById(taskId);
    return row?.principal === principal ? row : undefined;
  }

  async recordTask(task: NewTask, runId: string, leaseOwner: string): Promise<void> {
    await this.statements.insertTask(taskRowValues(task, runId, leaseOwner, this.now()));
  }

  async endTask(taskId: string, outcome: string): Promise<TaskRow | undefined> {
    return this.statements.endTask(taskId, outcome, this.now());
  }

  async close(): Promise<void> {
    // The database handle (SQLite) or pool (PostgreSQL) belongs to the domain (open.ts), which closes it.
  }
}
