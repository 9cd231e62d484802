import { SwitchyardError } from '@switchyard/contracts/errors';
import { TaskStarted } from '@switchyard/server-kit';
import { registerSecret } from '@switchyard/resilience';
import { describe, expect, it } from 'vitest';
import type { RunRow } from '../src/db/schema.js';
import { RELEASED_LEASE } from '../src/runs/model/events.js';
import { newLeaseToken, retireLeaseToken } from '../src/runs/model/lease.js';
import { runActivity } from '../src/tasks/task-activity.js';
import { taskProgress } from '../src/tasks/task-progress.js';
import type { RunEvent } from '../src/store/event-chain.js';
import { newRunValues } from '../src/store/run-changes.js';
import { fixNextTool } from '../src/tools/fix-next.js';
import { openPrTool } from '../src/tools/open-pr.js';
import { resumeTool } from '../src/tools/resume.js';
import { startRunTool } from '../src/tools/start-run.js';
import { validateTool } from '../src/tools/validate.js';
import { DIALECTS, storageFor, type Dialect } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import { cleanedAfterEach, runConfig, startHarness, type Harness } from './support/harness.js';
import { boardOf, callHandler, OWNER, ref, settled } from './support/task-calls.js';

// The launch tools' MCP tasks (issue #36) on both databases: a tool called with `call.task` (the request
// declared the Tasks extension) records its task in the run store and answers taskStarted; the domain's board
// (Domain.tasks) answers for it from any store instance on the same database, reading its status from the run.

const cleanup = cleanedAfterEach();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two servers on one database (two processes, or two replicas): the second has its own store instance. */
async function twoServers(dialect: Dialect, pipeline: FakePipeline, second = new FakePipeline()) {
  const storage = await storageFor(dialect);
  const dataDir = cleanup.folder('tasks');
  const first = cleanup.kept(await startHarness({ pipeline, dataDir, ...storage }));
  const other = cleanup.kept(await startHarness({ pipeline: second, dataDir, ...storage }));
  return { first, other };
}

/** The run's status as launch_get_status answers it (the service: the in-memory client is another principal). */
const statusOf = async (h: Harness, runId: string) => (await h.state.runs()).status(runId);

/** The run id a task follows (the store's row), through the status of the runs the owner has. */
async function runOfTask(h: Harness): Promise<string> {
  const [run] = await (await h.state.runs()).recentRuns(OWNER, { limit: 1 });
  return run!.runId;
}

const startArgs = { run_config: runConfig() };

describe.each(DIALECTS)('launch tasks (%s)', (dialect) => {
  it('launch_start_run answers taskStarted once the task is durable; the other server follows it to VALIDATING', async () => {
    const pipeline = new FakePipeline({ seededProblems: 1 });
    const held = pipeline.hold('W3');
    const { first, other } = await twoServers(dialect, pipeline);
    const answer = await callHandler(first, startRunTool, startArgs, 'task-start');
    expect(answer).toEqual(new TaskStarted('task-start'));
    const board = await boardOf(other);
    await held.reached;
    const working = await board.get(ref('task-start'));
    expect(working).toMatchObject({ tool: 'launch_start_run', status: 'working', ttlMs: 60_000 });
    expect(working?.statusMessage).toBe('INGESTED: W3 (snippets) running');
    expect(await board.get(ref('task-start', 'local:someone-else'))).toBeUndefined();
    expect(await board.get(ref('task-unknown'))).toBeUndefined();
    held.release();
    const done = await settled(board, 'task-start');
    const runId = await runOfTask(first);
    expect(done).toMatchObject({
      status: 'completed',
      outcome: { kind: 'output', output: { ok: true, run_id: runId, state: 'VALIDATING' } },
    });
    // The end is stored: a cancel after it changes neither the task nor the run.
    expect(await board.cancel(ref('task-start'))).toBe(true);
    expect(await statusOf(first, runId)).toMatchObject({ state: 'VALIDATING' });
    expect(await (await boardOf(first)).get(ref('task-start'))).toMatchObject({ outcome: done.outcome });
  });

  it('without call.task the tools answer as before', async () => {
    const pipeline = new FakePipeline({ seededProblems: 0 });
    const { first } = await twoServers(dialect, pipeline);
    const started = await callHandler(first, startRunTool, startArgs);
    expect(Object.keys(started as object).sort()).toEqual(['ok', 'run_id', 'state']);
    expect(started).toMatchObject({ ok: true, state: 'CREATED' });
    const via = (await first.call('launch_start_run', { run_config: runConfig() })).structured;
    expect(Object.keys(via).sort()).toEqual(['ok', 'run_id', 'state']);
  });

  it('tasks/cancel from the other server cancels the run as launch_cancel does; the task reads cancelled', async () => {
    const pipeline = new FakePipeline();
    const held = pipeline.hold('W4');
    const { first, other } = await twoServers(dialect, pipeline);
    await callHandler(first, startRunTool, startArgs, 'task-cancel');
    await held.reached;
    const board = await boardOf(other);
    expect(await board.cancel(ref('task-cancel', 'local:someone-else'))).toBe(false);
    expect(await board.cancel(ref('task-cancel'))).toBe(true);
    const runId = await runOfTask(first);
    for (;;) {
      const status = await statusOf(first, runId);
      if (status.state === 'CANCELLED' && status.details?.busy === false) break;
      await sleep(10);
    }
    const events = await (await first.state.runs()).events(runId);
    expect(events.filter((event) => event.type === 'STATE_CHANGED').at(-1)?.payload).toEqual({
      from: 'FACTS_READY',
      to: 'CANCELLED',
      reason: 'launch_cancel',
    });
    expect(await board.get(ref('task-cancel'))).toMatchObject({ status: 'cancelled' });
    expect(await board.cancel(ref('task-cancel'))).toBe(true);
  });

  it('a run that FAILED ends its task with the launch error the run recorded', async () => {
    const failure = () =>
      new SwitchyardError('validation', 'the source has no README', { code: 'SCHEMA_VALIDATION_FAILED' });
    const pipeline = new FakePipeline({ fail: { W2: failure } });
    const { first, other } = await twoServers(dialect, pipeline);
    await callHandler(first, startRunTool, startArgs, 'task-failed');
    const done = await settled(await boardOf(other), 'task-failed');
    const runId = await runOfTask(first);
    const status = await statusOf(first, runId);
    const error = status.details?.error as { code: string; message: string };
    expect(done.status).toBe('completed');
    expect(done.outcome).toMatchObject({
      kind: 'refusal',
      error: { code: error.code, message: error.message },
    });
  });

  it('a task past its ttl is forgotten', async () => {
    const { first } = await twoServers(dialect, new FakePipeline());
    await callHandler(first, startRunTool, startArgs, 'task-ttl', 1);
    await sleep(20);
    expect(await (await boardOf(first)).get(ref('task-ttl'))).toBeUndefined();
    expect(await (await boardOf(first)).cancel(ref('task-ttl'))).toBe(false);
  });

  it('a start whose executor stopped mid-step ends interrupted; launch_resume as a task takes it to its next stable state', async () => {
    const pipeline = new FakePipeline({ seededProblems: 1 });
    const held = pipeline.hold('W4');
    const storage = await storageFor(dialect);
    const dataDir = cleanup.folder('tasks');
    const first = cleanup.kept(await startHarness({ pipeline, dataDir, ...storage }));
    await callHandler(first, startRunTool, startArgs, 'task-start');
    await held.reached;
    const runId = await runOfTask(first);
    await first.state.close();
    const second = cleanup.kept(
      await startHarness({ pipeline: new FakePipeline({ seededProblems: 1 }), dataDir, ...storage }),
    );
    const board = await boardOf(second);
    const interrupted = await board.get(ref('task-start'));
    expect(interrupted).toMatchObject({
      status: 'completed',
      outcome: { kind: 'refusal', error: { code: 'ILLEGAL_STATE', details: { interrupted: true } } },
    });

    expect(await callHandler(second, resumeTool, { run_id: runId }, 'task-resume')).toEqual(
      new TaskStarted('task-resume'),
    );
    const resumed = await settled(board, 'task-resume');
    const status = await statusOf(second, runId);
    expect(resumed).toMatchObject({
      tool: 'launch_resume',
      status: 'completed',
      outcome: { kind: 'output', output: { ok: true, status: { run_id: runId, state: 'PLAN_READY' } } },
    });
    expect(resumed.outcome).toEqual({ kind: 'output', output: { ok: true, status } });
    // The start's task stays as it first ended.
    expect(await board.get(ref('task-start'))).toMatchObject({ outcome: interrupted!.outcome });
  });
});

/** A run of OWNER's at rest in `state` (VALIDATING: one seeded problem; READY_FOR_PR: none), started without a task. */
async function runAtRest(h: Harness, state = 'VALIDATING'): Promise<string> {
  await callHandler(h, startRunTool, startArgs);
  const runId = await runOfTask(h);
  await untilIdle(h, runId, state);
  return runId;
}

/** Until the run rests (in `state`, when given) with no step executing on it. */
async function untilIdle(h: Harness, runId: string, state?: string): Promise<void> {
  for (;;) {
    const status = await statusOf(h, runId);
    if ((state === undefined || status.state === state) && status.details?.busy === false) return;
    await sleep(10);
  }
}

describe.each(DIALECTS)('launch tools that answer with a task when slow (%s)', (dialect) => {
  it('launch_validate past afterMs becomes a task; its answer is stored on it and served by the other server', async () => {
    const pipeline = new FakePipeline({ seededProblems: 1 });
    const { first, other } = await twoServers(dialect, pipeline);
    const runId = await runAtRest(first);
    const held = pipeline.hold('W7');
    expect(await callHandler(first, validateTool, { run_id: runId }, 'task-validate')).toEqual(
      new TaskStarted('task-validate'),
    );
    await held.reached;
    const board = await boardOf(other);
    expect(await board.get(ref('task-validate'))).toMatchObject({
      tool: 'launch_validate',
      status: 'working',
      statusMessage: 'VALIDATING: W7 (validate) running; gates 0/1 passed (TemplateTokens failed)',
    });
    held.release();
    const done = await settled(board, 'task-validate');
    // The task's answer is stored before the lease is released: the run is busy until then.
    await untilIdle(first, runId);
    const plain = await callHandler(first, validateTool, { run_id: runId });
    expect(done).toMatchObject({ status: 'completed', outcome: { kind: 'output' } });
    const output = (done.outcome as { output: Record<string, unknown> }).output;
    expect(Object.keys(output).sort()).toEqual(['ok', 'run_id', 'validation_report']);
    expect(output).toMatchObject({ ok: true, run_id: runId, validation_report: { ok: false } });
    expect((plain as typeof output).validation_report).toMatchObject({
      issues: (output.validation_report as { issues: unknown }).issues,
    });
  });

  it('launch_fix_next past afterMs becomes a task that says the fix attempt, and ends with the fix', async () => {
    const pipeline = new FakePipeline({ seededProblems: 1 });
    const { first, other } = await twoServers(dialect, pipeline);
    const runId = await runAtRest(first);
    const held = pipeline.hold('W8');
    expect(await callHandler(first, fixNextTool, { run_id: runId }, 'task-fix')).toEqual(
      new TaskStarted('task-fix'),
    );
    await held.reached;
    const board = await boardOf(other);
    expect((await board.get(ref('task-fix')))?.statusMessage).toMatch(
      /^FIXING: W8 \(fix\) running; fix attempt 1 of \d+; gates 0\/1 passed/,
    );
    held.release();
    const done = await settled(board, 'task-fix');
    expect(done).toMatchObject({
      tool: 'launch_fix_next',
      status: 'completed',
      outcome: { kind: 'output', output: { ok: true, run_id: runId, remaining_blockers: 0 } },
    });
    expect(await statusOf(first, runId)).toMatchObject({ state: 'READY_FOR_PR' });
  });

  it('launch_validate done within afterMs answers as always and records no task', async () => {
    const pipeline = new FakePipeline({ seededProblems: 1 });
    const { first } = await twoServers(dialect, pipeline);
    const runId = await runAtRest(first);
    const answer = await callHandler(first, validateTool, { run_id: runId }, 'task-fast', 60_000, 60_000);
    expect(answer).toMatchObject({ ok: true, run_id: runId, validation_report: { ok: false } });
    expect(await (await boardOf(first)).get(ref('task-fast'))).toBeUndefined();
  });

  it('a slow launch_open_pr that fails stores its error on the task, registered secrets redacted', async () => {
    const secret = 'ghp_launchTaskSecret0123456789';
    registerSecret(secret);
    const pipeline = new FakePipeline({ seededProblems: 0 });
    let fail!: () => void;
    const failing = new Promise<void>((resolve) => (fail = resolve));
    pipeline.openPullRequest = async () => {
      await failing;
      throw new SwitchyardError(
        'upstream-error',
        `push to https://x-access-token:${secret}@github.com failed`,
        {
          code: 'COMMIT_SERVICE_ERROR',
          retryable: false,
        },
      );
    };
    const { first, other } = await twoServers(dialect, pipeline);
    const runId = await runAtRest(first, 'READY_FOR_PR');
    expect(await callHandler(first, openPrTool, { run_id: runId }, 'task-pr')).toEqual(
      new TaskStarted('task-pr'),
    );
    fail();
    const done = await settled(await boardOf(other), 'task-pr');
    expect(done).toMatchObject({
      tool: 'launch_open_pr',
      status: 'completed',
      outcome: { kind: 'refusal', error: { code: 'COMMIT_SERVICE_ERROR' } },
    });
    const error = (done.outcome as { error: SwitchyardError }).error;
    expect(error.message).toContain('[REDACTED]');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(secret);
  });

  it("a call's task whose executor died without storing its end reads as interrupted", async () => {
    const { first } = await twoServers(dialect, new FakePipeline({ seededProblems: 1 }));
    const runId = await runAtRest(first);
    const dead = newLeaseToken();
    retireLeaseToken(dead);
    const task = {
      taskId: 'task-dead',
      principal: OWNER,
      tool: 'launch_fix_next',
      ttlMs: null,
      sampling: false,
    };
    await (await first.state.runs()).recordTask({ ...task, target: 'call' }, runId, dead);
    expect(await (await boardOf(first)).get(ref('task-dead'))).toMatchObject({
      tool: 'launch_fix_next',
      status: 'completed',
      outcome: { kind: 'refusal', error: { code: 'ILLEGAL_STATE', details: { interrupted: true } } },
    });
  });
});

describe("a task's status read from its run", () => {
  const events = (...list: [string, Record<string, unknown>][]): RunEvent[] =>
    list.map(([type, payload], at) => ({
      event_id: `e${at}`,
      run_id: 'r',
      seq: at + 1,
      ts: '',
      type,
      payload,
      trace_id: null,
      span_id: null,
      prev_hash: '',
      event_hash: '',
    }));

  it('says the state, the worker running, the fix attempt and the latest gate results', () => {
    const log = events(
      ['VALIDATION_RECORDED', { ok: false, gates: [{ name: 'lint', ok: false, skipped: false }] }],
      ['STATE_CHANGED', { from: 'VALIDATING', to: 'FIXING', attempt: 2, max_fix_attempts: 5 }],
      [
        'VALIDATION_RECORDED',
        {
          ok: false,
          gates: [
            { name: 'lint', ok: true, skipped: false },
            { name: 'site-build', ok: false, skipped: false },
            { name: 'links', ok: true, skipped: true },
          ],
        },
      ],
    );
    // The store reads the newest of each (store.test.ts: activityEvents).
    const latest = { validation: log[2], enteredFix: log[1] };
    expect(runActivity({ state: 'FIXING', activeWorker: 'W8' }, latest)).toBe(
      'FIXING: W8 (fix) running; fix attempt 2 of 5; gates 1/2 passed (site-build failed)',
    );
    const none = { validation: undefined, enteredFix: undefined };
    expect(runActivity({ state: 'CREATED', activeWorker: null }, none)).toBe('CREATED');
  });

  it('a lease its executor never released: working where replicas take runs over, else interrupted', () => {
    const dead = newLeaseToken();
    retireLeaseToken(dead);
    const run: RunRow = {
      ...newRunValues(
        {
          runId: 'r_2026-01-21T10-00-00Z_abcd1234',
          owner: OWNER,
          productSlug: 'p',
          config: '{}',
          configHash: 'h',
          idempotencyKey: undefined,
          sectionStates: {},
          leaseOwner: dead,
          leaseMs: 30_000,
          maxActiveRuns: 1,
        },
        null,
        Date.now(),
      ),
      state: 'DRAFTING',
      activeWorker: 'W5',
    };
    const task = { target: 'next-stable-state', leaseOwner: dead };
    expect(taskProgress(task, run, Date.now(), true)).toEqual({ kind: 'working' });
    expect(taskProgress(task, run, Date.now(), false)).toEqual({ kind: 'interrupted' });
    // A call's task works only while its own lease does: a takeover does not finish the call's work.
    expect(taskProgress({ ...task, target: 'call' }, run, Date.now(), true)).toEqual({ kind: 'interrupted' });
    const rested = { ...run, state: 'PLAN_READY', activeWorker: null, ...RELEASED_LEASE };
    expect(taskProgress(task, rested, Date.now(), true)).toEqual({ kind: 'reached' });
  });
});
