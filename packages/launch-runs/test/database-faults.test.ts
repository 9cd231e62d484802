// PostgreSQL's connection failing under the launch tools (issue #34): cut mid-query, mid-transaction and
// mid-COMMIT by a real TCP proxy, stalled, and PostgreSQL restarted while calls are in flight. Each call
// answers or says the database is unreachable (INTERNAL, retryable); nothing ends the process (an uncaught
// error would fail this file); the pool recovers by itself and ready() follows the database.
import { resolvePostgresSettings } from '@switchyard/server-kit/runtime';
import type { ToolAnswer } from '@switchyard/server-kit/testing';
import { startFaultyTestPostgres, untilTrue, type FaultyTestPostgres } from '@switchyard/test-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL_VARIABLE } from '../src/db/open.js';
import { FakePipeline } from './support/fake-pipeline.js';
import { cleanedAfterEach, runConfig, startHarness, type Harness } from './support/harness.js';

const UNREACHABLE = {
  ok: false,
  error: {
    code: 'INTERNAL',
    message: 'The launch runs database is unreachable; retry the call',
    retryable: true,
    details: { reason: 'database_unreachable', cause_class: 'DatabaseUnreachable' },
  },
};

let db: FaultyTestPostgres;
beforeAll(async () => {
  db = await startFaultyTestPostgres();
});
afterAll(async () => db?.stop());
const cleanup = cleanedAfterEach();

/**
 * Runs on a new database through the proxy (bounds: `serverEnv`). Only the calls under test reach the
 * database when a fault is armed: no takeover ticks or lease renewals, and the look for abandoned runs the
 * store makes as it opens is over (one connection, which it took first).
 */
async function start(pipeline = new FakePipeline()): Promise<Harness> {
  const env = { ...(await db.serverEnv(DATABASE_URL_VARIABLE)), SWITCHYARD_DATABASE_POOL_MAX: '1' };
  const h = cleanup.kept(
    await startHarness({
      pipeline,
      database: resolvePostgresSettings(env, DATABASE_URL_VARIABLE)!,
      config: { takeoverMs: 3_600_000, leaseMs: 3_600_000 },
    }),
  );
  await h.state.runs();
  expect((await h.call('launch_list_runs', {})).structured).toMatchObject({ ok: true });
  return h;
}

/** Each answer of `answers`: a success, or INTERNAL saying the database is unreachable. */
function expectServedOrUnreachable(answers: ToolAnswer[]): number {
  const failed = answers.filter((answer) => answer.structured.ok === false);
  for (const answer of failed) expect(answer.structured).toEqual(UNREACHABLE);
  return failed.length;
}

describe('launch runs when the connection to PostgreSQL fails', () => {
  it('a cut mid-query, mid-transaction or mid-COMMIT answers INTERNAL "database is unreachable", retryable', async () => {
    const pipeline = new FakePipeline();
    const h = await start(pipeline);
    const listed = db.proxy.dropOnNextAnswer();
    expect((await h.call('launch_list_runs', {})).structured).toEqual(UNREACHABLE);
    await listed;

    // Cut while the new run's insert holds its lock: rolled back, and the same call again starts it.
    const one = { run_config: runConfig(), idempotency_key: 'one' };
    const inserting = db.proxy.dropAfterQuery('pg_advisory_xact_lock');
    expect((await h.call('launch_start_run', one)).structured).toEqual(UNREACHABLE);
    await inserting;
    expect((await h.call('launch_list_runs', {})).structured).toMatchObject({ ok: true, runs: [] });
    const held = pipeline.hold('W1');
    const started = (await h.call('launch_start_run', one)).structured;
    expect(started).toMatchObject({ ok: true });
    await held.reached;

    // Cut at the cancel's COMMIT: it reached PostgreSQL, so the run is cancelled though the call was not told.
    const runId = started.run_id as string;
    const committing = db.proxy.dropAfterCommit();
    expect((await h.call('launch_cancel', { run_id: runId })).structured).toEqual({
      ...UNREACHABLE,
      run_id: runId,
    });
    await committing;
    held.release();
    expect((await h.call('launch_get_status', { run_id: runId })).structured).toMatchObject({
      ok: true,
      status: { state: 'CANCELLED' },
    });
  });

  it('40 starts, lists and status reads in flight when every connection is cut: each is served or unreachable', async () => {
    const h = await start(new FakePipeline({ writeArtifacts: false }));
    const inserting = db.proxy.dropAfterQuery('pg_advisory_xact_lock');
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? h.call('launch_start_run', { run_config: runConfig(), idempotency_key: `key ${i}` })
        : h.call('launch_list_runs', {}),
    );
    await inserting;
    db.proxy.dropAll();
    expect(expectServedOrUnreachable(await Promise.all(calls))).toBeGreaterThan(0);
    expect((await h.call('launch_list_runs', {})).structured).toMatchObject({ ok: true });
    expect(await h.state.ready()).toBe(true);
  });

  it('a stalled connection answers unreachable after the query timeout; not ready meanwhile, ready after', async () => {
    const h = await start();
    db.proxy.stall();
    try {
      expect((await h.call('launch_list_runs', {})).structured).toEqual(UNREACHABLE);
      expect(await h.state.ready()).toBe(false);
    } finally {
      db.proxy.resume();
    }
    await untilTrue(() => h.state.ready());
    expect((await h.call('launch_list_runs', {})).structured).toMatchObject({ ok: true });
  });

  it('PostgreSQL restarted under load: calls in flight and while it is down are unreachable; then served', async () => {
    const h = await start(new FakePipeline({ writeArtifacts: false }));
    // The calls reach the proxy and wait there while PostgreSQL stops: each is in flight at the restart.
    db.proxy.stall();
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? h.call('launch_start_run', { run_config: runConfig(), idempotency_key: `restart ${i}` })
        : h.call('launch_list_runs', {}),
    );
    await db.halt();
    db.proxy.resume();
    try {
      expect(expectServedOrUnreachable(await Promise.all(inFlight))).toBeGreaterThan(0);
      expect(await h.state.ready()).toBe(false);
      expect((await h.call('launch_list_runs', {})).structured).toEqual(UNREACHABLE);
    } finally {
      await db.start();
    }
    await untilTrue(() => h.state.ready());
    expect(
      (await h.call('launch_start_run', { run_config: runConfig(), idempotency_key: 'after' })).structured,
    ).toMatchObject({
      ok: true,
    });
  });
});
