import { and, asc, count, desc, eq, inArray, isNull, sql, type Placeholder } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { artifactIndex, artifacts, events, issues, runs, tasks } from '../db/postgres-schema.js';
import type { ArtifactRow, RunRow } from '../db/schema.js';
import type { LaunchStore, LeaseStatus, ListFilter, RunSnapshot } from './launch-store.js';
import { changedRun, leaseStatusOf, leaseValues } from './run-changes.js';
import { expiredTasks, runConditions } from './run-conditions.js';
import { runAwaiting, type RunStatements, type Steps } from './run-transactions.js';
import { StatementLaunchStore, type StoreSettings } from './statement-launch-store.js';

type Db = NodePgDatabase;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Run ids and artifact names compare and sort by code point, as SQLite compares them, whatever the locale. */
const RUN_ID = sql`${runs.runId} COLLATE "C"`;
const ARTIFACT_NAME = sql`${artifacts.name} COLLATE "C"`;
const match = runConditions({ runs, artifacts, issues, events }, RUN_ID);

/**
 * Taken by every insert: creation times strictly increase across replicas, as in SQLite's file, and an
 * owner's active runs (active-runs.ts) are counted with no other insert between the count and the row. A
 * DONE run's lease for launch_validate, which makes it active, takes it too.
 */
const INSERT_LOCK = sql`SELECT pg_advisory_xact_lock(hashtext('switchyard:launch-runs:insert'))`;

/** The run's row, and its artifact index in name order: on the pool (prepared) or in a transaction. */
const runRow = (db: Db | Tx, runId: string | Placeholder) =>
  db.select().from(runs).where(eq(runs.runId, runId));
const artifactIndexOf = (db: Db | Tx, runId: string | Placeholder) =>
  db.select(artifactIndex).from(artifacts).where(eq(artifacts.runId, runId)).orderBy(asc(ARTIFACT_NAME));

/**
 * The statements of a write transaction (run-transactions.ts). Each first locks the run's row (SELECT ... FOR
 * UPDATE): the decisions of run-changes.ts then see the row as it is, and the event chain's tail, read after
 * the lock, cannot be appended to by anyone else meanwhile. Inserts take INSERT_LOCK instead.
 */
function postgresStatements(tx: Db | Tx): RunStatements {
  return {
    async lockRow(runId) {
      const [row] = await runRow(tx, runId).for('update');
      return row;
    },
    async lockForLease(runId) {
      // A row another transaction has locked is being changed by its writer right now: busy, not a wait.
      const [locked] = await runRow(tx, runId).for('update', { skipLocked: true });
      if (locked !== undefined) return { row: locked, busy: false };
      const [row] = await runRow(tx, runId);
      return { row, busy: true };
    },
    async lockInserts() {
      // Inserts queue here one at a time: each reads the newest creation time and counts the owner's active
      // runs after the one before it committed (every statement reads anew under READ COMMITTED).
      await tx.execute(INSERT_LOCK);
    },
    async byKey(owner, key) {
      if (key === undefined) return undefined;
      const [row] = await tx.select().from(runs).where(match.keyed(owner, key));
      return row;
    },
    /** The caller holds INSERT_LOCK: no other active run can be added between the count and its own. */
    async activeRuns(owner, nowMs, except) {
      const [counted] = await tx
        .select({ active: count() })
        .from(runs)
        .where(match.active(owner, nowMs, except));
      return counted?.active ?? 0;
    },
    async newestCreatedMs() {
      const [newest] = await tx.select({ ms: match.newestCreatedMs }).from(runs);
      return newest?.ms ?? null;
    },
    async insertRow(values) {
      const [inserted] = await tx.insert(runs).values(values).onConflictDoNothing().returning();
      return inserted;
    },
    async write(runId, values) {
      const [updated] = await tx.update(runs).set(values).where(eq(runs.runId, runId)).returning();
      return changedRun(runId, updated);
    },
    async replaceIssues(runId, rows) {
      await tx.delete(issues).where(eq(issues.runId, runId));
      if (rows.length > 0) await tx.insert(issues).values(rows);
    },
    async putArtifact({ row, bytes }) {
      const artifact = { ...row, content: bytes };
      await tx
        .insert(artifacts)
        .values(artifact)
        .onConflictDoUpdate({ target: [artifacts.runId, artifacts.name], set: artifact });
    },
    async eventTail(runId) {
      const [tail] = await tx
        .select({ runSeq: events.runSeq, eventHash: events.eventHash })
        .from(events)
        .where(eq(events.runId, runId))
        .orderBy(desc(events.runSeq))
        .limit(1);
      return tail;
    },
    async insertEvents(rows) {
      await tx.insert(events).values(rows);
    },
    async newestEvent(runId, selected) {
      const [row] = await tx
        .select()
        .from(events)
        .where(match.eventsMatching(runId, selected))
        .orderBy(match.newestEventFirst)
        .limit(1);
      return row;
    },
    eventsAfter: (selection) =>
      tx.select().from(events).where(match.eventsAfter(selection)).orderBy(match.eventOrder),
    async taskById(taskId) {
      const [row] = await tx.select().from(tasks).where(eq(tasks.taskId, taskId));
      return row;
    },
    async insertTask(values) {
      await tx.insert(tasks).values(values);
    },
    async deleteExpiredTasks(nowMs, batch) {
      // SKIP LOCKED: rows another open is deleting (or a task's end is being stored on) are left to it, so
      // concurrent opens neither wait on each other nor deadlock over the same batch.
      const expired = tx
        .select({ taskId: tasks.taskId })
        .from(tasks)
        .where(expiredTasks(tasks, nowMs))
        .limit(batch)
        .for('update', { skipLocked: true });
      await tx.delete(tasks).where(inArray(tasks.taskId, expired));
    },
    async endTask(taskId, outcome, nowMs) {
      await tx
        .update(tasks)
        .set({ outcome, updatedMs: nowMs })
        .where(and(eq(tasks.taskId, taskId), isNull(tasks.outcome)));
    },
    async updateRuns(values, where) {
      const changed = await tx.update(runs).set(values).where(where).returning({ runId: runs.runId });
      return changed.length;
    },
  };
}

/**
 * The launch store on PostgreSQL, shared by replicas (node-postgres through drizzle, over the domain's
 * pool). Every write is one transaction of postgresStatements. Artifact bytes live in the artifacts rows.
 */
export class PostgresLaunchStore extends StatementLaunchStore implements LaunchStore {
  readonly sharedByReplicas = true;
  private readonly db: Db;
  protected readonly statements: RunStatements;
  protected readonly match = match;
  /** The hot reads (every status call), prepared once per pooled connection. */
  private readonly getPrepared;
  private readonly artifactsPrepared;

  constructor(pool: pg.Pool, ...settings: StoreSettings) {
    super(...settings);
    this.db = drizzle(pool);
    this.statements = postgresStatements(this.db);
    this.getPrepared = runRow(this.db, sql.placeholder('runId')).prepare('launch_runs_get');
    this.artifactsPrepared = artifactIndexOf(this.db, sql.placeholder('runId')).prepare(
      'launch_runs_artifacts',
    );
  }

  protected inTransaction<T>(steps: (db: RunStatements) => Steps<T>): Promise<T> {
    return this.db.transaction((tx) => runAwaiting(steps(postgresStatements(tx))));
  }

  async get(runId: string): Promise<RunRow | undefined> {
    const [row] = await this.getPrepared.execute({ runId });
    return row;
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

  /** Three reads in one read-only REPEATABLE READ transaction: one snapshot of the database. */
  snapshot(runId: string): Promise<RunSnapshot | undefined> {
    return this.db.transaction(
      async (tx) => {
        const [run] = await runRow(tx, runId);
        if (run === undefined) return undefined;
        const [artifactRows, openIssues] = await Promise.all([
          artifactIndexOf(tx, runId),
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

  async leaseStatus(runId: string, token: string): Promise<LeaseStatus> {
    const [row] = await this.db.select(match.leaseStatusColumns).from(runs).where(eq(runs.runId, runId));
    return leaseStatusOf(row, token);
  }

  /**
   * The oldest abandoned run (run-conditions.ts). SKIP LOCKED: a run another replica is claiming (or
   * changing) right now is passed over, so concurrent claimers each take a different run.
   */
  claimAbandoned(token: string, leaseMs: number): Promise<RunRow | undefined> {
    return this.db.transaction(async (tx) => {
      const nowMs = this.now();
      const [abandoned] = await tx
        .select({ runId: runs.runId })
        .from(runs)
        .where(match.abandoned(nowMs))
        .orderBy(...match.oldestFirst)
        .limit(1)
        .for('update', { skipLocked: true });
      if (abandoned === undefined) return undefined;
      return postgresStatements(tx).write(abandoned.runId, leaseValues(token, nowMs + leaseMs));
    });
  }
}
