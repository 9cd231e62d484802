import fs from 'node:fs';
import path from 'node:path';
import { createLogger, resolvePostgresSettings } from '@switchyard/server-kit/runtime';
import { startTestPostgres, type TestPostgres } from '@switchyard/test-postgres';
import { count, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../src/canonical-json.js';
import { launchDb, type LaunchDb } from '../src/db/drizzle.js';
import { DATABASE_URL_VARIABLE, openLaunchDatabase, type LaunchDatabase } from '../src/db/open.js';
import { openLaunchPool } from '../src/db/postgres-database.js';
import * as postgresSchema from '../src/db/postgres-schema.js';
import * as sqliteSchema from '../src/db/schema.js';
import { newLeaseToken, retireLeaseToken } from '../src/runs/model/lease.js';
import { activeRunsOf } from '../src/store/active-runs.js';
import { artifactNameProblem } from '../src/store/artifact-names.js';
import { ArtifactRepository } from '../src/store/artifact-store.js';
import { verifyEventChain, type TraceIds } from '../src/store/event-chain.js';
import type { RunRow } from '../src/db/schema.js';
import type { LaunchStore, NewRun } from '../src/store/launch-store.js';
import type { NewTask } from '../src/store/task-rows.js';
import { PostgresLaunchStore } from '../src/store/postgres-launch-store.js';
import { chainedEventRows, eventValues, newRunValues } from '../src/store/run-changes.js';
import { pageRounds, pageRoundsOf } from '../src/runs/drafts.js';
import { fixHistory, fixHistoryOf } from '../src/runs/fix-history.js';
import { activityEvents } from '../src/tasks/task-activity.js';
import { TaskDrafts } from '../src/tasks/task-drafts.js';
import type { RunEventInput } from '../src/runs/model/events.js';
import {
  artifactRecorded,
  cancelled,
  changed,
  taskEnded,
  taskOpened,
  transitioned,
  validationRecorded,
} from '../src/store/run-writes.js';
import { RunPaths } from '../src/store/run-paths.js';
import { SqliteLaunchStore } from '../src/store/sqlite-launch-store.js';
import { tempDir } from './support/harness.js';

// Every LaunchStore rule holds on both databases: the same tests run on launch-runs.sqlite and on a real
// PostgreSQL server (issue #18). Each test gets its own data directory and, on PostgreSQL, its own database;
// "two stores" are two connections to it (two processes, or two replicas with their own pools).

let postgres: Promise<TestPostgres> | undefined;
afterAll(async () => {
  await (await postgres)?.stop();
});

const DIALECTS = ['sqlite', 'postgres'] as const;
type Dialect = (typeof DIALECTS)[number];

const TRACE: TraceIds = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) };
const RUN = 'r_2026-01-21T10-00-00Z_abcd1234';
const LEASE_MS = 30_000;

/** The stores' clock: real time, moved forward by tests that need a lease to expire. */
let clockOffsetMs = 0;
const clock = () => Date.now() + clockOffsetMs;

interface Fixture {
  dir: string;
  paths: RunPaths;
  /** Two stores on one database, as two processes (or replicas) have them. */
  stores: [LaunchStore, LaunchStore];
  /**
   * Another store on the first (or second) store's connection, with its own clock, no trace and, if given,
   * its own batch of expired tasks deleted per task opened.
   */
  storeAt(now: () => number, connection?: 0 | 1, expiredTaskBatch?: number): LaunchStore;
  /** Inserts an events row as given, past the store (what a second writer of an event would do). */
  insertEvent(values: ReturnType<typeof eventValues>): Promise<void>;
  /** Sets the indexed sha256 and size of every artifact, past the store (a crash window's index). */
  setArtifactIndex(sha256: string, size: number): Promise<void>;
  /** Leaves `leaseOwner`'s lease, expiring at `leaseExpiresMs`, on the run, past the store. */
  setLease(runId: string, leaseOwner: string, leaseExpiresMs: number): Promise<void>;
  /** Holds the run's row lock in a transaction of its own until the returned function ends it. */
  lockRun?(runId: string): Promise<() => Promise<void>>;
  /** Inserts run rows as given, past the store, 500 at a time. */
  insertRuns(rows: RunRow[]): Promise<void>;
  /**
   * How the database, its statistics gathered, would run an owner's active-run count (store/active-runs.ts):
   * the plan's lines.
   */
  explainActiveRunCount(owner: string, nowMs: number): Promise<string[]>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sqliteFixture(dir: string, paths: RunPaths): Promise<Fixture> {
  const connections: LaunchDatabase['sqlite'][] = [];
  const open = (): LaunchDb => {
    const database = openLaunchDatabase(dir);
    cleanups.push(async () => {
      database.sqlite.close();
    });
    connections.push(database.sqlite);
    return launchDb(database.sqlite);
  };
  const [first, second] = [open(), open()];
  return {
    dir,
    paths,
    stores: [
      new SqliteLaunchStore(first, () => TRACE, clock),
      new SqliteLaunchStore(second, () => TRACE, clock),
    ],
    storeAt: (now, connection = 0, expiredTaskBatch) =>
      new SqliteLaunchStore(connection === 0 ? first : second, () => undefined, now, expiredTaskBatch),
    async insertEvent(values) {
      first.insert(sqliteSchema.events).values(values).run();
    },
    async setArtifactIndex(sha256, size) {
      first.update(sqliteSchema.artifacts).set({ sha256, size }).run();
    },
    async setLease(runId, leaseOwner, leaseExpiresMs) {
      const { runs } = sqliteSchema;
      first.update(runs).set({ leaseOwner, leaseExpiresMs }).where(eq(runs.runId, runId)).run();
    },
    async insertRuns(rows) {
      for (let at = 0; at < rows.length; at += 500)
        first
          .insert(sqliteSchema.runs)
          .values(rows.slice(at, at + 500))
          .run();
    },
    async explainActiveRunCount(owner, nowMs) {
      const { runs } = sqliteSchema;
      const query = first
        .select({ active: count() })
        .from(runs)
        .where(activeRunsOf(runs, owner, nowMs))
        .toSQL();
      const [sqlite] = connections;
      sqlite!.exec('ANALYZE');
      const plan = sqlite!.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params);
      return (plan as { detail: string }[]).map((step) => step.detail);
    },
  };
}

async function postgresFixture(dir: string, paths: RunPaths): Promise<Fixture> {
  const server = await (postgres ??= startTestPostgres());
  const settings = resolvePostgresSettings(
    { [DATABASE_URL_VARIABLE]: await server.createDatabase(), SWITCHYARD_MIGRATE_ON_START: '1' },
    DATABASE_URL_VARIABLE,
  )!;
  const logger = createLogger({ level: 'error', write: () => {} });
  const open = async () => {
    const pool = await openLaunchPool(settings, logger);
    cleanups.push(() => pool.end());
    return pool;
  };
  const [first, second] = [await open(), await open()];
  const db = drizzle(first);
  return {
    dir,
    paths,
    stores: [
      new PostgresLaunchStore(first, () => TRACE, clock),
      new PostgresLaunchStore(second, () => TRACE, clock),
    ],
    storeAt: (now, connection = 0, expiredTaskBatch) =>
      new PostgresLaunchStore(connection === 0 ? first : second, () => undefined, now, expiredTaskBatch),
    async insertEvent(values) {
      await db.insert(postgresSchema.events).values(values);
    },
    async setArtifactIndex(sha256, size) {
      await db.update(postgresSchema.artifacts).set({ sha256, size });
    },
    async setLease(runId, leaseOwner, leaseExpiresMs) {
      const { runs } = postgresSchema;
      await db.update(runs).set({ leaseOwner, leaseExpiresMs }).where(eq(runs.runId, runId));
    },
    async lockRun(runId) {
      const client = await second.connect();
      await client.query('BEGIN');
      await client.query('SELECT run_id FROM runs WHERE run_id = $1 FOR UPDATE', [runId]);
      return async () => {
        await client.query('ROLLBACK');
        client.release();
      };
    },
    async insertRuns(rows) {
      for (let at = 0; at < rows.length; at += 500)
        await db.insert(postgresSchema.runs).values(rows.slice(at, at + 500));
    },
    async explainActiveRunCount(owner, nowMs) {
      const { runs } = postgresSchema;
      const query = db
        .select({ active: count() })
        .from(runs)
        .where(activeRunsOf(runs, owner, nowMs))
        .toSQL();
      const client = await first.connect();
      try {
        await client.query('ANALYZE runs');
        // A test table fits in a few pages, which a sequential scan reads fastest: ask what an index does.
        await client.query('SET enable_seqscan = off');
        const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${query.sql}`, query.params);
        return plan.rows.map((row) => row['QUERY PLAN']);
      } finally {
        await client.query('RESET enable_seqscan');
        client.release();
      }
    },
  };
}

/** The fixture of each test in a `describe.each(DIALECTS)` block. */
function useStores(dialect: Dialect) {
  const context = {} as Fixture & { store: LaunchStore; repo: ArtifactRepository };
  beforeEach(async () => {
    clockOffsetMs = 0;
    const dir = tempDir('store');
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const paths = new RunPaths(dir);
    const fixture = await (dialect === 'sqlite' ? sqliteFixture : postgresFixture)(dir, paths);
    Object.assign(context, fixture, {
      store: fixture.stores[0],
      repo: new ArtifactRepository(fixture.stores[0], paths),
    });
  }, 180_000);
  return context;
}

function newRun(runId = RUN, key?: string, hash = 'h1', token = newLeaseToken()): NewRun {
  return {
    runId,
    owner: 'local:test',
    productSlug: 'p',
    config: '{}',
    configHash: hash,
    idempotencyKey: key,
    sectionStates: { docs: 'NOT_STARTED' },
    leaseOwner: token,
    leaseMs: LEASE_MS,
    maxActiveRuns: 100,
  };
}

/** A database refusing a duplicate: SQLite's message, PostgreSQL's SQLSTATE (on the error or its cause). */
function isUniqueViolation(error: unknown): boolean {
  const { message, code, cause } = error as { message?: string; code?: string; cause?: unknown };
  if (code === '23505' || /UNIQUE constraint failed/.test(message ?? '')) return true;
  return cause !== undefined && isUniqueViolation(cause);
}

const MAIN_LINE = [
  'CREATED',
  'CLONED_INPUTS',
  'INGESTED',
  'FACTS_READY',
  'PLAN_READY',
  'DRAFTING',
  'DRAFT_READY',
  'LINKING',
  'VALIDATING',
  'READY_FOR_PR',
  'PR_OPENED',
  'DONE',
] as const;

describe('canonical JSON', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[{"x":2,"y":1}]},"b":1}',
    );
    expect(sha256Hex(canonicalJson({ a: 1, b: 2 }))).toBe(sha256Hex(canonicalJson({ b: 2, a: 1 })));
  });
});

describe.each(DIALECTS)('runs and the event chain (%s)', (dialect) => {
  const t = useStores(dialect);

  it('a state change updates the row and appends its event in one transaction; the chain verifies', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    await t.store.append(RUN, token, transitioned('CREATED', 'CLONED_INPUTS', { source_sha: 'abc' }));
    expect(await t.store.get(RUN)).toMatchObject({ state: 'CLONED_INPUTS', sourceSha: 'abc' });
    const list = await t.store.events(RUN);
    expect(list.map((e) => e.type)).toEqual(['RUN_CREATED', 'STATE_CHANGED']);
    expect(list[1]).toMatchObject({
      seq: 2,
      prev_hash: list[0]?.event_hash,
      trace_id: 'a'.repeat(32),
      span_id: 'b'.repeat(16),
    });
    expect(verifyEventChain(list)).toEqual({ ok: true, count: 2 });
    retireLeaseToken(token);
  });

  it('refuses an illegal transition and changes nothing', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    await expect(t.store.append(RUN, token, transitioned('CREATED', 'READY_FOR_PR'))).rejects.toThrow(
      'Illegal run state transition',
    );
    expect((await t.store.get(RUN))?.state).toBe('CREATED');
    expect(await t.store.events(RUN)).toHaveLength(1);
    retireLeaseToken(token);
  });

  it('detects a tampered, reordered or deleted event', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    await t.store.append(RUN, token, transitioned('CREATED', 'CLONED_INPUTS'));
    await t.store.append(RUN, token, transitioned('CLONED_INPUTS', 'INGESTED'));
    const list = await t.store.events(RUN);
    expect(verifyEventChain(list).ok).toBe(true);
    expect(verifyEventChain([list[0]!, list[2]!])).toMatchObject({
      ok: false,
      broken_at: { reason: 'sequence' },
    });
    const edited = list.map((e) => (e.seq === 2 ? { ...e, ts: '2000-01-01T00:00:00.000Z' } : e));
    expect(verifyEventChain(edited)).toMatchObject({
      ok: false,
      broken_at: { seq: 2, reason: 'event_hash' },
    });
    const relinked = list.map((e) => (e.seq === 3 ? { ...e, prev_hash: list[0]!.event_hash } : e));
    expect(verifyEventChain(relinked)).toMatchObject({
      ok: false,
      broken_at: { seq: 3, reason: 'prev_hash' },
    });
    // The database refuses a second event with the same sequence number (no forked chain).
    const refused = await t.insertEvent({ ...eventValues(list[1]!), eventId: 'dup' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(refused)).toBe(true);
    expect(await t.store.events(RUN)).toHaveLength(3);
    retireLeaseToken(token);
  });

  it('a transition without the lease is refused', async () => {
    await t.store.insert(newRun());
    const other = newLeaseToken();
    await expect(t.store.append(RUN, other, transitioned('CREATED', 'CLONED_INPUTS'))).rejects.toThrow(
      'Lost the execution lease',
    );
    retireLeaseToken(other);
  });

  it('a change to a run that does not exist is RUN_NOT_FOUND', async () => {
    await expect(t.store.append(RUN, null, transitioned('CREATED', 'CLONED_INPUTS'))).rejects.toMatchObject({
      code: 'RUN_NOT_FOUND',
    });
    await expect(t.store.acquireLease(RUN, newLeaseToken(), LEASE_MS)).rejects.toMatchObject({
      code: 'RUN_NOT_FOUND',
    });
  });

  it('runs started within one millisecond list newest first in the order they were started', async () => {
    const frozen = t.storeAt(() => Date.parse('2026-01-21T10:00:00.000Z'));
    // Run ids sort the other way round from their start order, so a tie broken by run_id would show.
    const ids = ['r_2026-01-21T10-00-00Z_ffff0003', 'r_2026-01-21T10-00-00Z_bbbb0002', RUN];
    for (const runId of ids) await frozen.insert(newRun(runId, undefined, runId));
    const listed = await frozen.list({ limit: 10 });
    expect(listed.map((row) => row.runId)).toEqual([...ids].reverse());
    expect(listed.map((row) => row.createdAt)).toEqual([
      '2026-01-21T10:00:00.002Z',
      '2026-01-21T10:00:00.001Z',
      '2026-01-21T10:00:00.000Z',
    ]);
  });

  it('runs started at once through two stores get distinct creation times', async () => {
    const frozen = () => Date.parse('2026-01-21T10:00:00.000Z');
    const stores = [t.storeAt(frozen, 0), t.storeAt(frozen, 1)];
    const started = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        stores[i % 2]!.insert(newRun(`r_2026-01-21T10-00-00Z_same000${i}`)),
      ),
    );
    const createdMs = started.map((start) => start.row.createdMs).sort((x, y) => x - y);
    expect(createdMs).toEqual(Array.from({ length: 10 }, (_, i) => frozen() + i));
  });

  it('lists by owner and state, pages with a cursor, and takes a run id prefix literally', async () => {
    const ids = ['r_a%1', 'r_ab', 'r_Xb', 'r_a%2'];
    for (const runId of ids) await t.store.insert(newRun(runId, undefined, runId));
    await t.store.insert({ ...newRun('r_other'), owner: 'local:other' });
    await t.store.append(
      'r_ab',
      null,
      cancelled(() => undefined),
    );
    const mine = await t.store.list({ owner: 'local:test', limit: 10 });
    expect(mine.map((row) => row.runId)).toEqual([...ids].reverse());
    const firstPage = await t.store.list({ owner: 'local:test', limit: 2 });
    const last = firstPage.at(-1)!;
    const secondPage = await t.store.list({
      owner: 'local:test',
      limit: 10,
      before: { createdMs: last.createdMs, runId: last.runId },
    });
    expect([...firstPage, ...secondPage].map((row) => row.runId)).toEqual(mine.map((row) => row.runId));
    expect((await t.store.list({ state: 'CANCELLED', limit: 10 })).map((row) => row.runId)).toEqual(['r_ab']);
    const prefixed = await t.store.list({ runIdPrefix: 'r_a%', limit: 10 });
    expect(prefixed.map((row) => row.runId)).toEqual(['r_a%2', 'r_a%1']);
    expect(await t.store.list({ runIdPrefix: 'r__', limit: 10 })).toEqual([]);
    expect((await t.store.unfinished()).map((row) => row.runId).sort()).toEqual(
      ['r_Xb', 'r_a%1', 'r_a%2', 'r_other'].sort(),
    );
  });

  it('the unique index keeps one run per idempotency key', async () => {
    const first = await t.store.insert(newRun(RUN, 'k'));
    const second = await t.store.insert(newRun('r_2026-01-21T10-00-01Z_00000001', 'k'));
    expect(first.created).toBe(true);
    expect(second).toMatchObject({ created: false, row: { runId: RUN } });
  });

  it('two stores starting runs with one idempotency key at once make one run', async () => {
    const [a, b] = t.stores;
    const starts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? a : b).insert(newRun(`r_2026-01-21T10-00-00Z_race000${i}`, 'same-key')),
      ),
    );
    expect(starts.filter((start) => start.created)).toHaveLength(1);
    const winner = starts.find((start) => start.created)!.row.runId;
    expect(new Set(starts.map((start) => start.row.runId))).toEqual(new Set([winner]));
    expect(await a.list({ limit: 10 })).toHaveLength(1);
    expect(await b.getByIdempotencyKey('local:test', 'same-key')).toMatchObject({ runId: winner });
  });

  it('concurrent changes from two stores each see the run as the one before left it; the chain verifies', async () => {
    const [a, b] = t.stores;
    await a.insert(newRun());
    // Each change counts from the row it read: a change deciding on a stale row would lose an increment.
    const changes = Array.from({ length: 20 }, (_, i) =>
      (i % 2 === 0 ? a : b).append(
        RUN,
        null,
        changed((row) => ({
          type: 'FIX_APPLIED',
          payload: { attempt: row.fixAttempts + 1, i, after: row.fixAttempts },
        })),
      ),
    );
    await Promise.all(changes);
    expect((await a.get(RUN))?.fixAttempts).toBe(20);
    const list = await b.events(RUN);
    expect(verifyEventChain(list)).toEqual({ ok: true, count: 21 });
    expect(list.map((event) => event.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });

  it('of two concurrent transitions from one state, one wins and the other is refused', async () => {
    const [a, b] = t.stores;
    const token = newLeaseToken();
    await a.insert(newRun(RUN, undefined, 'h1', token));
    const outcomes = await Promise.allSettled([
      a.append(RUN, token, transitioned('CREATED', 'CLONED_INPUTS')),
      b.append(RUN, token, transitioned('CREATED', 'CLONED_INPUTS')),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: { message: expect.stringContaining('Lost the execution lease') },
    });
    expect((await a.events(RUN)).map((event) => event.type)).toEqual(['RUN_CREATED', 'STATE_CHANGED']);
    retireLeaseToken(token);
  });

  it('a lease held by a live executor is busy; a dead one (token not alive, or expired) can be taken', async () => {
    const holder = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', holder));
    const other = newLeaseToken();
    expect((await t.store.acquireLease(RUN, other, LEASE_MS)).busy).toBe(true);
    retireLeaseToken(holder); // the holder is gone (same process: not alive any more)
    expect(await t.store.acquireLease(RUN, other, LEASE_MS)).toMatchObject({
      busy: false,
      row: { leaseOwner: other },
    });
    await t.store.releaseLease(RUN, other);
    expect((await t.store.get(RUN))?.leaseOwner).toBeNull();
    retireLeaseToken(other);
  });

  it('a lease its admit declines or refuses is not taken; admit hears whether it is held', async () => {
    const holder = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', holder));
    const other = newLeaseToken();
    const heard: boolean[] = [];
    const admit = (_row: RunRow, held: boolean) => {
      heard.push(held);
      return false;
    };
    expect((await t.store.acquireLease(RUN, other, LEASE_MS, { admit })).busy).toBe(true);
    await t.store.releaseLease(RUN, holder);
    expect(await t.store.acquireLease(RUN, other, LEASE_MS, { admit })).toMatchObject({
      busy: false,
      row: { leaseOwner: null },
    });
    const refuse = () => {
      throw new Error('refused by the rule');
    };
    await expect(t.store.acquireLease(RUN, other, LEASE_MS, { admit: refuse })).rejects.toThrow('refused by');
    expect((await t.store.get(RUN))?.leaseOwner).toBeNull();
    expect(heard).toEqual([true, false]);
    for (const token of [holder, other]) retireLeaseToken(token);
  });

  it('the lease of a FAILED or CANCELLED run is never taken again, even by its last holder', async () => {
    const cancelledRun = 'r_2026-01-21T10-00-00Z_cccc0001';
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    await t.store.append(RUN, token, transitioned('CREATED', 'FAILED'));
    await t.store.insert(newRun(cancelledRun, undefined, 'h1', token));
    await t.store.append(
      cancelledRun,
      null,
      cancelled(() => undefined),
    );
    for (const runId of [RUN, cancelledRun]) {
      await t.store.releaseLease(runId, token);
      expect((await t.store.acquireLease(runId, token, LEASE_MS)).row.leaseOwner).toBeNull();
    }
    retireLeaseToken(token);
  });

  it('a live lease taken through one store is busy through the other until it is released', async () => {
    const [a, b] = t.stores;
    const holder = newLeaseToken();
    const other = newLeaseToken();
    await a.insert(newRun(RUN, undefined, 'h1', holder));
    expect(await b.acquireLease(RUN, other, LEASE_MS)).toMatchObject({
      busy: true,
      row: { leaseOwner: holder },
    });
    expect(await b.leaseStatus(RUN, other)).toBe('lost');
    expect(await a.renewLease(RUN, holder, LEASE_MS)).toBe('renewed');
    expect(await b.renewLease(RUN, other, LEASE_MS)).toBe('lost');
    await a.releaseLease(RUN, holder);
    expect(await b.acquireLease(RUN, other, LEASE_MS)).toMatchObject({
      busy: false,
      row: { leaseOwner: other },
    });
    expect(await a.leaseStatus(RUN, holder)).toBe('lost');
    expect(await b.leaseStatus(RUN, other)).toBe('held');
    await a.append(
      RUN,
      null,
      cancelled(() => undefined),
    );
    expect(await b.renewLease(RUN, other, LEASE_MS)).toBe('cancelled');
    expect(await b.leaseStatus(RUN, other)).toBe('cancelled');
    retireLeaseToken(holder);
    retireLeaseToken(other);
  });

  it("a client's cancel of the call holding a lease, sent through another store, marks that lease only", async () => {
    const [a, b] = t.stores;
    const holder = newLeaseToken();
    await a.insert(newRun(RUN, undefined, 'h1', holder));
    await a.releaseLease(RUN, holder);
    expect((await a.acquireLease(RUN, holder, LEASE_MS, { request: '7' })).busy).toBe(false);
    // Another principal's request 7, the owner's request "7" (a string id) or 8: not this call.
    expect(await b.cancelRequest('local:someone-else', '7')).toBe(0);
    expect(await b.cancelRequest('local:test', '"7"')).toBe(0);
    expect(await b.cancelRequest('local:test', '8')).toBe(0);
    expect(await a.leaseStatus(RUN, holder)).toBe('held');
    expect(await b.cancelRequest('local:test', '7')).toBe(1);
    expect(await a.leaseStatus(RUN, holder)).toBe('request-cancelled');
    // Released, the mark goes with the lease; the next call's lease starts unmarked.
    await a.releaseLease(RUN, holder);
    expect(await b.cancelRequest('local:test', '7')).toBe(0);
    expect((await a.acquireLease(RUN, holder, LEASE_MS, { request: '7' })).busy).toBe(false);
    expect(await a.leaseStatus(RUN, holder)).toBe('held');
    retireLeaseToken(holder);
  });
});

describe.each(DIALECTS)('the active run limit (%s)', (dialect) => {
  const t = useStores(dialect);
  const runIds = Array.from(
    { length: 12 },
    (_, i) => `r_2026-01-21T10-00-00Z_limit${String(i).padStart(3, '0')}`,
  );
  /** A run of `owner` that may start while the owner has fewer than `limit` unfinished ones. */
  const limited = (runId: string, limit: number, key?: string, owner = 'local:test'): NewRun => ({
    ...newRun(runId, key),
    owner,
    maxActiveRuns: limit,
  });
  const refusal = {
    code: 'INVALID_INPUT',
    retryable: true,
    details: { reason: 'active_run_limit', setting: 'LAUNCH_MAX_ACTIVE_RUNS', limit: 2, active: 2 },
  };

  it('refuses a run over the limit and records nothing of it', async () => {
    const [first, second, third] = runIds;
    await t.store.insert(limited(first!, 2));
    await t.store.insert(limited(second!, 2));
    await expect(t.store.insert(limited(third!, 2))).rejects.toMatchObject(refusal);
    expect(await t.store.get(third!)).toBeUndefined();
    expect(await t.store.events(third!)).toEqual([]);
    expect(await t.store.list({ owner: 'local:test', limit: 10 })).toHaveLength(2);
  });

  it('answers a replay of an idempotency key at the limit with its run', async () => {
    const [first, second] = runIds;
    await t.store.insert(limited(first!, 1, 'k'));
    expect(await t.store.insert(limited(second!, 1, 'k'))).toMatchObject({
      created: false,
      row: { runId: first },
    });
  });

  it('counts unfinished runs only: a cancelled or failed run frees its place', async () => {
    const [first, second, third, fourth, fifth] = runIds;
    const token = newLeaseToken();
    await t.store.insert(limited(first!, 2));
    await t.store.insert({ ...limited(second!, 2), leaseOwner: token });
    await t.store.append(
      first!,
      null,
      cancelled(() => undefined),
    );
    expect((await t.store.insert(limited(third!, 2))).created).toBe(true);
    await t.store.append(second!, token, transitioned('CREATED', 'FAILED'));
    expect((await t.store.insert(limited(fourth!, 2))).created).toBe(true);
    await expect(t.store.insert(limited(fifth!, 2))).rejects.toMatchObject(refusal);
    retireLeaseToken(token);
  });

  it("counts each principal's runs apart", async () => {
    const [first, second, third] = runIds;
    await t.store.insert(limited(first!, 1));
    await expect(t.store.insert(limited(second!, 1))).rejects.toMatchObject({
      details: { reason: 'active_run_limit' },
    });
    expect((await t.store.insert(limited(third!, 1, undefined, 'local:other'))).created).toBe(true);
  });

  it('of concurrent starts through two stores at one below the limit, exactly one is recorded', async () => {
    const [first, ...rest] = runIds;
    await t.store.insert(limited(first!, 2));
    const starts = await Promise.allSettled(
      rest.map((runId, i) => t.stores[i % 2]!.insert(limited(runId, 2))),
    );
    expect(starts.filter((start) => start.status === 'fulfilled')).toHaveLength(1);
    for (const start of starts) {
      if (start.status === 'rejected') expect(start.reason).toMatchObject(refusal);
    }
    expect(await t.store.list({ owner: 'local:test', limit: 20 })).toHaveLength(2);
  });

  /** A DONE run of local:test, its lease released (as a run that opened its PR leaves it). */
  async function doneRun(runId: string): Promise<void> {
    await t.store.insert(limited(runId, 100));
    for (let i = 1; i < MAIN_LINE.length; i++)
      await t.store.append(runId, null, transitioned(MAIN_LINE[i - 1]!, MAIN_LINE[i]!));
  }

  it('counts a DONE run while a lease holds it, and refuses such a lease (launch_validate) at the limit', async () => {
    const [done, other, first, second] = runIds;
    await doneRun(done!);
    await doneRun(other!);
    await t.store.insert(limited(first!, 2));
    const validating = newLeaseToken();
    expect((await t.store.acquireLease(done!, validating, LEASE_MS, { maxActiveRuns: 2 })).busy).toBe(false);
    await expect(t.store.insert(limited(second!, 2))).rejects.toMatchObject(refusal);
    await expect(
      t.store.acquireLease(other!, newLeaseToken(), LEASE_MS, { maxActiveRuns: 2 }),
    ).rejects.toMatchObject(refusal);
    expect((await t.store.get(other!))?.leaseOwner).toBeNull();
    // Without the limit (the sweep removing its workspace, a refused tool): taken, never refused.
    const sweeping = newLeaseToken();
    expect((await t.store.acquireLease(other!, sweeping, LEASE_MS)).busy).toBe(false);
    await t.store.releaseLease(other!, sweeping);
    await t.store.releaseLease(done!, validating);
    expect((await t.store.insert(limited(second!, 2))).created).toBe(true);
    // A lease its holder left to expire stops counting when it expires.
    await t.store.acquireLease(done!, newLeaseToken(), LEASE_MS, { maxActiveRuns: 3 });
    await expect(
      t.store.acquireLease(other!, newLeaseToken(), LEASE_MS, { maxActiveRuns: 3 }),
    ).rejects.toMatchObject({
      details: { reason: 'active_run_limit', active: 3 },
    });
    clockOffsetMs = 2 * LEASE_MS;
    expect((await t.store.acquireLease(other!, newLeaseToken(), LEASE_MS, { maxActiveRuns: 3 })).busy).toBe(
      false,
    );
    for (const token of [validating, sweeping]) retireLeaseToken(token);
  });

  it("seeks the owner's active runs in runs_owner_state_idx instead of reading all of the owner's runs", async () => {
    // What accumulates: an owner's ended runs, kept for their record; a few unfinished ones among them.
    const nowMs = Date.now();
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      ...newRunValues(newRun(`r_2026-01-21T10-00-00Z_e${String(i).padStart(7, '0')}`), null, nowMs + i),
      state: i % 100 === 0 ? 'VALIDATING' : 'DONE',
      leaseOwner: null,
      leaseExpiresMs: null,
    }));
    await t.insertRuns(rows);
    const plan = (await t.explainActiveRunCount('local:test', nowMs)).join('\n');
    // Both halves of the count are seeks on (owner, state): the owner's DONE runs are never read one by one.
    const seeks =
      dialect === 'sqlite'
        ? [
            /USING (COVERING )?INDEX runs_owner_state_idx \(owner=\? AND state=\?\)/,
            /USING (COVERING )?INDEX runs_owner_state_idx \(owner=\? AND state=\? AND lease_expires_ms>\?\)/,
          ]
        : [
            /Index Cond: \(\(owner = '[^']+'::text\) AND \(state = ANY \('\{CREATED,/,
            /Index Cond: \(\(owner = '[^']+'::text\) AND \(state = 'DONE'::text\) AND \(lease_expires_ms > /,
          ];
    for (const seek of seeks) expect(plan).toMatch(seek);
    expect(plan).not.toMatch(/Filter:.*state/);
  });

  it('of concurrent DONE-run leases through two stores at one below the limit, exactly one is taken', async () => {
    const [first, ...done] = runIds;
    await t.store.insert(limited(first!, 2));
    for (const runId of done) await doneRun(runId);
    const leases = await Promise.allSettled(
      done.map((runId, i) =>
        t.stores[i % 2]!.acquireLease(runId, newLeaseToken(), LEASE_MS, { maxActiveRuns: 2 }),
      ),
    );
    expect(leases.filter((lease) => lease.status === 'fulfilled')).toHaveLength(1);
    for (const lease of leases) {
      if (lease.status === 'rejected') expect(lease.reason).toMatchObject(refusal);
    }
  });
});

describe('the SQLite store', () => {
  const t = useStores('sqlite');

  it('claims no abandoned runs: one data directory, one machine (startup marks them interrupted)', async () => {
    await t.store.insert(newRun());
    clockOffsetMs = 10 * LEASE_MS;
    expect(await t.store.claimAbandoned(newLeaseToken(), LEASE_MS)).toBeUndefined();
    expect(await t.store.artifactBytes(RUN, 'page_plan.json')).toBeUndefined();
  });
});

describe('the PostgreSQL store', () => {
  const t = useStores('postgres');

  it('a run another writer has locked answers busy instead of waiting', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    await t.store.releaseLease(RUN, token);
    const unlock = await t.lockRun!(RUN);
    try {
      expect(await t.store.acquireLease(RUN, token, LEASE_MS)).toMatchObject({
        busy: true,
        row: { leaseOwner: null },
      });
    } finally {
      await unlock();
    }
    expect(await t.store.acquireLease(RUN, token, LEASE_MS)).toMatchObject({
      busy: false,
      row: { leaseOwner: token },
    });
    retireLeaseToken(token);
  });

  it('an expired, unreleased lease is claimed once by two concurrent claimers', async () => {
    const [a, b] = t.stores;
    await a.insert(newRun());
    expect(await a.claimAbandoned(newLeaseToken(), LEASE_MS)).toBeUndefined(); // still live
    clockOffsetMs = LEASE_MS + 1;
    const [claimA, claimB] = [newLeaseToken(), newLeaseToken()];
    const claims = await Promise.all([
      a.claimAbandoned(claimA, LEASE_MS),
      b.claimAbandoned(claimB, LEASE_MS),
    ]);
    const claimed = claims.filter((row) => row !== undefined);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ runId: RUN, leaseExpiresMs: expect.any(Number) });
    expect([claimA, claimB]).toContain(claimed[0]!.leaseOwner);
    expect(await a.get(RUN)).toMatchObject({ leaseOwner: claimed[0]!.leaseOwner });
  });

  it('concurrent claimers on two pools each take a different abandoned run, oldest first', async () => {
    const [a, b] = t.stores;
    const ids = ['r_2026-01-21T10-00-00Z_old00001', 'r_2026-01-21T10-00-00Z_old00002', 'r_young'];
    for (const runId of ids.slice(0, 2)) await a.insert(newRun(runId, undefined, runId));
    clockOffsetMs = LEASE_MS + 1;
    await a.insert(newRun(ids[2], undefined, 'young')); // its lease is live
    const claims = await Promise.all([
      a.claimAbandoned(newLeaseToken(), LEASE_MS),
      b.claimAbandoned(newLeaseToken(), LEASE_MS),
    ]);
    expect(claims.map((row) => row?.runId).sort()).toEqual(ids.slice(0, 2));
    expect(await a.claimAbandoned(newLeaseToken(), LEASE_MS)).toBeUndefined();
    clockOffsetMs = 3 * LEASE_MS;
    expect((await b.claimAbandoned(newLeaseToken(), LEASE_MS))?.runId).toBe(ids[0]);
  });

  it('released leases and finished runs are never claimed', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun('r_released', undefined, 'released', token));
    await t.store.releaseLease('r_released', token);
    await t.store.insert(newRun('r_cancelled', undefined, 'cancelled'));
    await t.store.append(
      'r_cancelled',
      null,
      cancelled(() => undefined),
    );
    await t.store.insert(newRun('r_failed', undefined, 'failed'));
    await t.store.append('r_failed', null, transitioned('CREATED', 'FAILED'));
    await t.store.insert(newRun('r_done', undefined, 'done'));
    for (let i = 1; i < MAIN_LINE.length; i++)
      await t.store.append('r_done', null, transitioned(MAIN_LINE[i - 1]!, MAIN_LINE[i]!));
    // A finished run with a stale lease left on it: still not abandoned work.
    for (const runId of ['r_cancelled', 'r_failed', 'r_done']) await t.setLease(runId, newLeaseToken(), 1);
    clockOffsetMs = 10 * LEASE_MS;
    expect(await t.store.claimAbandoned(newLeaseToken(), LEASE_MS)).toBeUndefined();
    expect((await t.store.get('r_released'))?.leaseOwner).toBeNull();
  });

  it('keeps artifact bytes in the database: recorded under the lease, read back, never listed', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    const bytes = new Uint8Array([0, 1, 2, 0xfe, 0xff, 0x0a, 0x00]);
    const entry = {
      runId: RUN,
      name: 'assets/logo.bin',
      path: 'assets/logo.bin',
      sha256: sha256Hex(bytes),
      size: bytes.byteLength,
      contentType: 'application/octet-stream',
      worker: 'W2',
    };
    await t.store.append(RUN, token, artifactRecorded(entry, bytes));
    expect(await t.stores[1].artifactBytes(RUN, entry.name)).toEqual(bytes);
    expect(await t.store.artifactBytes(RUN, 'missing.bin')).toBeUndefined();
    const listed = await t.store.artifacts(RUN);
    expect(listed).toEqual([{ ...entry, writtenAt: expect.any(String) }]);
    expect(Object.keys(listed[0]!)).not.toContain('content');
    expect(Object.keys((await t.store.artifact(RUN, entry.name))!)).not.toContain('content');
    const replaced = new TextEncoder().encode('v2');
    await t.store.append(
      RUN,
      token,
      artifactRecorded({ ...entry, sha256: sha256Hex(replaced), size: 2 }, replaced),
    );
    expect(await t.store.artifactBytes(RUN, entry.name)).toEqual(replaced);
    const stranger = newLeaseToken();
    await expect(
      t.store.append(RUN, stranger, artifactRecorded({ ...entry, name: 'other.bin' }, bytes)),
    ).rejects.toThrow('Lost the execution lease');
    expect(await t.store.artifactBytes(RUN, 'other.bin')).toBeUndefined();
    const written = (await t.store.events(RUN)).filter((e) => e.type === 'ARTIFACT_WRITTEN');
    expect(written.map((e) => e.payload.sha256)).toEqual([sha256Hex(bytes), sha256Hex(replaced)]);
    retireLeaseToken(token);
    retireLeaseToken(stranger);
  });
});

describe.each(DIALECTS)('artifacts (%s)', (dialect) => {
  const t = useStores(dialect);
  const signal = new AbortController().signal;

  it('writes, indexes name/sha256/size/type/worker and emits ARTIFACT_WRITTEN', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    const writer = t.repo.writer(RUN, 'W2', { token, signal });
    const result = await writer.write('drafts/docs/index.md', '# Hello\n');
    expect(result).toEqual({ name: 'drafts/docs/index.md', sha256: sha256Hex('# Hello\n') });
    expect(Buffer.from((await writer.read('drafts/docs/index.md')) ?? []).toString()).toBe('# Hello\n');
    expect(await writer.read('missing.md')).toBeUndefined();
    expect(await t.store.artifacts(RUN)).toEqual([
      expect.objectContaining({
        name: 'drafts/docs/index.md',
        size: 8,
        contentType: 'text/markdown',
        worker: 'W2',
      }),
    ]);
    await writer.write('drafts/docs/index.md', '# Hello again\n');
    expect(await t.store.artifacts(RUN)).toHaveLength(1);
    expect(Buffer.from((await writer.read('drafts/docs/index.md')) ?? []).toString()).toBe('# Hello again\n');
    const written = (await t.store.events(RUN)).filter((e) => e.type === 'ARTIFACT_WRITTEN');
    expect(written.map((e) => e.payload.sha256)).toEqual([
      sha256Hex('# Hello\n'),
      sha256Hex('# Hello again\n'),
    ]);
    retireLeaseToken(token);
  });

  it('a snapshot is the run, its artifact index and its open issues, read together', async () => {
    expect(await t.store.snapshot('run_missing_1')).toBeUndefined();
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    await t.repo.writer(RUN, 'W7', { token, signal }).write('validation_report.json', '{}');
    for (const [from, to] of MAIN_LINE.slice(0, 8).map((state, n) => [state, MAIN_LINE[n + 1]!] as const))
      await t.store.append(RUN, token, transitioned(from, to));
    const issue = (issue_id: string, status: 'OPEN' | 'RESOLVED') => ({
      issue_id,
      gate: 'TruthLock',
      severity: 'blocker' as const,
      error_code: 'UNCITED_CLAIM',
      message: `issue ${issue_id}`,
      location: { path: 'content/docs/index.md', line: 1 },
      status,
      suggested_fix: null,
    });
    const report = {
      schema_version: '1.0',
      ok: false,
      profile: 'ci',
      gates: [],
      issues: [issue('iss_b', 'OPEN'), issue('iss_a', 'RESOLVED'), issue('iss_c', 'OPEN')],
    } as unknown as ValidationReport;
    await t.store.append(RUN, token, validationRecorded(report, { ok: false }));
    const snapshot = await t.store.snapshot(RUN);
    expect(snapshot?.run).toMatchObject({ runId: RUN, state: 'VALIDATING', lastReportOk: false });
    expect(snapshot?.artifacts.map((row) => row.name)).toEqual(['validation_report.json']);
    expect(snapshot?.artifacts[0]).not.toHaveProperty('content');
    expect(snapshot?.openIssues.map((row) => row.issueId)).toEqual(['iss_b', 'iss_c']);
    retireLeaseToken(token);
  });

  it('refuses writes without the lease and after abort, leaving nothing behind', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    const stranger = newLeaseToken();
    await expect(t.repo.writer(RUN, 'W1', { token: stranger, signal }).write('a.json', '{}')).rejects.toThrow(
      'Lost the execution lease',
    );
    const aborted = AbortSignal.abort('cancelled');
    await expect(t.repo.writer(RUN, 'W1', { token, signal: aborted }).write('a.json', '{}')).rejects.toThrow(
      'cancelled',
    );
    expect(await t.repo.list(RUN)).toEqual([]);
    expect(await t.repo.read(RUN, 'a.json')).toBeUndefined();
    expect((await t.store.events(RUN)).map((e) => e.type)).toEqual(['RUN_CREATED']);
    retireLeaseToken(token);
    retireLeaseToken(stranger);
  });

  it('a read whose bytes do not match the indexed sha256 is refused', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    await t.repo.writer(RUN, 'W4', { token, signal }).write('page_plan.json', '{"v":1}');
    await t.setArtifactIndex(sha256Hex('{"v":9}'), 7);
    await expect(t.repo.read(RUN, 'page_plan.json')).rejects.toThrow('does not match its recorded sha256');
    retireLeaseToken(token);
  });
});

describe('artifact files beside SQLite', () => {
  const t = useStores('sqlite');
  const signal = new AbortController().signal;

  it('writes atomically into the run folder, one file per name', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    const writer = t.repo.writer(RUN, 'W2', { token, signal });
    await writer.write('drafts/docs/index.md', '# Hello\n');
    expect(fs.readFileSync(path.join(t.paths.artifactsDir(RUN), 'drafts', 'docs', 'index.md'), 'utf8')).toBe(
      '# Hello\n',
    );
    await writer.write('drafts/docs/index.md', '# Hello again\n');
    expect(fs.readdirSync(path.join(t.paths.artifactsDir(RUN), 'drafts', 'docs'))).toEqual(['index.md']);
    retireLeaseToken(token);
  });

  it('a refused write leaves no file behind', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    const stranger = newLeaseToken();
    await expect(t.repo.writer(RUN, 'W1', { token: stranger, signal }).write('a.json', '{}')).rejects.toThrow(
      'Lost the execution lease',
    );
    expect(fs.existsSync(path.join(t.paths.artifactsDir(RUN), 'a.json'))).toBe(false);
    expect(fs.readdirSync(t.paths.artifactsDir(RUN))).toEqual([]);
    retireLeaseToken(token);
    retireLeaseToken(stranger);
  });

  it('rolls an indexed write forward after a crash between commit and rename, and drops unindexed pending bytes', async () => {
    const token = newLeaseToken();
    await t.store.insert(newRun(RUN, undefined, 'h1', token));
    const writer = t.repo.writer(RUN, 'W4', { token, signal });
    await writer.write('page_plan.json', '{"v":1}');
    // Simulate the crash window: the index says v2, the v2 bytes are still pending, the file is v1.
    const finalFile = path.join(t.paths.artifactsDir(RUN), 'page_plan.json');
    const v2 = '{"v":2}';
    fs.writeFileSync(`${finalFile}.${sha256Hex(v2)}.pending`, v2);
    await t.setArtifactIndex(sha256Hex(v2), 7);
    fs.writeFileSync(`${finalFile}.${sha256Hex('{"v":3}')}.pending`, '{"v":3}');
    const read = await t.repo.read(RUN, 'page_plan.json');
    expect(Buffer.from(read?.bytes ?? []).toString()).toBe(v2);
    expect(await t.repo.reconcile(RUN)).toEqual([]);
    expect(fs.readdirSync(t.paths.artifactsDir(RUN))).toEqual(['page_plan.json']);
    // A corrupted file without pending bytes is reported, never served.
    fs.writeFileSync(finalFile, 'garbage');
    await expect(t.repo.read(RUN, 'page_plan.json')).rejects.toThrow('does not match its recorded sha256');
    retireLeaseToken(token);
  });
});

describe('artifact names', () => {
  it.each([
    ['page_plan.json', undefined],
    ['drafts/docs/getting-started.md', undefined],
    ['fix_iss_0123abcd.json', undefined],
    ['../x', 'must not contain'],
    ['a/../../x', 'must not contain'],
    ['./x', 'must not contain'],
    ['/etc/passwd', 'relative'],
    ['a\\b', 'may only use'],
    ['.env', 'may only use'],
    ['a//b', 'may only use'],
    ['x.json.pending', '.pending'],
    ['', '1..255'],
  ])('artifact name %j → %s', (name, problem) => {
    const found = artifactNameProblem(name);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});

describe.each(DIALECTS)('MCP tasks in the run store (%s)', (dialect) => {
  const t = useStores(dialect);
  const task = (taskId: string, target: NewTask['target'] = 'next-stable-state'): NewTask => ({
    taskId,
    principal: 'local:test',
    tool: 'launch_start_run',
    target,
    ttlMs: 60_000,
    sampling: false,
  });

  it('a task written with the run is read back through the other store, by its principal only', async () => {
    const [a, b] = t.stores;
    const token = newLeaseToken();
    await a.insert({ ...newRun(RUN, undefined, 'h1', token), task: task('task-1') });
    expect(await b.task('task-1', 'local:test')).toMatchObject({
      taskId: 'task-1',
      runId: RUN,
      tool: 'launch_start_run',
      target: 'next-stable-state',
      leaseOwner: token,
      ttlMs: 60_000,
      outcome: null,
    });
    expect(await b.task('task-1', 'local:someone-else')).toBeUndefined();
    expect(await b.task('task-2', 'local:test')).toBeUndefined();
    retireLeaseToken(token);
  });

  it("a replayed idempotency key binds the task to the key's run; a refused insert records no task", async () => {
    const token = newLeaseToken();
    await t.store.insert({ ...newRun(RUN, 'k', 'h1', token), task: task('task-1') });
    const replay = 'r_2026-01-21T10-00-00Z_abcd0002';
    await t.store.insert({ ...newRun(replay, 'k', 'h1'), task: task('task-2') });
    expect(await t.store.task('task-2', 'local:test')).toMatchObject({ runId: RUN, leaseOwner: token });
    const refused = { ...newRun('r_2026-01-21T10-00-00Z_abcd0003'), maxActiveRuns: 1, task: task('task-3') };
    await expect(t.store.insert(refused)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await t.store.task('task-3', 'local:test')).toBeUndefined();
    retireLeaseToken(token);
  });

  it('a task written with a lease names its token; a lease not taken writes none', async () => {
    const [a, b] = t.stores;
    const holder = newLeaseToken();
    await a.insert(newRun(RUN, undefined, 'h1', holder));
    const other = newLeaseToken();
    await a.acquireLease(RUN, other, LEASE_MS, { task: task('busy-task') });
    expect(await b.task('busy-task', 'local:test')).toBeUndefined();
    await a.releaseLease(RUN, holder);
    await a.acquireLease(RUN, other, LEASE_MS, { task: task('resume-task') });
    expect(await b.task('resume-task', 'local:test')).toMatchObject({ runId: RUN, leaseOwner: other });
    for (const token of [holder, other]) retireLeaseToken(token);
  });

  it("a call's task is recorded apart; its first end stays, later ones are ignored", async () => {
    const [a, b] = t.stores;
    const token = newLeaseToken();
    await a.insert(newRun(RUN, undefined, 'h1', token));
    const before = { run: await a.get(RUN), events: await a.events(RUN) };
    await a.append(RUN, null, taskOpened(task('call-task', 'call'), token));
    await b.append(RUN, null, taskEnded('call-task', '{"kind":"output"}'));
    // A task change alone writes no event and leaves the run's row as it was.
    expect({ run: await b.get(RUN), events: await b.events(RUN) }).toEqual(before);
    expect(await b.task('call-task', 'local:test')).toMatchObject({ outcome: '{"kind":"output"}' });
    await a.append(RUN, null, taskEnded('call-task', '{"kind":"refusal"}'));
    expect(await a.task('call-task', 'local:test')).toMatchObject({ outcome: '{"kind":"output"}' });
    // A task change and the run's events are written together or not at all: a task id taken refuses both.
    const moved = transitioned('CREATED', 'CLONED_INPUTS');
    const both = (row: RunRow, nowMs: number) => ({
      ...moved(row, nowMs)!,
      task: { open: task('call-task', 'call'), leaseOwner: token },
    });
    await expect(a.append(RUN, token, both)).rejects.toThrow();
    expect({ run: await b.get(RUN), events: await b.events(RUN) }).toEqual(before);
    expect(await b.task('call-task', 'local:test')).toMatchObject({
      target: 'call',
      outcome: '{"kind":"output"}',
    });
    retireLeaseToken(token);
  });

  it('each task opened deletes a bounded batch of expired tasks, never a live one nor any other row', async () => {
    let nowMs = Date.now();
    const store = t.storeAt(() => nowMs, 0, 2);
    const token = newLeaseToken();
    const withTtl = (taskId: string, ttlMs: number | null): NewTask => ({ ...task(taskId, 'call'), ttlMs });
    await store.insert({ ...newRun(RUN, undefined, 'h1', token), task: withTtl('old-1', 1000) });
    for (const [taskId, ttlMs] of [
      ['old-2', 1000],
      ['old-3', 1000],
      ['old-4', 1000],
      ['kept', null],
      ['at-its-ttl', 1500],
    ] as const)
      await store.append(RUN, null, taskOpened(withTtl(taskId, ttlMs), token));
    await store.append(RUN, token, transitioned('CREATED', 'CLONED_INPUTS'));
    const before = { run: await store.get(RUN), events: await store.events(RUN) };
    const present = async (ids: string[]) => {
      const found = await Promise.all(ids.map((id) => store.task(id, 'local:test')));
      return ids.filter((_, at) => found[at] !== undefined);
    };
    const old = ['old-1', 'old-2', 'old-3', 'old-4'];

    nowMs += 1500;
    // Through each path that opens a task: a call's task (append), a resume's lease, a new run.
    await store.append(RUN, null, taskOpened(withTtl('new-1', 1000), token));
    expect(await present(old)).toHaveLength(2);
    await store.acquireLease(RUN, token, LEASE_MS, { task: withTtl('new-2', 1000) });
    expect(await present(old)).toEqual([]);
    const other = 'r_2026-01-21T10-00-00Z_abcd0002';
    await store.insert({ ...newRun(other), task: withTtl('new-3', 1000) });
    // A task past its ttl by not a millisecond yet is live (the board still answers it); null is never past.
    expect(await present(['kept', 'at-its-ttl', 'new-1', 'new-2', 'new-3'])).toHaveLength(5);
    expect({ run: await store.get(RUN), events: await store.events(RUN) }).toEqual({
      run: { ...before.run, leaseExpiresMs: nowMs + LEASE_MS },
      events: before.events,
    });

    nowMs += 1;
    await store.append(other, null, taskOpened(withTtl('new-4', null), token));
    expect(await present(['kept', 'at-its-ttl', 'new-1', 'new-2', 'new-3', 'new-4'])).toEqual([
      'kept',
      'new-1',
      'new-2',
      'new-3',
      'new-4',
    ]);
    retireLeaseToken(token);
  });

  it("a task's status reads the newest events it needs and the rounds' events, the same as from the whole log", async () => {
    await t.store.insert(newRun());
    const gates = (...failed: string[]) =>
      ['lint', 'site-build'].map((name) => ({ name, ok: !failed.includes(name), skipped: false }));
    const added: [string, Record<string, unknown>][] = [
      ['VALIDATION_RECORDED', { ok: false, gates: gates('lint') }],
      ['STATE_CHANGED', { from: 'VALIDATING', to: 'FIXING', attempt: 1, max_fix_attempts: 5 }],
      ['STATE_CHANGED', { from: 'FIXING', to: 'VALIDATING', reason: 'quotes "to":"FIXING" in a string' }],
      ['STATE_CHANGED', { from: 'VALIDATING', to: 'FIXING', attempt: 2, max_fix_attempts: 5 }],
      ['VALIDATION_RECORDED', { ok: false, gates: gates('site-build') }],
      ['STATE_CHANGED', { from: 'FIXING', to: 'DRAFTING', waiting_for_drafts: ['usage'] }],
      ['STATE_CHANGED', { from: 'VALIDATING', to: 'DRAFTING', waiting_for_drafts: ['intro', 'usage'] }],
      ['WORK_ITEM_FINISHED', { refused_page: 'usage', issues: [] }],
      ['STATE_CHANGED', { from: 'DRAFTING', to: 'FIXINGS', reason: 'no state, but its name starts so' }],
      ...Array.from({ length: 50 }, (_, at): [string, Record<string, unknown>] => [
        'ARTIFACT_WRITTEN',
        { name: `a${at}.json`, sha256: 'x', size: at, worker: 'W5' },
      ]),
    ];
    const [created] = await t.store.events(RUN);
    const inputs = added.map(([type, payload]) => ({ type, payload }) as RunEventInput);
    const tail = { runSeq: created!.seq, eventHash: created!.event_hash };
    for (const row of chainedEventRows(tail, RUN, inputs, undefined, Date.now())) await t.insertEvent(row);
    const log = await t.store.events(RUN);
    const newest = (test: (event: (typeof log)[number]) => boolean) => log.filter(test).at(-1);

    expect(await activityEvents(t.store, RUN)).toEqual({
      validation: newest((event) => event.type === 'VALIDATION_RECORDED'),
      enteredFix: newest((event) => event.type === 'STATE_CHANGED' && event.payload.to === 'FIXING'),
    });
    expect((await activityEvents(t.store, RUN)).enteredFix?.payload.attempt).toBe(2);
    const rounds = await t.store.eventsFrom(RUN, { type: 'STATE_CHANGED', to: 'DRAFTING' });
    const entered = log.filter((event) => event.payload.to === 'DRAFTING').at(-1)!;
    expect(rounds).toEqual(log.slice(log.indexOf(entered)));
    expect(pageRounds(rounds)).toEqual(pageRounds(log));
    expect(pageRounds(rounds)).toEqual([
      { page: 'intro', round: 1, issues: [] },
      { page: 'usage', round: 2, issues: [] },
    ]);
    expect(await t.store.lastEvent(RUN, { type: 'STATE_CHANGED', to: 'READY_FOR_PR' })).toBeUndefined();
    expect(await t.store.eventsFrom(RUN, { type: 'STATE_CHANGED', to: 'DONE' })).toEqual([]);
  });

  it("a run's draft rounds and fixes are read from their own events, the same as from the whole log", async () => {
    await t.store.insert(newRun());
    const unrelated = (count: number) =>
      Array.from({ length: count }, (_, at): RunEventInput => ({
        type: 'ARTIFACT_WRITTEN',
        payload: { name: `a${at}.json`, sha256: 'x', size: at, worker: 'W7' },
      }));
    const intent = (attempt: number) =>
      ({ issue_id: `i${attempt}`, attempt, patch_id: `p${attempt}`, path: 'content/a.md' }) as never;
    const entered = (to: 'FIXING' | 'DRAFTING', extra: Record<string, unknown> = {}): RunEventInput => ({
      type: 'STATE_CHANGED',
      payload: { from: 'VALIDATING', to, ...extra },
    });
    const fixEvents: RunEventInput[] = [
      entered('FIXING', { attempt: 1 }),
      { type: 'FIX_APPLYING', payload: intent(1) },
      { type: 'FIX_APPLIED', payload: { attempt: 1 } },
      entered('FIXING', { attempt: 2 }),
      { type: 'FIX_APPLYING', payload: intent(2) },
    ];
    const draftEvents: RunEventInput[] = [
      entered('DRAFTING', { waiting_for_drafts: ['intro', 'usage'] }),
      {
        type: 'WORK_ITEM_FINISHED',
        payload: { worker: 'W5', name: 'draft', duration_ms: 1, refused_page: 'usage', issues: [] },
      },
    ];
    const inputs = [
      entered('DRAFTING', { waiting_for_drafts: ['old'] }),
      ...fixEvents.flatMap((event) => [...unrelated(40), event]),
      ...unrelated(100),
      ...draftEvents,
    ];
    const [created] = await t.store.events(RUN);
    const tail = { runSeq: created!.seq, eventHash: created!.event_hash };
    for (const row of chainedEventRows(tail, RUN, inputs, undefined, Date.now())) await t.insertEvent(row);
    const log = await t.store.events(RUN);

    // A store that counts the events its reads answer: a reader of the whole log would count all of them.
    let read = 0;
    const counted = <T>(events: T): T => ((read += Array.isArray(events) ? events.length : 1), events);
    const counting = {
      events: async (...args: Parameters<LaunchStore['events']>) => counted(await t.store.events(...args)),
      eventsFrom: async (...args: Parameters<LaunchStore['eventsFrom']>) =>
        counted(await t.store.eventsFrom(...args)),
    };
    expect(await pageRoundsOf(counting, RUN)).toEqual(pageRounds(log));
    expect(await pageRoundsOf(counting, RUN)).toEqual([
      { page: 'intro', round: 1, issues: [] },
      { page: 'usage', round: 2, issues: [] },
    ]);
    expect(read).toBe(2 * draftEvents.length);
    read = 0;
    const history = fixHistory(log);
    expect(history).toEqual({ applied: [intent(1)], pending: intent(2) });
    expect(await fixHistoryOf(counting, RUN)).toEqual(history);
    expect(read).toBe(fixEvents.length);
  });

  it("reads a part of a run's log by event numbers: the range asked, however far past the end", async () => {
    await t.store.insert(newRun());
    const [created] = await t.store.events(RUN);
    const tail = { runSeq: created!.seq, eventHash: created!.event_hash };
    const written = Array.from({ length: 30 }, (_, at): RunEventInput => ({
      type: 'ARTIFACT_WRITTEN',
      payload: { name: `a${at}.json`, sha256: 'x', size: at, worker: 'W7' },
    }));
    for (const row of chainedEventRows(tail, RUN, written, undefined, Date.now())) await t.insertEvent(row);
    const seqs = async (after: number, until?: number) =>
      (await t.store.eventsAfter({ runId: RUN, after, until })).map((event) => event.seq);
    expect(await seqs(0)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(await seqs(10, 14)).toEqual([11, 12, 13, 14]);
    expect(await seqs(29, 100)).toEqual([30, 31]);
    // The largest `after` a resource URI may name (15 digits) reads nothing rather than failing.
    expect(await seqs(999_999_999_999_999, 999_999_999_999_999 + 100)).toEqual([]);
  });

  it("no reader reads a run's whole log: each reads the events it needs, the events resource a part", () => {
    const srcDir = path.join(import.meta.dirname, '..', 'src');
    const readers = fs
      .readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /\.events\(\w+\)/.test(fs.readFileSync(path.join(srcDir, file), 'utf8')));
    expect(readers).toEqual([]);
  });

  it("a task asking for drafts parses a run's brief once while its index names it, for a bounded number of runs", async () => {
    const signal = new AbortController().signal;
    const briefOf = (title: string) =>
      JSON.stringify({
        schema_version: '1.0',
        product: {
          name: 'P',
          slug: 'p',
          package_name: null,
          version: null,
          license: null,
          install_command: null,
          repository_url: null,
        },
        markers: { claim: '<!-- claim_id: ID -->', snippet: '<!-- snippet_id: ID -->' },
        rules: ['Write well.'],
        pages: [
          {
            page_id: 'usage',
            section: 'docs',
            title,
            purpose: 'How to use it.',
            path: 'content/usage/p.md',
            url_path: '/usage/p/',
            sections: [{ heading: null, claim_ids: [], snippet_ids: [] }],
            evidence: [],
            snippets: [],
            links: [],
            must_not_claim: [],
          },
        ],
      });
    const runIds = Array.from(
      { length: 34 },
      (_, at) => `r_2026-01-21T10-00-00Z_b${String(at).padStart(7, '0')}`,
    );
    const tokens = new Map<string, string>();
    for (const runId of runIds) {
      const token = newLeaseToken();
      tokens.set(runId, token);
      await t.store.insert(newRun(runId, undefined, 'h1', token));
      await t.repo
        .writer(runId, 'W5', { token, signal })
        .write('writing_brief.json', briefOf(`Usage ${runId}`));
    }
    const reads: string[] = [];
    const drafts = new TaskDrafts({
      artifacts: { read: (runId, name) => (reads.push(runId), t.repo.read(runId, name)) },
      index: t.store,
      submit: async () => undefined,
      maxTokens: 1024,
      logger: createLogger({ level: 'error', write: () => {} }),
    });
    const waiting = [{ page: 'usage', round: 1, issues: [] }];
    const asked = async (runId: string) => JSON.stringify(await drafts.requests(runId, waiting));
    const [first, last] = [runIds[0]!, runIds.at(-1)!];

    const once = await asked(first);
    expect(once).toContain(`Usage ${first}`);
    expect(await asked(first)).toBe(once);
    expect(reads).toEqual([first]);
    // A brief written again (its index names other bytes) is read again.
    await t.repo
      .writer(first, 'W5', { token: tokens.get(first)!, signal })
      .write('writing_brief.json', briefOf('Again'));
    const again = await asked(first);
    expect(again).toContain('Again');
    expect(again).not.toContain(`Usage ${first}`);
    expect(reads).toEqual([first, first]);
    // 33 other runs asked since: the first run's brief is no longer kept, the latest one's is.
    for (const runId of runIds.slice(1)) await asked(runId);
    reads.length = 0;
    await asked(last);
    await asked(first);
    expect(reads).toEqual([first]);
    for (const token of tokens.values()) retireLeaseToken(token);
  });
});
