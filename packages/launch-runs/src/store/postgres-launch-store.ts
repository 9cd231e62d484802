import { and, asc, count, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { artifactIndex, artifacts, events, issues, runs } from '../db/postgres-schema.js';
import type { ArtifactRow, RunRow } from '../db/schema.js';
import type { RunEvent, TraceIds } from './event-chain.js';
import { toRunEvent } from './event-log.js';
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
  leaseValues,
  RELEASED_LEASE,
  renewalRefused,
  requireRun,
  runInsert,
} from './run-changes.js';
import { runConditions } from './run-conditions.js';

type Db = NodePgDatabase;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Run ids compare and sort by code point, as SQLite compares them, whatever the database's locale. */
const RUN_ID = sql`${runs.runId} COLLATE "C"`;
const match = runConditions({ runs, artifacts, issues }, RUN_ID);

/**
 * Taken by every insert: creation times strictly increase across replicas, as in SQLite's file, and an
 * owner's active runs (active-runs.ts) are counted with no other insert between the count and the row. A
 * DONE run's lease for launch_validate, which makes it active, takes it too.
 */
const INSERT_LOCK = sql`SELECT pg_advisory_xact_lock(hashtext('switchyard:launch-runs:insert'))`;

/**
 * The launch store on PostgreSQL, shared by replicas (node-postgres through drizzle, over the domain's
 * pool). Every write is one transaction that first locks the run's row (SELECT ... FOR UPDATE): the
 * decisions of run-changes.ts then see the row as it is, and the event chain's tail, read after the lock,
 * cannot be appended to by anyone else meanwhile. Artifact bytes live in the artifacts rows.
 */
export class PostgresLaunchStore implements LaunchStore {
  readonly sharedByReplicas = true;
  private readonly db: Db;
  /** The hot reads (every status call), prepared once per pooled connection. */
  private readonly getPrepared;
  private readonly artifactsPrepared;

  constructor(
    pool: pg.Pool,
    private readonly trace: () => TraceIds | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.db = drizzle(pool);
    this.getPrepared = this.db
      .select()
      .from(runs)
      .where(eq(runs.runId, sql.placeholder('runId')))
      .prepare('launch_runs_get');
    this.artifactsPrepared = this.db
      .select(artifactIndex)
      .from(artifacts)
      .where(eq(artifacts.runId, sql.placeholder('runId')))
      .orderBy(asc(sql`${artifacts.name} COLLATE "C"`))
      .prepare('launch_runs_artifacts');
  }

  /** The run, locked for this transaction (other writers of it wait until it ends). */
  private async lockedRow(tx: Tx, runId: string): Promise<RunRow | undefined> {
    const [row] = await tx.select().from(runs).where(eq(runs.runId, runId)).for('update');
    return row;
  }

  private async byKey(db: Db | Tx, owner: string, key: string | undefined): Promise<RunRow | undefined> {
    if (key === undefined) return undefined;
    const [row] = await db.select().from(runs).where(match.keyed(owner, key));
    return row;
  }

  /** Appends to the run's chain; the caller holds the run's row lock (or has just inserted the row). */
  private async appendEvents(tx: Tx, runId: string, added: RunEventInput[]): Promise<void> {
    if (added.length === 0) return;
    const [tail] = await tx
      .select({ runSeq: events.runSeq, eventHash: events.eventHash })
      .from(events)
      .where(eq(events.runId, runId))
      .orderBy(desc(events.runSeq))
      .limit(1);
    await tx.insert(events).values(chainedEventRows(tail, runId, added, this.trace(), this.now()));
  }

  private async write(tx: Tx, runId: string, values: Partial<RunRow>): Promise<RunRow> {
    const [updated] = await tx.update(runs).set(values).where(eq(runs.runId, runId)).returning();
    return changedRun(runId, updated);
  }

  /**
   * `owner`'s active runs (all but `except`). The caller holds INSERT_LOCK: no other active run can be added
   * between the count and its own.
   */
  private async activeRuns(tx: Tx, owner: string, except?: string): Promise<number> {
    const [counted] = await tx
      .select({ active: count() })
      .from(runs)
      .where(match.active(owner, this.now(), except));
    return counted?.active ?? 0;
  }

  async get(runId: string): Promise<RunRow | undefined> {
    const [row] = await this.getPrepared.execute({ runId });
    return row;
  }

  getByIdempotencyKey(owner: string, key: string): Promise<RunRow | undefined> {
    return this.byKey(this.db, owner, key);
  }

  list(filter: ListFilter): Promise<RunRow[]> {
    return this.db
      .select()
      .from(runs)
      .where(match.list(filter))
      .orderBy(...match.newestFirst)
      .limit(filter.limit);
  }

  unfinished(): Promise<RunRow[]> {
    return this.db.select().from(runs).where(match.unfinished);
  }

  async events(runId: string): Promise<RunEvent[]> {
    const rows = await this.db
      .select()
      .from(events)
      .where(eq(events.runId, runId))
      .orderBy(asc(events.runSeq));
    return rows.map(toRunEvent);
  }

  /** Three reads in one read-only REPEATABLE READ transaction: one snapshot of the database. */
  snapshot(runId: string): Promise<RunSnapshot | undefined> {
    return this.db.transaction(
      async (tx) => {
        const [run] = await tx.select().from(runs).where(eq(runs.runId, runId));
        if (run === undefined) return undefined;
        const [artifactRows, openIssues] = await Promise.all([
          tx
            .select(artifactIndex)
            .from(artifacts)
            .where(eq(artifacts.runId, runId))
            .orderBy(asc(sql`${artifacts.name} COLLATE "C"`)),
          tx.select().from(issues).where(match.openIssues(runId)).orderBy(asc(issues.ord)),
        ]);
        return { run, artifacts: artifactRows, openIssues };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  artifacts(runId: string): Promise<ArtifactRow[]> {
    return this.artifactsPrepared.execute({ runId });
  }

  async artifact(runId: string, name: string): Promise<ArtifactRow | undefined> {
    const [row] = await this.db.select(artifactIndex).from(artifacts).where(match.artifactNamed(runId, name));
    return row;
  }

  async artifactBytes(runId: string, name: string): Promise<Uint8Array | undefined> {
    const [row] = await this.db
      .select({ content: artifacts.content })
      .from(artifacts)
      .where(match.artifactNamed(runId, name));
    return row?.content;
  }

  insert(run: NewRun): Promise<{ row: RunRow; created: boolean }> {
    return this.db.transaction(async (tx) => {
      // Inserts queue here one at a time: each counts the owner's unfinished runs and reads the newest
      // creation time after the one before it committed (every statement reads anew under READ COMMITTED).
      await tx.execute(INSERT_LOCK);
      const existing = await this.byKey(tx, run.owner, run.idempotencyKey);
      if (existing !== undefined) return { row: existing, created: false };
      const active = await this.activeRuns(tx, run.owner);
      const [newest] = await tx.select({ ms: match.newestCreatedMs }).from(runs);
      const write = runInsert(run, active, newest?.ms ?? null, this.now());
      const [inserted] = await tx.insert(runs).values(write.values).onConflictDoNothing().returning();
      if (inserted === undefined)
        return insertWinner(run, await this.byKey(tx, run.owner, run.idempotencyKey));
      await this.appendEvents(tx, run.runId, write.events);
      return { row: inserted, created: true };
    });
  }

  append(runId: string, token: string | null, decide: Decide): Promise<RunRow> {
    return this.db.transaction(async (tx) => {
      const row = requireRun(await this.lockedRow(tx, runId), runId, token);
      const write = decide(row, this.now());
      if (write === undefined) return row;
      if (write.issues !== undefined) {
        await tx.delete(issues).where(eq(issues.runId, runId));
        if (write.issues.length > 0) await tx.insert(issues).values(write.issues);
      }
      if (write.artifact !== undefined) {
        const artifact = { ...write.artifact.row, content: write.artifact.bytes };
        await tx
          .insert(artifacts)
          .values(artifact)
          .onConflictDoUpdate({ target: [artifacts.runId, artifacts.name], set: artifact });
      }
      const written = write.values === undefined ? row : await this.write(tx, runId, write.values);
      await this.appendEvents(tx, runId, write.events);
      return written;
    });
  }

  acquireLease(
    runId: string,
    token: string,
    leaseMs: number,
    options: LeaseOptions = {},
  ): Promise<{ row: RunRow; busy: boolean }> {
    return this.db.transaction(async (tx) => {
      // A row another transaction has locked is being changed by its writer right now: busy, not a wait.
      const [locked] = await tx
        .select()
        .from(runs)
        .where(eq(runs.runId, runId))
        .for('update', { skipLocked: true });
      if (locked === undefined) {
        const [row] = await tx.select().from(runs).where(eq(runs.runId, runId));
        return { row: requireRun(row, runId, null), busy: true };
      }
      const take = leaseTake(locked, token, leaseMs, options, this.now());
      if ('answer' in take) return take.answer;
      if (take.roomUnder !== undefined) {
        // After the row lock: inserts take INSERT_LOCK alone and wait on no row, so no lock cycle forms.
        await tx.execute(INSERT_LOCK);
        assertActiveRunRoom(take.roomUnder, await this.activeRuns(tx, locked.owner, runId));
      }
      return { row: await this.write(tx, runId, take.values), busy: false };
    });
  }

  async renewLease(runId: string, token: string, leaseMs: number): Promise<'renewed' | 'lost' | 'cancelled'> {
    const renewed = await this.db
      .update(runs)
      .set({ leaseExpiresMs: this.now() + leaseMs })
      .where(match.renewable(runId, token))
      .returning({ runId: runs.runId });
    return renewed.length === 1 ? 'renewed' : renewalRefused(await this.leaseStatus(runId, token));
  }

  async leaseStatus(runId: string, token: string): Promise<LeaseStatus> {
    const [row] = await this.db.select(match.leaseStatusColumns).from(runs).where(eq(runs.runId, runId));
    return leaseStatusOf(row, token);
  }

  async releaseLease(runId: string, token: string): Promise<void> {
    await this.db.update(runs).set(RELEASED_LEASE).where(match.leasedTo(runId, token));
  }

  async cancelRequest(owner: string, request: string): Promise<number> {
    const marked = await this.db
      .update(runs)
      .set({ leaseRequestCancelled: true })
      .where(match.leasedForRequest(owner, request))
      .returning({ runId: runs.runId });
    return marked.length;
  }

  /**
   * The oldest unfinished run whose lease expired without being released (its executor died mid-work).
   * SKIP LOCKED: a run another replica is claiming (or changing) right now is passed over, so concurrent
   * claimers each take a different run.
   */
  claimAbandoned(token: string, leaseMs: number): Promise<RunRow | undefined> {
    return this.db.transaction(async (tx) => {
      const nowMs = this.now();
      const [abandoned] = await tx
        .select({ runId: runs.runId })
        .from(runs)
        .where(and(match.unfinished, isNotNull(runs.leaseOwner), lte(runs.leaseExpiresMs, nowMs)))
        .orderBy(asc(runs.createdMs), asc(RUN_ID))
        .limit(1)
        .for('update', { skipLocked: true });
      if (abandoned === undefined) return undefined;
      return this.write(tx, abandoned.runId, leaseValues(token, nowMs + leaseMs));
    });
  }

  async close(): Promise<void> {
    // The pool belongs to the domain (open.ts), which ends it.
  }
}
