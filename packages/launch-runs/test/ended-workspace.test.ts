import fs from 'node:fs';
import path from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { LaunchValidateOutputSchema } from '@switchyard/contracts/launch-runs';
import { createLogger } from '@switchyard/server-kit/runtime';
import { describe, expect, it } from 'vitest';
import type { WorkerContext } from '../src/pipeline/types.js';
import { DIALECTS, startHarnessOn, storageFor } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import {
  atRest,
  cleanedAfterEach,
  type Harness,
  runConfig,
  startAndSettle,
  startHarness,
  waitForStatus,
} from './support/harness.js';

// An ended run (DONE, FAILED, CANCELLED) keeps its record, events and artifacts on disk, not its workspace
// (the clones): removed by whoever ends it, by launch_cancel, and by the sweep when the run store loads.

const cleanup = cleanedAfterEach();
const open = async (...args: Parameters<typeof startHarnessOn>) =>
  cleanup.kept(await startHarnessOn(...args));

const workspaceOf = (h: Harness, runId: string) =>
  path.join(h.dataDir, 'launch-runs', 'runs', runId, 'workspace');

/** Polls until `done()`; the test's own timeout bounds the wait. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Status, an artifact and the events resource still answer for the run. */
async function expectRecordKept(h: Harness, runId: string, artifact: string): Promise<void> {
  expect((await h.call('launch_get_status', { run_id: runId })).structured.ok).toBe(true);
  expect(
    (await h.call('launch_get_artifact', { run_id: runId, artifact_name: artifact })).structured.ok,
  ).toBe(true);
  const events = await h.client.readResource({ uri: `launch://runs/${runId}/events.ndjson` });
  expect(events.contents[0]).toMatchObject({ text: expect.stringContaining('RUN_CREATED') });
}

describe.each(DIALECTS)('the workspace of an ended run (%s)', (dialect) => {
  it('is removed when the run ends DONE; launch_validate rebuilds it for the call and removes it again', async () => {
    const h = await open(dialect, { pipeline: new FakePipeline({ seededProblems: 0 }) });
    const { runId, status } = await startAndSettle(h);
    expect(status.state).toBe('READY_FOR_PR');
    expect(fs.existsSync(workspaceOf(h, runId))).toBe(true);
    expect((await h.call('launch_open_pr', { run_id: runId })).structured.ok).toBe(true);
    expect(fs.existsSync(workspaceOf(h, runId))).toBe(false);
    await expectRecordKept(h, runId, 'page_plan.json');

    const report = LaunchValidateOutputSchema.parse(
      (await h.call('launch_validate', { run_id: runId })).structured,
    );
    expect(report.validation_report.ok).toBe(true);
    expect(fs.existsSync(workspaceOf(h, runId))).toBe(false);
    expect((await waitForStatus(h, runId, atRest)).state).toBe('DONE');
  });

  it('is removed when the run FAILS', async () => {
    const fail = () => new SwitchyardError('validation', 'snippets refused', { code: 'INVALID_INPUT' });
    const h = await open(dialect, { pipeline: new FakePipeline({ fail: { W3: fail } }) });
    const { runId, status } = await startAndSettle(h);
    expect(status.state).toBe('FAILED');
    // The run is FAILED (and at rest) as it is recorded; the work removes the workspace as it lets go.
    await until(() => !fs.existsSync(workspaceOf(h, runId)));
    await expectRecordKept(h, runId, 'repo_inventory.json');
  });

  it('is removed when a resting run is cancelled, and once the work stops when a working one is', async () => {
    const pipeline = new FakePipeline({ seededProblems: 1 });
    const h = await open(dialect, { pipeline });
    const { runId: resting } = await startAndSettle(h);
    expect(fs.existsSync(workspaceOf(h, resting))).toBe(true);
    await h.call('launch_cancel', { run_id: resting });
    expect(fs.existsSync(workspaceOf(h, resting))).toBe(false);
    await expectRecordKept(h, resting, 'validation_report.json');

    const held = pipeline.hold('W4');
    const working = (await h.call('launch_start_run', { run_config: runConfig() })).structured
      .run_id as string;
    await held.reached;
    expect(fs.existsSync(workspaceOf(h, working))).toBe(true);
    await h.call('launch_cancel', { run_id: working });
    expect(await held.aborted).toBe('cancelled');
    // The run is CANCELLED at once; the aborted work removes the workspace as it lets go of the run.
    await until(() => !fs.existsSync(workspaceOf(h, working)));
    await expectRecordKept(h, working, 'product_facts.json');
  });

  it('is kept while the run has not ended, validated or not', async () => {
    const h = await open(dialect, { pipeline: new FakePipeline({ seededProblems: 1 }) });
    const { runId, status } = await startAndSettle(h);
    expect(status.state).toBe('VALIDATING');
    expect((await h.call('launch_validate', { run_id: runId })).structured.ok).toBe(true);
    expect(fs.existsSync(path.join(workspaceOf(h, runId), 'site'))).toBe(true);
  });

  it('left on disk by an ended run is removed when the run store loads; an unfinished run keeps its own', async () => {
    const dataDir = cleanup.folder('ended');
    const storage = await storageFor(dialect);
    const options = { ...storage, dataDir, pipeline: new FakePipeline({ seededProblems: 1 }) };
    const first = await startHarness(options);
    const { runId: unfinished } = await startAndSettle(first);
    const { runId: cancelled } = await startAndSettle(first);
    await first.call('launch_cancel', { run_id: cancelled });
    const { runId: done } = await startAndSettle(first);
    await first.call('launch_fix_next', { run_id: done });
    expect((await first.call('launch_open_pr', { run_id: done })).structured.ok).toBe(true);
    await first.close();
    // What a process that died as its run ended (or a cancel from another replica) leaves behind.
    for (const ended of [cancelled, done])
      fs.mkdirSync(path.join(workspaceOf(first, ended), 'site'), { recursive: true });

    const second = cleanup.kept(await startHarness(options));
    expect((await second.call('launch_list_runs', {})).structured.runs).toHaveLength(3);
    expect(fs.existsSync(workspaceOf(second, cancelled))).toBe(false);
    expect(fs.existsSync(workspaceOf(second, done))).toBe(false);
    expect(fs.existsSync(path.join(workspaceOf(second, unfinished), 'site'))).toBe(true);
    // Replicas keep an ended run's artifacts in the database: its whole folder goes, so that the takeover
    // tick's sweep walks only the folders of runs under way. One data directory keeps the artifacts' files.
    for (const ended of [cancelled, done])
      expect(fs.existsSync(path.dirname(workspaceOf(second, ended)))).toBe(dialect === 'sqlite');
    await expectRecordKept(second, cancelled, 'validation_report.json');
  });
});

/** A pipeline whose W4 of the next run waits for `release()` deaf to its signal: work slow to stop (a git child). */
class SlowToStopPipeline extends FakePipeline {
  private gate: { arrive: () => void; wait: Promise<void> } | undefined;

  /** The next W4 waits; `reached` resolves when it does. */
  holdDeaf(): { reached: Promise<void>; release: () => void } {
    let arrive!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => (arrive = resolve));
    this.gate = { arrive, wait: new Promise<void>((resolve) => (release = resolve)) };
    return { reached, release };
  }

  override async planPages(ctx: WorkerContext) {
    const gate = this.gate;
    this.gate = undefined;
    if (gate !== undefined) {
      gate.arrive();
      await gate.wait;
    }
    return super.planPages(ctx);
  }
}

describe('the workspace of a run another replica ended (postgres)', () => {
  it('goes on the next takeover tick, not at the next start; one local work still holds is left to it', async () => {
    const storage = await storageFor('postgres');
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', write: (line) => lines.push(line) });
    const pipeline = new SlowToStopPipeline({ seededProblems: 1 });
    const here = cleanup.kept(
      await startHarness({ ...storage, pipeline, logger, config: { takeoverMs: 100 } }),
    );
    const there = cleanup.kept(await startHarness({ ...storage, pipeline: new FakePipeline() }));
    const { runId: resting } = await startAndSettle(here);
    const deaf = pipeline.holdDeaf();
    let working = '';
    try {
      working = (await here.call('launch_start_run', { run_config: runConfig() })).structured
        .run_id as string;
      await deaf.reached;
      for (const runId of [working, resting])
        expect((await there.call('launch_cancel', { run_id: runId })).structured).toMatchObject({ ok: true });
      // A sweep that removed `resting` read every workspace on this replica after both cancels.
      const sweptResting = (line: string) =>
        line.includes('removed the workspaces of ended runs') && line.includes(resting);
      await until(() => lines.some(sweptResting));
      expect(fs.existsSync(path.dirname(workspaceOf(here, resting)))).toBe(false);
      expect(lines.find(sweptResting)).not.toContain(working);
      expect(fs.existsSync(workspaceOf(here, working))).toBe(true);
    } finally {
      // The aborted work goes on, and removes its workspace as it lets go of the run.
      deaf.release();
    }
    await until(() => !fs.existsSync(path.dirname(workspaceOf(here, working))));
    await expectRecordKept(here, resting, 'validation_report.json');
  });
});
