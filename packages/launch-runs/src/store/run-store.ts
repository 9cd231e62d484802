import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  RunStateSchema,
  SectionStateSchema,
  type RunState,
  type SectionState,
} from '@switchyard/contracts/launch-runs';
import { and, desc, eq, lt, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, LaunchDb, LaunchTx } from '../db/drizzle.js';
import { runs, type RunRow } from '../db/schema.js';
import { LeaseLostError } from '../runs/errors.js';
import { isLeaseLive } from '../runs/lease.js';
import { assertTransition, isStable, isTerminal } from '../runs/state-machine.js';
import type { EventType, RunEvent, TraceIds } from './event-chain.js';
import { appendEvent } from './event-log.js';

export type SectionStates = Record<string, SectionState>;

export interface RunFailure {
  code: string;
  message: string;
  retryable: boolean;
  details: Record<string, unknown>;
}

export function runState(row: Pick<RunRow, 'state'>): RunState {
  return RunStateSchema.parse(row.state);
}

export function sectionStatesOf(row: Pick<RunRow, 'sectionStates'>): SectionStates {
  const raw = JSON.parse(row.sectionStates) as Record<string, unknown>;
  const out: SectionStates = {};
  for (const [section, state] of Object.entries(raw)) out[section] = SectionStateSchema.parse(state);
  return out;
}

export function lastErrorOf(row: Pick<RunRow, 'lastError'>): RunFailure | undefined {
  return row.lastError === null ? undefined : (JSON.parse(row.lastError) as RunFailure);
}

export interface NewRun {
  runId: string;
  /** The principal starting it (its idempotency keys are its own). */
  owner: string;
  productSlug: string;
  config: string;
  configHash: string;
  idempotencyKey: string | undefined;
  sectionStates: SectionStates;
  /** The executor that will drive the run from CREATED (its lease starts with the row). */
  leaseOwner: string;
  leaseMs: number;
}

export type RunPatch = Partial<
  Pick<
    RunRow,
    | 'fixAttempts'
    | 'lastReportOk'
    | 'activeWorker'
    | 'lastError'
    | 'interruptedAt'
    | 'sourceSha'
    | 'siteSha'
    | 'prUrl'
    | 'branch'
    | 'commitSha'
    | 'leaseOwner'
    | 'leaseExpiresMs'
  >
> & { sectionStates?: SectionStates };

export interface ListFilter {
  /** Only this principal's runs. */
  owner?: string;
  productSlug?: string;
  state?: RunState;
  /** Exclusive upper bound of the (created_ms, run_id) order: the previous page's last row. */
  before?: { createdMs: number; runId: string };
  /** Only run ids that start with this (compared as text: `_` and `%` are no wildcards here). */
  runIdPrefix?: string;
  limit: number;
}

/**
 * The runs table. Every state change goes through `transition`, which updates the row and appends its
 * event in one immediate transaction, so the status and the event log never disagree.
 */
export class RunStore {
  /** The hot read (every status call), prepared once. */
  private readonly getPrepared;

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
  }

  /** An immediate (write-locking) transaction: reads inside it see the latest committed state. */
  tx<T>(fn: (tx: LaunchTx) => T): T {
    return this.db.transaction(fn, { behavior: 'immediate' });
  }

  get(runId: string, db?: DbOrTx): RunRow | undefined {
    if (db === undefined) return this.getPrepared.get({ runId });
    return db.select().from(runs).where(eq(runs.runId, runId)).get();
  }

  getByIdempotencyKey(owner: string, key: string, db: DbOrTx = this.db): RunRow | undefined {
    return db
      .select()
      .from(runs)
      .where(and(eq(runs.owner, owner), eq(runs.idempotencyKey, key)))
      .get();
  }

  append(tx: DbOrTx, runId: string, type: EventType, payload: Record<string, unknown>): RunEvent {
    return appendEvent(tx, runId, type, payload, this.trace(), this.now());
  }

  /**
   * Inserts a CREATED run, or returns the run that already holds `idempotencyKey` (`created: false`).
   * The unique index decides between concurrent starts, also across processes.
   */
  insert(run: NewRun): { row: RunRow; created: boolean } {
    return this.tx((tx) => {
      if (run.idempotencyKey !== undefined) {
        const existing = this.getByIdempotencyKey(run.owner, run.idempotencyKey, tx);
        if (existing !== undefined) return { row: existing, created: false };
      }
      // Creation times strictly increase (a run started in the same millisecond as the newest one is dated a
      // millisecond later), so "newest first" is the order the runs were started in, not a tie on run_id.
      const newest = tx
        .select({ createdMs: sql<number | null>`max(${runs.createdMs})` })
        .from(runs)
        .get();
      const nowMs = Math.max(this.now(), (newest?.createdMs ?? -1) + 1);
      const iso = new Date(nowMs).toISOString();
      const inserted = tx
        .insert(runs)
        .values({
          runId: run.runId,
          owner: run.owner,
          productSlug: run.productSlug,
          config: run.config,
          configHash: run.configHash,
          idempotencyKey: run.idempotencyKey ?? null,
          state: 'CREATED',
          sectionStates: JSON.stringify(run.sectionStates),
          createdAt: iso,
          createdMs: nowMs,
          updatedAt: iso,
          leaseOwner: run.leaseOwner,
          leaseExpiresMs: nowMs + run.leaseMs,
        })
        .onConflictDoNothing()
        .returning()
        .get();
      if (inserted === undefined) {
        const winner =
          run.idempotencyKey === undefined
            ? undefined
            : this.getByIdempotencyKey(run.owner, run.idempotencyKey);
        if (winner === undefined) throw new Error(`run ${run.runId} could not be inserted`);
        return { row: winner, created: false };
      }
      this.append(tx, run.runId, 'RUN_CREATED', {
        product_slug: run.productSlug,
        config_hash: run.configHash,
        idempotency_key: run.idempotencyKey ?? null,
        section_states: run.sectionStates,
      });
      return { row: inserted, created: true };
    });
  }

  requireRun(tx: DbOrTx, runId: string, token: string | undefined): RunRow {
    const row = this.get(runId, tx);
    if (row === undefined)
      throw new SwitchyardError('not-found', `No run with run_id ${runId}`, { code: 'RUN_NOT_FOUND' });
    if (token !== undefined && row.leaseOwner !== token) throw new LeaseLostError(runId);
    return row;
  }

  private patchValues(patch: RunPatch, nowMs: number): Partial<RunRow> {
    const { sectionStates, ...rest } = patch;
    return {
      ...rest,
      ...(sectionStates === undefined ? {} : { sectionStates: JSON.stringify(sectionStates) }),
      updatedAt: new Date(nowMs).toISOString(),
    };
  }

  /**
   * Moves the run from `from` to `to` (refusing any transition the lifecycle lacks), applies `patch` and
   * appends STATE_CHANGED, all in one transaction. With `token`, only the lease holder may do it.
   */
  transition(
    runId: string,
    from: RunState,
    to: RunState,
    options: { token?: string; patch?: RunPatch; payload?: Record<string, unknown>; tx?: LaunchTx } = {},
  ): RunRow {
    const work = (tx: LaunchTx): RunRow => {
      const row = this.requireRun(tx, runId, options.token);
      const current = runState(row);
      if (current !== from) throw new LeaseLostError(runId);
      assertTransition(from, to);
      const nowMs = this.now();
      const values: Partial<RunRow> = {
        ...this.patchValues(options.patch ?? {}, nowMs),
        state: to,
        ...(isStable(to) ? { lastStableState: to } : {}),
        ...(isTerminal(to)
          ? { finishedAt: new Date(nowMs).toISOString(), leaseOwner: null, leaseExpiresMs: null }
          : {}),
      };
      const updated = tx.update(runs).set(values).where(eq(runs.runId, runId)).returning().get();
      this.append(tx, runId, 'STATE_CHANGED', { from, to, ...options.payload });
      if (updated === undefined) throw new Error(`run ${runId} vanished during a transition`);
      return updated;
    };
    return options.tx === undefined ? this.tx(work) : work(options.tx);
  }

  /** A change that is not a state change (worker bookkeeping, fix counters), with its event. */
  update(
    runId: string,
    patch: RunPatch,
    event: { type: EventType; payload: Record<string, unknown> } | undefined,
    options: { token?: string; tx?: LaunchTx } = {},
  ): RunRow {
    const work = (tx: LaunchTx): RunRow => {
      this.requireRun(tx, runId, options.token);
      const updated = tx
        .update(runs)
        .set(this.patchValues(patch, this.now()))
        .where(eq(runs.runId, runId))
        .returning()
        .get();
      if (event !== undefined) this.append(tx, runId, event.type, event.payload);
      if (updated === undefined) throw new Error(`run ${runId} vanished during an update`);
      return updated;
    };
    return options.tx === undefined ? this.tx(work) : work(options.tx);
  }

  /**
   * Resets an interrupted run to `to` (its last stable state, or CREATED). Not a lifecycle transition:
   * it undoes a step that never finished, and says so with RUN_REWOUND.
   */
  rewind(runId: string, token: string, from: RunState, to: RunState): RunRow {
    return this.tx((tx) => {
      const row = this.requireRun(tx, runId, token);
      if (runState(row) !== from) throw new LeaseLostError(runId);
      const updated = tx
        .update(runs)
        .set({
          ...this.patchValues({ activeWorker: null, interruptedAt: null, lastError: null }, this.now()),
          state: to,
        })
        .where(eq(runs.runId, runId))
        .returning()
        .get();
      this.append(tx, runId, 'RUN_REWOUND', { from, to });
      if (updated === undefined) throw new Error(`run ${runId} vanished during a rewind`);
      return updated;
    });
  }

  /**
   * Takes the run's lease for `token` when nobody else holds a live one. Returns the row (with the lease)
   * or `busy` with the row as it is.
   */
  acquireLease(runId: string, token: string, leaseMs: number): { row: RunRow; busy: boolean } {
    return this.tx((tx) => {
      const row = this.requireRun(tx, runId, undefined);
      const nowMs = this.now();
      if (row.leaseOwner !== token && isLeaseLive(row, nowMs)) return { row, busy: true };
      // DONE runs may still be re-validated (read-only for their state); FAILED and CANCELLED ones never work again.
      if (row.state === 'FAILED' || row.state === 'CANCELLED') return { row, busy: false };
      const updated = tx
        .update(runs)
        .set({ leaseOwner: token, leaseExpiresMs: nowMs + leaseMs })
        .where(eq(runs.runId, runId))
        .returning()
        .get();
      return { row: updated ?? row, busy: false };
    });
  }

  /** Extends the lease; tells the executor when it lost it or the run was cancelled meanwhile. */
  renewLease(runId: string, token: string, leaseMs: number): 'renewed' | 'lost' | 'cancelled' {
    const row = this.get(runId);
    if (row === undefined || row.leaseOwner !== token) {
      return row !== undefined && row.state === 'CANCELLED' ? 'cancelled' : 'lost';
    }
    const changed = this.db
      .update(runs)
      .set({ leaseExpiresMs: this.now() + leaseMs })
      .where(and(eq(runs.runId, runId), eq(runs.leaseOwner, token)))
      .run().changes;
    return changed === 1 ? 'renewed' : 'lost';
  }

  /** A cheap check the lease watcher runs between renewals. */
  leaseStatus(runId: string, token: string): 'held' | 'lost' | 'cancelled' {
    const row = this.db
      .select({ state: runs.state, leaseOwner: runs.leaseOwner })
      .from(runs)
      .where(eq(runs.runId, runId))
      .get();
    if (row?.state === 'CANCELLED') return 'cancelled';
    return row?.leaseOwner === token ? 'held' : 'lost';
  }

  releaseLease(runId: string, token: string): void {
    this.db
      .update(runs)
      .set({ leaseOwner: null, leaseExpiresMs: null })
      .where(and(eq(runs.runId, runId), eq(runs.leaseOwner, token)))
      .run();
  }

  /** Newest first, by (created_ms, run_id). */
  list(filter: ListFilter): RunRow[] {
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

  /** Runs that are not finished: candidates for the startup sweep. */
  unfinished(): RunRow[] {
    return this.db
      .select()
      .from(runs)
      .where(notInArray(runs.state, ['DONE', 'FAILED', 'CANCELLED']))
      .all();
  }
}
