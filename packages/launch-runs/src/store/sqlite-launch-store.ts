import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { LaunchDb } from '../db/drizzle.js';
import { artifacts, events, issues, runs, tasks, type ArtifactRow, type RunRow } from '../db/schema.js';
import type { LaunchStore, LeaseStatus, ListFilter, RunSnapshot } from './launch-store.js';
import { changedRun, leaseStatusOf } from './run-changes.js';
import { runAtOnce, type RunStatements, type Steps } from './run-transactions.js';
import { expiredTasks, runConditions } from './run-conditions.js';
import { StatementLaunchStore, type StoreSettings } from './statement-launch-store.js';

const match = runConditions({ runs, artifacts, issues, events }, runs.runId);

/**
 * The statements of a write transaction (run-transactions.ts), on the store's one connection, so inside the
 * transaction open on it. Its immediate transaction holds the file's write lock: no row or insert lock needed.
 */
function sqliteStatements(db: LaunchDb, getRun: (runId: string) => RunRow | undefined): RunStatements {
  return {
    lockRow: getRun,
    lockForLease: (runId) => ({ row: getRun(runId), busy: false }),
    lockInserts: () => undefined,
    byKey: (owner, key) =>
      key === undefined ? undefined : db.select().from(runs).where(match.keyed(owner, key)).get(),
    activeRuns: (owner, nowMs, except) =>
      db
        .select({ active: count() })
        .from(runs)
        .where(match.active(owner, nowMs, except))
        .get()?.active ?? 0,
    newestCreatedMs: () => db.select({ ms: match.newestCreatedMs }).from(runs).get()?.ms ?? null,
    insertRow: (values) => db.insert(runs).values(values).onConflictDoNothing().returning().get(),
    write: (runId, values) =>
      changedRun(runId, db.update(runs).set(values).where(eq(runs.runId, runId)).returning().get()),
    replaceIssues(runId, rows) {
      db.delete(issues).where(eq(issues.runId, runId)).run();
      for (const issue of rows) db.insert(issues).values(issue).run();
    },
    putArtifact({ row }) {
      db.insert(artifacts)
        .values(row)
        .onConflictDoUpdate({ target: [artifacts.runId, artifacts.name], set: row })
        .run();
    },
    eventTail: (runId) =>
      db
        .select({ runSeq: events.runSeq, eventHash: events.eventHash })
        .from(events)
        .where(eq(events.runId, runId))
        .orderBy(desc(events.runSeq))
        .limit(1)
        .get(),
    insertEvents(rows) {
      db.insert(events).values(rows).run();
    },
    newestEvent: (runId, selected) =>
      db
        .select()
        .from(events)
        .where(match.eventsMatching(runId, selected))
        .orderBy(match.newestEventFirst)
        .limit(1)
        .get(),
    eventsAfter: (selection) =>
      db.select().from(events).where(match.eventsAfter(selection)).orderBy(match.eventOrder).all(),
    taskById: (taskId) => db.select().from(tasks).where(eq(tasks.taskId, taskId)).get(),
    insertTask(values) {
      db.insert(tasks).values(values).run();
    },
    deleteExpiredTasks(nowMs, batch) {
      const expired = db
        .select({ taskId: tasks.taskId })
        .from(tasks)
        .where(expiredTasks(tasks, nowMs))
        .limit(batch);
      db.delete(tasks).where(inArray(tasks.taskId, expired)).run();
    },
    endTask(taskId, outcome, nowMs) {
      db.update(tasks)
        .set({ outcome, updatedMs: nowMs })
        .where(and(eq(tasks.taskId, taskId), isNull(tasks.outcome)))
        .run();
    },
    updateRuns: (values, where) => db.update(runs).set(values).where(where).run().changes,
  };
}

/**
 * The launch store in the data directory's SQLite file (better-sqlite3 through drizzle). Every write is one
 * immediate transaction, so reads inside it see the latest committed state, also of other processes on the
 * same file. The interface is asynchronous for PostgreSQL's sake; here every call completes synchronously.
 * Artifact bytes stay in files (artifact-store.ts); this store keeps their index.
 */
export class SqliteLaunchStore extends StatementLaunchStore implements LaunchStore {
  readonly sharedByReplicas = false;
  /** The hot reads (every status call), prepared once. */
  private readonly getPrepared;
  private readonly artifactsPrepared;
  private readonly openIssuesPrepared;
  protected readonly statements: RunStatements;
  protected readonly match = match;

  constructor(
    readonly db: LaunchDb,
    ...settings: StoreSettings
  ) {
    super(...settings);
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
    this.statements = sqliteStatements(db, (runId) => this.getPrepared.get({ runId }));
  }

  /** An immediate transaction, over sqliteStatements. */
  protected async inTransaction<T>(steps: (db: RunStatements) => Steps<T>): Promise<T> {
    return this.db.transaction(() => runAtOnce(steps(this.statements)), { behavior: 'immediate' });
  }

  async get(runId: string): Promise<RunRow | undefined> {
    return this.getPrepared.get({ runId });
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

  async leaseStatus(runId: string, token: string): Promise<LeaseStatus> {
    const row = this.db.select(match.leaseStatusColumns).from(runs).where(eq(runs.runId, runId)).get();
    return leaseStatusOf(row, token);
  }

  /** One data directory, one machine: a dead executor's runs are marked interrupted at start instead. */
  async claimAbandoned(): Promise<RunRow | undefined> {
    return undefined;
  }
}
