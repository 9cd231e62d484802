import type { RunState, ValidationReport } from '@switchyard/contracts/launch-runs';
import { and, asc, count, desc, eq, isNotNull, lt, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { LaunchDb, LaunchTx } from '../db/drizzle.js';
import { artifacts, events, issues, runs, type ArtifactRow, type RunRow } from '../db/schema.js';
import { activeRunsOf } from './active-runs.js';
import { toRunEvent } from './event-log.js';
import type { RunEvent, TraceIds } from './event-chain.js';
import type {
  ArtifactEntry,
  LaunchStore,
  LeaseOptions,
  LeaseStatus,
  ListFilter,
  NewRun,
  RunChange,
  RunEventInput,
  RunPatch,
  RunSnapshot,
} from './launch-store.js';
import {
  artifactWrittenEvent,
  assertActiveRunRoom,
  chainedEvent,
  eventValues,
  issueRows,
  leaseDecision,
  leaseStatusOf,
  leaseValues,
  newRunValues,
  patchValues,
  RELEASED_LEASE,
  requireRun,
  rewindValues,
  runCreatedEvent,
  transitionValues,
  validationTransitions,
} from './run-changes.js';
import { runState } from './launch-store.js';

type Db = LaunchDb | LaunchTx;

const FINISHED: RunState[] = ['DONE', 'FAILED', 'CANCELLED'];

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
      .where(and(eq(issues.runId, sql.placeholder('runId')), eq(issues.status, 'OPEN')))
      .orderBy(asc(issues.ord))
      .prepare();
  }

  private tx<T>(fn: (tx: LaunchTx) => T): T {
    return this.db.transaction(fn, { behavior: 'immediate' });
  }

  private row(db: Db, runId: string): RunRow | undefined {
    return db.select().from(runs).where(eq(runs.runId, runId)).get();
  }

  private byKey(db: Db, owner: string, key: string): RunRow | undefined {
    return db
      .select()
      .from(runs)
      .where(and(eq(runs.owner, owner), eq(runs.idempotencyKey, key)))
      .get();
  }

  private append(tx: LaunchTx, runId: string, event: RunEventInput): void {
    const tail = tx
      .select({ runSeq: events.runSeq, eventHash: events.eventHash })
      .from(events)
      .where(eq(events.runId, runId))
      .orderBy(desc(events.runSeq))
      .limit(1)
      .get();
    tx.insert(events)
      .values(eventValues(chainedEvent(tail, runId, event, this.trace(), this.now())))
      .run();
  }

  private write(tx: LaunchTx, runId: string, values: Partial<RunRow>, event?: RunEventInput): RunRow {
    const updated = tx.update(runs).set(values).where(eq(runs.runId, runId)).returning().get();
    if (event !== undefined) this.append(tx, runId, event);
    if (updated === undefined) throw new Error(`run ${runId} vanished during a change`);
    return updated;
  }

  private transitionIn(
    tx: LaunchTx,
    row: RunRow,
    from: RunState,
    to: RunState,
    patch: RunPatch,
    payload: Record<string, unknown> | undefined,
  ): RunRow {
    const values = transitionValues(row, from, to, patch, this.now());
    return this.write(tx, row.runId, values, { type: 'STATE_CHANGED', payload: { from, to, ...payload } });
  }

  /** Refuses one more active run of `owner` at `limit` (counting them all but `except`). */
  private assertActiveRunRoom(tx: LaunchTx, owner: string, limit: number, except?: string): void {
    const counted = tx
      .select({ active: count() })
      .from(runs)
      .where(activeRunsOf(runs, owner, this.now(), except))
      .get();
    assertActiveRunRoom(limit, counted?.active ?? 0);
  }

  async get(runId: string): Promise<RunRow | undefined> {
    return this.getPrepared.get({ runId });
  }

  async getByIdempotencyKey(owner: string, key: string): Promise<RunRow | undefined> {
    return this.byKey(this.db, owner, key);
  }

  async list(filter: ListFilter): Promise<RunRow[]> {
    const conditions: SQL[] = [];
    if (filter.owner !== undefined) conditions.push(eq(runs.owner, filter.owner));
    if (filter.productSlug !== undefined) conditions.push(eq(runs.productSlug, filter.productSlug));
    if (filter.state !== undefined) conditions.push(eq(runs.state, filter.state));
    if (filter.runIdPrefix !== undefined && filter.runIdPrefix !== '') {
      const prefix = filter.runIdPrefix;
      conditions.push(sql`substr(${runs.runId}, 1, ${prefix.length}) = ${prefix}`);
    }
    if (filter.before !== undefined) {
      const before = or(
        lt(runs.createdMs, filter.before.createdMs),
        and(eq(runs.createdMs, filter.before.createdMs), lt(runs.runId, filter.before.runId)),
      );
      if (before !== undefined) conditions.push(before);
    }
    return this.db
      .select()
      .from(runs)
      .where(conditions.length === 0 ? undefined : and(...conditions))
      .orderBy(desc(runs.createdMs), desc(runs.runId))
      .limit(filter.limit)
      .all();
  }

  async unfinished(): Promise<RunRow[]> {
    return this.db.select().from(runs).where(notInArray(runs.state, FINISHED)).all();
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
    return this.db
      .select()
      .from(artifacts)
      .where(and(eq(artifacts.runId, runId), eq(artifacts.name, name)))
      .get();
  }

  async artifactBytes(): Promise<Uint8Array | undefined> {
    return undefined;
  }

  async insert(run: NewRun): Promise<{ row: RunRow; created: boolean }> {
    return this.tx((tx) => {
      if (run.idempotencyKey !== undefined) {
        const existing = this.byKey(tx, run.owner, run.idempotencyKey);
        if (existing !== undefined) return { row: existing, created: false };
      }
      this.assertActiveRunRoom(tx, run.owner, run.maxActiveRuns);
      const newest = tx
        .select({ createdMs: sql<number | null>`max(${runs.createdMs})` })
        .from(runs)
        .get();
      const values = newRunValues(run, newest?.createdMs ?? null, this.now());
      const inserted = tx.insert(runs).values(values).onConflictDoNothing().returning().get();
      if (inserted === undefined) {
        const winner =
          run.idempotencyKey === undefined ? undefined : this.byKey(tx, run.owner, run.idempotencyKey);
        if (winner === undefined) throw new Error(`run ${run.runId} could not be inserted`);
        return { row: winner, created: false };
      }
      this.append(tx, run.runId, runCreatedEvent(run));
      return { row: inserted, created: true };
    });
  }

  async transition(
    runId: string,
    from: RunState,
    to: RunState,
    options: { token?: string; patch?: RunPatch; payload?: Record<string, unknown> } = {},
  ): Promise<RunRow> {
    return this.tx((tx) => {
      const row = requireRun(this.row(tx, runId), runId, options.token);
      return this.transitionIn(tx, row, from, to, options.patch ?? {}, options.payload);
    });
  }

  async update(runId: string, change: RunChange, options: { token?: string } = {}): Promise<RunRow> {
    return this.tx((tx) => {
      requireRun(this.row(tx, runId), runId, options.token);
      return this.write(tx, runId, patchValues(change.patch, this.now()), change.event);
    });
  }

  async updateIf(runId: string, decide: (row: RunRow) => RunChange | undefined): Promise<RunRow | undefined> {
    return this.tx((tx) => {
      const change = decide(requireRun(this.row(tx, runId), runId, undefined));
      if (change === undefined) return undefined;
      return this.write(tx, runId, patchValues(change.patch, this.now()), change.event);
    });
  }

  async rewind(runId: string, token: string, from: RunState, to: RunState): Promise<RunRow> {
    return this.tx((tx) => {
      const row = requireRun(this.row(tx, runId), runId, token);
      return this.write(tx, runId, rewindValues(row, from, to, this.now()), {
        type: 'RUN_REWOUND',
        payload: { from, to },
      });
    });
  }

  async cancel(runId: string, refuse: (row: RunRow) => Error | undefined): Promise<RunRow> {
    return this.tx((tx) => {
      const row = requireRun(this.row(tx, runId), runId, undefined);
      const refused = refuse(row);
      if (refused !== undefined) throw refused;
      const state = runState(row);
      if (state === 'CANCELLED') return row;
      return this.transitionIn(
        tx,
        row,
        state,
        'CANCELLED',
        { activeWorker: null },
        { reason: 'launch_cancel' },
      );
    });
  }

  async recordValidation(
    runId: string,
    token: string,
    report: ValidationReport,
    payload: Record<string, unknown>,
  ): Promise<RunRow> {
    return this.tx((tx) => {
      const current = requireRun(this.row(tx, runId), runId, token);
      tx.delete(issues).where(eq(issues.runId, runId)).run();
      for (const issue of issueRows(runId, report)) tx.insert(issues).values(issue).run();
      let row = this.write(tx, runId, patchValues({ lastReportOk: report.ok, lastError: null }, this.now()), {
        type: 'VALIDATION_RECORDED',
        payload,
      });
      for (const [from, to] of validationTransitions(runState(current), report.ok))
        row = this.transitionIn(tx, row, from, to, {}, undefined);
      return row;
    });
  }

  async recordArtifact(entry: ArtifactEntry, token: string): Promise<void> {
    this.tx((tx) => {
      requireRun(this.row(tx, entry.runId), entry.runId, token);
      const row = { ...entry, writtenAt: new Date(this.now()).toISOString() };
      tx.insert(artifacts)
        .values(row)
        .onConflictDoUpdate({ target: [artifacts.runId, artifacts.name], set: row })
        .run();
      this.append(tx, entry.runId, artifactWrittenEvent(entry));
    });
  }

  async acquireLease(
    runId: string,
    token: string,
    leaseMs: number,
    options: LeaseOptions = {},
  ): Promise<{ row: RunRow; busy: boolean }> {
    return this.tx((tx) => {
      const row = requireRun(this.row(tx, runId), runId, undefined);
      const nowMs = this.now();
      const decision = leaseDecision(row, token, nowMs);
      if (decision !== 'take') return { row, busy: decision === 'busy' };
      if (options.maxActiveRuns !== undefined && row.state === 'DONE')
        this.assertActiveRunRoom(tx, row.owner, options.maxActiveRuns, runId);
      return {
        row: this.write(tx, runId, leaseValues(token, nowMs + leaseMs, options.request)),
        busy: false,
      };
    });
  }

  /** One statement renews; only when it renews nothing is the run read, to say why (cancelled or lost). */
  async renewLease(runId: string, token: string, leaseMs: number): Promise<'renewed' | 'lost' | 'cancelled'> {
    const changed = this.db
      .update(runs)
      .set({ leaseExpiresMs: this.now() + leaseMs })
      .where(and(eq(runs.runId, runId), eq(runs.leaseOwner, token), ne(runs.state, 'CANCELLED')))
      .run().changes;
    if (changed === 1) return 'renewed';
    return (await this.leaseStatus(runId, token)) === 'cancelled' ? 'cancelled' : 'lost';
  }

  async leaseStatus(runId: string, token: string): Promise<LeaseStatus> {
    const row = this.db
      .select({
        state: runs.state,
        leaseOwner: runs.leaseOwner,
        leaseRequestCancelled: runs.leaseRequestCancelled,
      })
      .from(runs)
      .where(eq(runs.runId, runId))
      .get();
    return leaseStatusOf(row, token);
  }

  async releaseLease(runId: string, token: string): Promise<void> {
    this.db
      .update(runs)
      .set(RELEASED_LEASE)
      .where(and(eq(runs.runId, runId), eq(runs.leaseOwner, token)))
      .run();
  }

  async cancelRequest(owner: string, request: string): Promise<number> {
    return this.db
      .update(runs)
      .set({ leaseRequestCancelled: true })
      .where(and(eq(runs.owner, owner), eq(runs.leaseRequest, request), isNotNull(runs.leaseOwner)))
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
