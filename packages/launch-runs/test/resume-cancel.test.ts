import {
  LaunchCancelOutputSchema,
  LaunchOpenPrOutputSchema,
  LaunchResumeOutputSchema,
  RunStatusSchema,
} from '@switchyard/contracts/launch-runs';
import { errorOf } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { FakePipeline } from './support/fake-pipeline.js';
import {
  atRest,
  cleanedAfterEach,
  runConfig,
  startAndSettle,
  startHarness,
  waitForStatus,
  type Harness,
} from './support/harness.js';
import { openLaunchDatabase } from '../src/db/open.js';
import { verifyEventChain } from '../src/store/event-chain.js';

const cleanup = cleanedAfterEach();
const harness = async (options: Parameters<typeof startHarness>[0]) =>
  cleanup.kept(await startHarness(options));
const dataDir = () => cleanup.folder('resume');

type Status = {
  state: string;
  details: Record<string, unknown>;
  artifacts: { name: string; sha256: string }[];
};
const statusOf = async (h: Harness, runId: string) =>
  (await h.call('launch_get_status', { run_id: runId })).structured.status as Status;

/** Starts a run, stops the server while `worker` runs, and returns a fresh server on the same data. */
async function interruptedAt(worker: 'W2' | 'W5' | 'W8', options: { seededProblems?: number } = {}) {
  const dir = dataDir();
  const firstPipeline = new FakePipeline(options);
  const first = await harness({ pipeline: firstPipeline, dataDir: dir });
  let runId: string;
  if (worker === 'W8') {
    ({ runId } = await startAndSettle(first));
    const held = firstPipeline.hold('W8');
    const fix = first.call('launch_fix_next', { run_id: runId });
    await held.reached;
    await first.state.close();
    await fix;
  } else {
    const held = firstPipeline.hold(worker);
    runId = (await first.call('launch_start_run', { run_config: runConfig() })).structured.run_id as string;
    await held.reached;
    await first.state.close();
  }
  const pipeline = new FakePipeline(options);
  const second = await harness({ pipeline, dataDir: dir });
  return { runId, second, pipeline };
}

describe('interruption and launch_resume', () => {
  it('a run left mid-step is reported interrupted after a restart, then resumed from its last stable state', async () => {
    const { runId, second, pipeline } = await interruptedAt('W5');
    expect(await second.state.interruptedAtStartup()).toEqual([runId]);
    const status = await statusOf(second, runId);
    expect(status.state).toBe('DRAFTING');
    expect(status.details).toMatchObject({ interrupted: true, busy: false, active_worker: 'W5' });
    const before = status.artifacts;

    const resumed = LaunchResumeOutputSchema.parse(
      (await second.call('launch_resume', { run_id: runId })).structured,
    );
    expect(resumed.status.state).toBe('DRAFT_READY');
    expect(resumed.status.details).toMatchObject({ interrupted: false, active_worker: null });
    expect(pipeline.calls).toEqual(['W5']);
    const events = await (await second.state.runs()).events(runId);
    expect(events.map((e) => e.type)).toContain('RUN_INTERRUPTED');
    expect(events.find((e) => e.type === 'RUN_REWOUND')?.payload).toEqual({
      from: 'DRAFTING',
      to: 'PLAN_READY',
    });
    // Artifacts written before the interruption are still indexed, unchanged.
    for (const artifact of before) expect(resumed.status.artifacts).toContainEqual(artifact);

    const next = LaunchResumeOutputSchema.parse(
      (await second.call('launch_resume', { run_id: runId })).structured,
    );
    expect(next.status.state).toBe('VALIDATING');
    expect(pipeline.calls).toEqual(['W5', 'W6', 'W7']);
    expect(verifyEventChain(await (await second.state.runs()).events(runId)).ok).toBe(true);
  });

  it('reports progress per step to a client that sent a progress token', async () => {
    const { runId, second } = await interruptedAt('W5');
    const progress: { progress: number; total?: number; message?: string }[] = [];
    await second.client.callTool(
      { name: 'launch_resume', arguments: { run_id: runId } },
      {
        onprogress: (update) => progress.push(update),
      },
    );
    expect(progress).toEqual([{ progress: 5, total: 7, message: 'W5 draft done: DRAFT_READY' }]);
  });

  it('a run interrupted before any stable state restarts from CREATED and stops at PLAN_READY', async () => {
    const { runId, second, pipeline } = await interruptedAt('W2');
    expect((await statusOf(second, runId)).details.interrupted).toBe(true);
    const resumed = LaunchResumeOutputSchema.parse(
      (await second.call('launch_resume', { run_id: runId })).structured,
    );
    expect(resumed.status.state).toBe('PLAN_READY');
    expect(pipeline.calls).toEqual(['W1', 'W2', 'W3', 'W4']);
    const names = resumed.status.artifacts.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('a fix interrupted mid-way rewinds to VALIDATING and re-validates the worktree', async () => {
    const { runId, second, pipeline } = await interruptedAt('W8', { seededProblems: 2 });
    const status = await statusOf(second, runId);
    // Stopped before it wrote anything: the attempt does not count.
    expect(status).toMatchObject({ state: 'FIXING', details: { interrupted: true, fix_attempts: 0 } });
    const resumed = LaunchResumeOutputSchema.parse(
      (await second.call('launch_resume', { run_id: runId })).structured,
    );
    expect(resumed.status.state).toBe('VALIDATING');
    expect(pipeline.calls).toEqual(['W7']);
    expect((await second.call('launch_fix_next', { run_id: runId })).structured.ok).toBe(true);
    expect((await statusOf(second, runId)).details.fix_attempts).toBe(1);
  });

  it('resuming a run resting in VALIDATING or READY_FOR_PR does no work and returns its status', async () => {
    const pipeline = new FakePipeline({ seededProblems: 1 });
    const h = await harness({ pipeline });
    const { runId } = await startAndSettle(h);
    const resumed = LaunchResumeOutputSchema.parse(
      (await h.call('launch_resume', { run_id: runId })).structured,
    );
    expect(RunStatusSchema.parse(resumed.status).state).toBe('VALIDATING');
    expect(pipeline.calls).toHaveLength(7);
  });

  it('a run stopped between opening its PR and DONE is finished by resume, without a second PR', async () => {
    const dir = dataDir();
    const first = await harness({ pipeline: new FakePipeline({ seededProblems: 0 }), dataDir: dir });
    const { runId } = await startAndSettle(first);
    const { pr_url } = LaunchOpenPrOutputSchema.parse(
      (await first.call('launch_open_pr', { run_id: runId })).structured,
    );
    await first.state.close();
    // The row as a process that died right after PR_OPENED leaves it: its step to DONE never ran.
    const database = openLaunchDatabase(dir);
    const done = database.sqlite
      .prepare('SELECT section_states FROM runs WHERE run_id = ?')
      .pluck()
      .get(runId);
    const sections = Object.fromEntries(
      Object.keys(JSON.parse(done as string)).map((name) => [name, 'DRAFTED']),
    );
    database.sqlite
      .prepare(`UPDATE runs SET state = 'PR_OPENED', finished_at = NULL, section_states = ? WHERE run_id = ?`)
      .run(JSON.stringify(sections), runId);
    database.sqlite.close();

    const pipeline = new FakePipeline({ seededProblems: 0 });
    const second = await harness({ pipeline, dataDir: dir });
    const resumed = LaunchResumeOutputSchema.parse(
      (await second.call('launch_resume', { run_id: runId })).structured,
    );
    expect(resumed.status.state).toBe('DONE');
    expect(new Set(Object.values(resumed.status.section_states))).toEqual(new Set(['DONE']));
    expect(resumed.status.details?.pr).toMatchObject({ pr_url });
    expect(pipeline.calls).toEqual([]);
  });

  it('a step that outlasts the lease keeps it: renewed while the worker runs, the run stays busy', async () => {
    const pipeline = new FakePipeline({ seededProblems: 0 });
    const held = pipeline.hold('W3');
    const h = await harness({ pipeline, leaseMs: 1000 });
    const runId = (await h.call('launch_start_run', { run_config: runConfig() })).structured.run_id as string;
    await held.reached;
    // Three lease lengths: without renewal the lease would have expired and the run be free to take.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await statusOf(h, runId)).details).toMatchObject({ busy: true, interrupted: false });
    const busy = errorOf(await h.call('launch_resume', { run_id: runId }), 'ILLEGAL_STATE');
    expect(busy.details).toMatchObject({ current_state: 'INGESTED', reason: 'run_busy' });
    held.release();
    expect((await waitForStatus(h, runId, atRest)).state).toBe('READY_FOR_PR');
  });

  it('resume while the run is being worked on is ILLEGAL_STATE retryable; on a finished run ILLEGAL_STATE', async () => {
    const pipeline = new FakePipeline({ seededProblems: 0 });
    const held = pipeline.hold('W3');
    const h = await harness({ pipeline });
    const runId = (await h.call('launch_start_run', { run_config: runConfig() })).structured.run_id as string;
    await held.reached;
    const busy = errorOf(await h.call('launch_resume', { run_id: runId }), 'ILLEGAL_STATE');
    expect(busy.retryable).toBe(true);
    expect(busy.details).toMatchObject({ current_state: 'INGESTED', reason: 'run_busy' });
    held.release();
    await waitForStatus(h, runId, atRest);
    await h.call('launch_open_pr', { run_id: runId });
    const done = errorOf(await h.call('launch_resume', { run_id: runId }), 'ILLEGAL_STATE');
    expect(done.retryable).toBe(false);
    expect(done.details).toMatchObject({ current_state: 'DONE', required_state: 'a non-terminal state' });
  });
});

describe('launch_cancel', () => {
  it('aborts the background work, sets CANCELLED, keeps the artifacts; later mutating calls answer CANCELLED', async () => {
    const pipeline = new FakePipeline();
    const held = pipeline.hold('W4');
    const h = await harness({ pipeline });
    const runId = (await h.call('launch_start_run', { run_config: runConfig() })).structured.run_id as string;
    await held.reached;
    const before = (await statusOf(h, runId)).artifacts;
    expect(before.map((a) => a.name)).toContain('product_facts.json');

    const cancelled = (await h.call('launch_cancel', { run_id: runId })).structured;
    expect(LaunchCancelOutputSchema.parse(cancelled)).toEqual({
      ok: true,
      run_id: runId,
      cancelled: true,
      state: 'CANCELLED',
    });
    // The held worker saw its signal abort (it never finished on its own: it was never released), and
    // before launch_cancel answered: local work is stopped by the cancel, not at the lease watcher's next tick.
    expect(await Promise.race([held.aborted, Promise.resolve('not aborted yet')])).toBe('cancelled');
    const status = await waitForStatus(h, runId, atRest);
    expect(status.state).toBe('CANCELLED');
    expect(status.artifacts).toEqual(before);
    expect(pipeline.calls).toEqual(['W1', 'W2', 'W3', 'W4']);
    const lastTransition = (await (await h.state.runs()).events(runId))
      .filter((e) => e.type === 'STATE_CHANGED')
      .at(-1);
    expect(lastTransition?.payload).toMatchObject({ from: 'FACTS_READY', to: 'CANCELLED' });
    expect((await (await h.state.runs()).events(runId)).at(-1)).toMatchObject({
      type: 'WORK_ITEM_FAILED',
      payload: { worker: 'W4', code: 'CANCELLED' },
    });

    expect((await h.call('launch_cancel', { run_id: runId })).structured).toEqual(cancelled);
    for (const tool of ['launch_validate', 'launch_fix_next', 'launch_resume', 'launch_open_pr']) {
      const error = errorOf(await h.call(tool, { run_id: runId }), 'CANCELLED');
      expect(error.retryable).toBe(false);
    }
    expect(
      (await h.call('launch_get_artifact', { run_id: runId, artifact_name: 'product_facts.json' })).structured
        .ok,
    ).toBe(true);
    expect(
      (await h.call('launch_list_runs', { filter: { state: 'CANCELLED' } })).structured.runs,
    ).toHaveLength(1);
    expect(verifyEventChain(await (await h.state.runs()).events(runId)).ok).toBe(true);
  });

  it('cancels a run resting in VALIDATING; a finished run cannot be cancelled; unknown runs are RUN_NOT_FOUND', async () => {
    const h = await harness({ pipeline: new FakePipeline({ seededProblems: 1 }) });
    const { runId } = await startAndSettle(h);
    expect((await h.call('launch_cancel', { run_id: runId })).structured.state).toBe('CANCELLED');
    const other = await startAndSettle(h, runConfig({ product_slug: 'other-product' }));
    await h.call('launch_fix_next', { run_id: other.runId });
    await h.call('launch_open_pr', { run_id: other.runId });
    const error = errorOf(await h.call('launch_cancel', { run_id: other.runId }), 'ILLEGAL_STATE');
    expect(error.details).toMatchObject({ current_state: 'DONE' });
    errorOf(await h.call('launch_cancel', { run_id: 'r_2026-01-01T00-00-00Z_00000000' }), 'RUN_NOT_FOUND');
  });
});
