import { asc, count, desc, eq, sql } from 'drizzle-orm';
import type { LaunchDb, LaunchTx } from '../db/drizzle.js';
import { artifacts, events, issues, runs, type ArtifactRow, type RunRow } from '../db/schema.js';
import { toRunEvent } from './event-log.js';
import type { RunEvent, TraceIds } from './event-chain.js';
import type {
  LaunchStore,
  LeaseOptions,
  LeaseStatus,
  ListFilter,
  NewRun,
  Decide,
  RunEventInput,
  RunSnapshot,
} from './launch-store.js';
import {
  assertActiveRunRoom,
  chainedEventRows,
  changedRun,
  insertWinner,
  leaseStatusOf,
  leaseTake,
  RELEASED_LEASE,
  renewalRefused,
  requireRun,
  runInsert,
} from './run-changes.js';
import { runConditions } from './run-conditions.js';

type Db = LaunchDb | LaunchTx;

const match = runConditions({ runs, artifacts, issues }, runs.runId);

/**
 * The launch store in the data directory's SQLite file (better-sqlite3 through drizzle). Every write is one
 * immediate transaction, so reads inside it see the latest committed state, also of other processes on the
 * same file. The interface is asynchronous for PostgreSQL's sake; here every call completes synchronously.
 * Artifact bytes stay in files (artifact-store.ts); this store keeps their index.
 */
export class SqliteLaunchStore implements LaunchStore {
  readonly sharedByReplicas = false;
  /** The hot reads (every status call), prepared once. */
  private readonly getPrepared;
  private readonly artifactsPrepared;
  private readonly openIssuesPrepared;

  constructor(
    readonly db: LaunchDb,
    private readonly trace: () => TraceIds | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.getPrepared = db
      .select()
      .from(runs)
      .where(eq(runs.runId, sql.placeholder('runId')))
      .prepare();
    this.artifactsPrepared = db
      .select()
      .from(artifacts)
      .where(eq(artifacts.runId, sql.placeholder('runId')))
      .orderBy(asc(artifacts.name))
      .prepare();
    this.openIssuesPrepared = db
      .select()
      .from(issues)
      .where(match.openIssues(sql.placeholder('runId')))
      .orderBy(asc(issues.ord))
      .prepare();
  }

  private tx<T>(fn: (tx: LaunchTx) => T): T {
    return this.db.transaction(fn, { behavior: 'immediate' });
  }

  private byKey(db: Db, owner: string, key: string | undefined): RunRow | undefined {
    if (key === undefined) return undefined;
    return db.select().from(runs).where(match.keyed(owner, key)).get();
  }

  private appendEvents(tx: LaunchTx, runId: string, added: RunEventInput[]): void {
    if (added.length === 0) return;
    const tail = tx
      .select({ runSeq: events.runSeq, eventHash: events.eventHash })
      .from(events)
      .where(eq(events.runId, runId))
      .orderBy(desc(events.runSeq))
      .limit(1)
      .get();
    tx.insert(events)
      .values(chainedEventRows(tail, runId, added, this.trace(), this.now()))
      .run();
  }

  private write(tx: LaunchTx, runId: string, values: Partial<RunRow>): RunRow {
    return changedRun(runId, tx.update(runs).set(values).where(eq(runs.runId, runId)).returning().get());
  }

  /** `owner`'s active runs (all but `except`). */
  private activeRuns(tx: LaunchTx, owner: string, except?: string): number {
    const counted = tx
      .select({ active: count() })
      .from(runs)
      .where(match.active(owner, this.now(), except))
      .get();
    return counted?.active ?? 0;
  }

  async get(runId: string): Promise<RunRow | undefined> {
    return this.getPrepared.get({ runId });
  }

  async getByIdempotencyKey(owner: string, key: string): Promise<RunRow | undefined> {
    return this.byKey(this.db, owner, key);
  }

  async list(filter: ListFilter): Promise<RunRow[]> {
    return this.db
      .select()
      .from(runs)
      .where(match.list(filter))
      .orderBy(...match.newestFirst)
      .limit(filter.limit)
      .all();
  }

  async unfinished(): Promise<RunRow[]> {
    return this.db.select().from(runs).where(match.unfinished).all();
  }

  async events(runId: string): Promise<RunEvent[]> {
    return this.db
      .select()
      .from(events)
      .where(eq(events.runId, runId))
      .orderBy(asc(events.runSeq))
      .all()
      .map(toRunEvent);
  }

  async snapshot(runId: string): Promise<RunSnapshot | undefined> {
    return this.db.transaction(
      () => {
        const run = this.getPrepared.get({ runId });
        if (run === undefined) return undefined;
        return {
          run,
          artifacts: this.artifactsPrepared.all({ runId }),
          openIssues: this.openIssuesPrepared.all({ runId }),
        };
      },
      { behavior: 'deferred' },
    );
  }

  async artifacts(runId: string): Promise<ArtifactRow[]> {
    return this.artifactsPrepared.all({ runId });
  }

  async artifact(runId: string, name: string): Promise<ArtifactRow | undefined> {
    return this.db.select().from(artifacts).where(match.artifactNamed(runId, name)).get();
  }

  async artifactBytes(): Promise<Uint8Array | undefined> {
    return undefined;
  }

  async insert(run: NewRun): Promise<{ row: RunRow; created: boolean }> {
    return this.tx((tx) => {
      const existing = this.byKey(tx, run.owner, run.idempotencyKey);
      if (existing !== undefined) return { row: existing, created: false };
      const active = this.activeRuns(tx, run.owner);
      const newest = tx.select({ ms: match.newestCreatedMs }).from(runs).get();
      const write = runInsert(run, active, newest?.ms ?? null, this.now());
      const inserted = tx.insert(runs).values(write.values).onConflictDoNothing().returning().get();
      if (inserted === undefined) return insertWinner(run, this.byKey(tx, run.owner, run.idempotencyKey));
      this.appendEvents(tx, run.runId, write.events);
      return { row: inserted, created: true };
    });
  }

  async append(runId: string, token: string | null, decide: Decide): Promise<RunRow> {
    return this.tx((tx) => {
      const row = requireRun(this.getPrepared.get({ runId }), runId, token);
      const write = decide(row, this.now());
      if (write === undefined) return row;
      if (write.issues !== undefined) {
        tx.delete(issues).where(eq(issues.runId, runId)).run();
        for (const issue of write.issues) tx.insert(issues).values(issue).run();
      }
      if (write.artifact !== undefined) {
        const artifact = write.artifact.row;
        tx.insert(artifacts)
          .values(artifact)
          .onConflictDoUpdate({ target: [artifacts.runId, artifacts.name], set: artifact })
          .run();
      }
      const written = write.values === undefined ? row : this.write(tx, runId, write.values);
      this.appendEvents(tx, runId, write.events);
      return written;
    });
  }

  async acquireLease(
    runId: string,
    token: string,
    leaseMs: number,
    options: LeaseOptions = {},
  ): Promise<{ row: RunRow; busy: boolean }> {
    return this.tx((tx) => {
      const row = requireRun(this.getPrepared.get({ runId }), runId, null);
      const take = leaseTake(row, token, leaseMs, options, this.now());
      if ('answer' in take) return take.answer;
      if (take.roomUnder !== undefined)
        assertActiveRunRoom(take.roomUnder, this.activeRuns(tx, row.owner, runId));
      return { row: this.write(tx, runId, take.values), busy: false };
    });
  }

  /** One statement renews; only when it renews nothing is the run read, to say why (cancelled or lost). */
  async renewLease(runId: string, token: string, leaseMs: number): Promise<'renewed' | 'lost' | 'cancelled'> {
    const changed = this.db
      .update(runs)
      .set({ leaseExpiresMs: this.now() + leaseMs })
      .where(match.renewable(runId, token))
      .run().changes;
    return changed === 1 ? 'renewed' : renewalRefused(await this.leaseStatus(runId, token));
  }

  async leaseStatus(runId: string, token: string): Promise<LeaseStatus> {
    const row = this.db.select(match.leaseStatusColumns).from(runs).where(eq(runs.runId, runId)).get();
    return leaseStatusOf(row, token);
  }

  async releaseLease(runId: string, token: string): Promise<void> {
    this.db.update(runs).set(RELEASED_LEASE).where(match.leasedTo(runId, token)).run();
  }

  async cancelRequest(owner: string, request: string): Promise<number> {
    return this.db
      .update(runs)
      .set({ leaseRequestCancelled: true })
      .where(match.leasedForRequest(owner, request))
      .run().changes;
  }

  /** One data directory, one machine: a dead executor's runs are marked interrupted at start instead. */
  async claimAbandoned(): Promise<RunRow | undefined> {
    return undefined;
  }

  async close(): Promise<void> {
    // The database handle belongs to the domain (open.ts), which closes it.
  }
}
