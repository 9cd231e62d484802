import fs from 'node:fs';
import Database from 'better-sqlite3';
import { LaunchErrorPayloadSchema, RUN_STATES, type RunState } from '@switchyard/contracts/launch-runs';
import { createLogger } from '@switchyard/server-kit/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openLaunchDatabase } from '../src/db/open.js';
import { hasRunsToRecover, leftMidStep, UNMARKED_LEFT_MID_STEP_SQL } from '../src/runs/model/interrupted.js';
import { isStable, isTerminal, isTransitional } from '../src/runs/model/state-machine.js';
import { FakePipeline } from './support/fake-pipeline.js';
import { runConfig, startHarness, tempDir, type Harness } from './support/harness.js';

const open: Harness[] = [];
const dirs: string[] = [];
const closers: (() => void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  for (const h of open.splice(0)) await h.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = tempDir('lazy-store');
  dirs.push(dir);
  return dir;
}

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'warn',
    write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, lines };
}

/** A data directory holding one run a server stopped while W5 was drafting (left mid-step). */
async function dataDirWithInterruptedRun(): Promise<{ dir: string; runId: string }> {
  const dir = dataDir();
  const pipeline = new FakePipeline();
  const first = await startHarness({ pipeline, dataDir: dir });
  try {
    const held = pipeline.hold('W5');
    const runId = (await first.call('launch_start_run', { run_config: runConfig() })).structured
      .run_id as string;
    await held.reached;
    await first.state.close();
    return { dir, runId };
  } finally {
    await first.close();
  }
}

describe('the start-up recovery check (raw SQL, before the run store loads)', () => {
  type Row = {
    state: RunState;
    activeWorker?: string;
    lastError?: string;
    interruptedAt?: string;
    lastStableState?: RunState;
  };
  let n = 0;
  function withRun(row: Row): boolean {
    const dir = dataDir();
    const { sqlite } = openLaunchDatabase(dir);
    try {
      n += 1;
      sqlite
        .prepare(
          `INSERT INTO runs (run_id, product_slug, config, config_hash, state, section_states, active_worker,
             last_error, interrupted_at, last_stable_state, created_at, created_ms, updated_at)
           VALUES (?, 'p', '{}', 'h', ?, '{}', ?, ?, ?, ?, '2026-01-01T00:00:00.000Z', ?, '2026-01-01T00:00:00.000Z')`,
        )
        .run(
          `run_check_${n}`,
          row.state,
          row.activeWorker ?? null,
          row.lastError ?? null,
          row.interruptedAt ?? null,
          row.lastStableState ?? null,
          n,
        );
      return hasRunsToRecover(sqlite);
    } finally {
      sqlite.close();
    }
  }

  it('an empty database has nothing to recover', () => {
    const { sqlite } = openLaunchDatabase(dataDir());
    expect(hasRunsToRecover(sqlite)).toBe(false);
    sqlite.close();
  });

  it('a run left in a transitional state has, one at rest or finished has not', () => {
    for (const state of RUN_STATES) {
      expect(withRun({ state }), state).toBe(isTransitional(state));
    }
  });

  it('a model-drafting run resting in DRAFTING (its last stable state) has not, unless a worker was running', () => {
    expect(withRun({ state: 'DRAFTING', lastStableState: 'PLAN_READY' })).toBe(true);
    expect(withRun({ state: 'DRAFTING', lastStableState: 'DRAFTING' })).toBe(false);
    expect(withRun({ state: 'DRAFTING', lastStableState: 'DRAFTING', activeWorker: 'W5' })).toBe(true);
  });

  it('a stable state with a worker recorded (a fix or PR step in flight) has', () => {
    const stable = RUN_STATES.filter((state) => isStable(state) && !isTerminal(state));
    expect(stable.length).toBeGreaterThan(0);
    for (const state of stable) expect(withRun({ state, activeWorker: 'W8' }), state).toBe(true);
    expect(withRun({ state: 'DONE', activeWorker: 'W9' })).toBe(false);
  });

  it('a run already marked interrupted, or halted by an error, has not', () => {
    expect(withRun({ state: 'DRAFTING', interruptedAt: '2026-01-01T00:00:00.000Z' })).toBe(false);
    expect(withRun({ state: 'DRAFTING', lastError: '{"code":"INTERNAL"}' })).toBe(false);
  });

  it("selects exactly the runs the model's leftMidStep holds for and not marked yet, in every combination", () => {
    const { sqlite } = openLaunchDatabase(dataDir());
    try {
      const rows = RUN_STATES.flatMap((state) =>
        [null, 'W5'].flatMap((activeWorker) =>
          [null, '{"code":"INTERNAL"}'].flatMap((lastError) =>
            [null, '2026-01-01T00:00:00.000Z'].flatMap((interruptedAt) =>
              [null, state].map((lastStableState) => ({
                runId: `run_${state}_${activeWorker}_${lastError === null}_${interruptedAt === null}_${lastStableState === null}`,
                state,
                activeWorker,
                lastError,
                interruptedAt,
                lastStableState,
              })),
            ),
          ),
        ),
      );
      const insert = sqlite.prepare(
        `INSERT INTO runs (run_id, product_slug, config, config_hash, state, section_states, active_worker,
           last_error, interrupted_at, last_stable_state, created_at, created_ms, updated_at)
         VALUES (?, 'p', '{}', 'h', ?, '{}', ?, ?, ?, ?, '2026-01-01T00:00:00.000Z', ?, '2026-01-01T00:00:00.000Z')`,
      );
      rows.forEach((row, i) =>
        insert.run(
          row.runId,
          row.state,
          row.activeWorker,
          row.lastError,
          row.interruptedAt,
          row.lastStableState,
          i,
        ),
      );
      const selected = sqlite
        .prepare(`SELECT run_id FROM runs WHERE ${UNMARKED_LEFT_MID_STEP_SQL.where} ORDER BY created_ms`)
        .all(...UNMARKED_LEFT_MID_STEP_SQL.params)
        .map((found) => (found as { run_id: string }).run_id);
      const expected = rows
        .filter((row) => leftMidStep(row) && row.interruptedAt === null)
        .map((row) => row.runId);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(rows.length / 2);
      expect(selected).toEqual(expected);
    } finally {
      sqlite.close();
    }
  });
});

describe('the lazily loaded run store', () => {
  it('recovers interrupted runs at start, before any call, when the database holds one', async () => {
    const { dir, runId } = await dataDirWithInterruptedRun();
    const { logger, lines } = capturingLogger();
    const h = await startHarness({ pipeline: new FakePipeline(), dataDir: dir, logger });
    open.push(h);
    await vi.waitFor(
      () =>
        expect(lines).toContainEqual(
          expect.objectContaining({
            level: 'warn',
            msg: expect.stringContaining('interrupted'),
            runs: [runId],
          }),
        ),
      { timeout: 30_000 },
    );
    // The sweep ran once, at start: the first call sees the run marked, with one RUN_INTERRUPTED event.
    const status = (await h.call('launch_get_status', { run_id: runId })).structured.status as {
      details: Record<string, unknown>;
    };
    expect(status.details.interrupted).toBe(true);
    expect(await h.state.interruptedAtStartup()).toEqual([runId]);
    const events = await (await h.state.runs()).events(runId);
    expect(events.filter((event) => event.type === 'RUN_INTERRUPTED')).toHaveLength(1);
  });

  it('a store that cannot be opened answers INTERNAL (retryable, cause_class) and the next call loads it', async () => {
    const { dir, runId } = await dataDirWithInterruptedRun();
    // The sweep's write fails for real: the event log's table is missing (as if mid-repair).
    const other = new Database(`${dir}/launch-runs.sqlite`);
    closers.push(() => other.close());
    other.exec('ALTER TABLE events RENAME TO events_aside');
    const { logger, lines } = capturingLogger();
    const h = await startHarness({ pipeline: new FakePipeline(), dataDir: dir, logger });
    open.push(h);
    // The recovery started at start fails: logged as a warning, the server keeps serving.
    await vi.waitFor(
      () =>
        expect(lines).toContainEqual(
          expect.objectContaining({ level: 'warn', msg: expect.stringContaining('next call retries') }),
        ),
      { timeout: 30_000 },
    );
    expect(await h.state.ready()).toBe(true);

    const failed = LaunchErrorPayloadSchema.parse(
      (await h.call('launch_get_status', { run_id: runId })).structured,
    );
    expect(failed).toMatchObject({
      ok: false,
      run_id: runId,
      error: {
        code: 'INTERNAL',
        retryable: true,
        details: { reason: 'store_unavailable', cause_class: 'SqliteError' },
      },
    });
    expect(failed.error.message).toContain('no such table: events');
    await expect(h.state.runs()).rejects.toMatchObject({ kind: 'internal' });
    await expect(h.client.listResources()).rejects.toThrow(
      /INTERNAL: The launch run store could not be loaded/,
    );

    other.exec('ALTER TABLE events_aside RENAME TO events');
    other.close();
    const status = (await h.call('launch_get_status', { run_id: runId })).structured.status as {
      details: Record<string, unknown>;
    };
    expect(status.details.interrupted).toBe(true);
    expect(await h.state.interruptedAtStartup()).toEqual([runId]);
  });
});
