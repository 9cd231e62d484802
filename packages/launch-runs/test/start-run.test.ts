import { LaunchErrorPayloadSchema, LaunchStartRunOutputSchema } from '@switchyard/contracts/launch-runs';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { callTool, contractErrorOf, errorOf } from '@switchyard/server-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, startHarnessOn } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import {
  atRest,
  RUN_ID_PATTERN,
  runConfig,
  startAndSettle,
  waitForStatus,
  type Harness,
} from './support/harness.js';
import { verifyEventChain } from '../src/store/event-chain.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(DIALECTS)('launch_start_run (%s)', (dialect) => {
  it('returns CREATED at once with a run id of the design format; the run continues to VALIDATING', async () => {
    const pipeline = new FakePipeline({ seededProblems: 2 });
    const held = pipeline.hold('W1');
    h = await startHarnessOn(dialect, { pipeline });
    const started = (await h.call('launch_start_run', { run_config: runConfig() })).structured;
    expect(LaunchStartRunOutputSchema.parse(started)).toMatchObject({ ok: true, state: 'CREATED' });
    expect(started.run_id).toMatch(RUN_ID_PATTERN);
    await held.reached;
    // The call returned while W1 was still held: the work is in the background.
    const during = (await h.call('launch_get_status', { run_id: started.run_id })).structured;
    expect(during.status).toMatchObject({
      state: 'CREATED',
      details: { busy: true, active_worker: 'W1', interrupted: false },
    });
    held.release();
    const status = await waitForStatus(h, started.run_id as string, atRest);
    expect(status.state).toBe('VALIDATING');
    expect(status.section_states).toEqual({ products: 'MERGED_IN_WORKTREE', docs: 'MERGED_IN_WORKTREE' });
    expect((status.open_issues as unknown[]).length).toBe(2);
    expect(pipeline.calls).toEqual(['W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7']);
  });

  it('stops in READY_FOR_PR when the first report is ok', async () => {
    h = await startHarnessOn(dialect, { pipeline: new FakePipeline({ seededProblems: 0 }) });
    const { status } = await startAndSettle(h);
    expect(status.state).toBe('READY_FOR_PR');
    expect(status.details.last_report_ok).toBe(true);
    expect(status.open_issues).toEqual([]);
  });

  it('walks the states in order, one STATE_CHANGED event per transition', async () => {
    h = await startHarnessOn(dialect, { pipeline: new FakePipeline({ seededProblems: 0 }) });
    const { runId } = await startAndSettle(h);
    const transitions = (await (await h.state.runs()).events(runId))
      .filter((event) => event.type === 'STATE_CHANGED')
      .map((event) => `${String(event.payload.from)}>${String(event.payload.to)}`);
    expect(transitions).toEqual([
      'CREATED>CLONED_INPUTS',
      'CLONED_INPUTS>INGESTED',
      'INGESTED>FACTS_READY',
      'FACTS_READY>PLAN_READY',
      'PLAN_READY>DRAFTING',
      'DRAFTING>DRAFT_READY',
      'DRAFT_READY>LINKING',
      'LINKING>VALIDATING',
      'VALIDATING>READY_FOR_PR',
    ]);
    const workItems = (await (await h.state.runs()).events(runId)).filter((event) =>
      event.type.startsWith('WORK_ITEM_'),
    );
    expect(workItems.map((event) => `${event.type}:${String(event.payload.worker)}`)).toEqual(
      ['W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7'].flatMap((w) => [
        `WORK_ITEM_STARTED:${w}`,
        `WORK_ITEM_FINISHED:${w}`,
      ]),
    );
    const written = (await (await h.state.runs()).events(runId)).filter(
      (event) => event.type === 'ARTIFACT_WRITTEN',
    );
    const status = await (await h.state.runs()).status(runId);
    for (const artifact of status.artifacts) {
      expect(
        written.some(
          (event) => event.payload.name === artifact.name && event.payload.sha256 === artifact.sha256,
        ),
      ).toBe(true);
    }
    expect(verifyEventChain(await (await h.state.runs()).events(runId))).toEqual({
      ok: true,
      count: (await (await h.state.runs()).events(runId)).length,
    });
  });

  it.each([
    [{ ...runConfig(), product_slug: 'Not A Slug' }, 'run_config.product_slug'],
    [{ ...runConfig(), max_fix_attempts: 99 }, 'run_config.max_fix_attempts'],
    [{ ...runConfig(), allowed_paths: ['../outside/**'] }, 'run_config.allowed_paths[0]'],
    [{ ...runConfig(), required_sections: ['docs', 'docs'] }, 'run_config.required_sections'],
    [{ ...runConfig(), surprise: true }, 'run_config.surprise'],
    [{ ...runConfig(), pr: { provider: 'github' } }, 'run_config.pr.github'],
    [{ schema_version: '1.0' }, 'run_config.product_slug'],
  ])('an invalid run_config is SCHEMA_VALIDATION_FAILED with details.issues (%#)', async (config, path) => {
    h = await startHarnessOn(dialect, { pipeline: new FakePipeline() });
    const error = contractErrorOf(
      await h.call('launch_start_run', { run_config: config }),
      LaunchErrorPayloadSchema,
    );
    expect(error.code).toBe('SCHEMA_VALIDATION_FAILED');
    expect(error.retryable).toBe(false);
    const issues = error.details.issues as { path: string; message: string }[];
    expect(issues.map((issue) => issue.path)).toContain(path);
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0);
    expect(error.message).toContain('run_config');
    expect((await h.call('launch_list_runs', {})).structured.runs).toEqual([]);
  });

  it.each([
    [{}, 'run_config'],
    [{ run_config: 'yes' }, 'run_config'],
    [{ run_config: [] }, 'run_config'],
    [{ run_config: runConfig(), idempotency_key: '' }, 'idempotency_key'],
    [{ run_config: runConfig(), idempotency_key: 42 }, 'idempotency_key'],
    [{ run_config: runConfig(), unexpected: 1 }, ''],
  ])('a request without a usable run_config or with bad fields is INVALID_INPUT (%#)', async (args, path) => {
    h = await startHarnessOn(dialect, { pipeline: new FakePipeline() });
    const error = contractErrorOf(await h.call('launch_start_run', args), LaunchErrorPayloadSchema);
    expect(error.code).toBe('INVALID_INPUT');
    expect((error.details.issues as { path: string }[]).map((issue) => issue.path)).toContain(path);
  });

  it('a worker failure that is not recoverable FAILS the run and says why', async () => {
    const pipeline = new FakePipeline({
      fail: {
        W1: () =>
          new SwitchyardError('validation', 'source.repo /nope does not exist', { code: 'INVALID_INPUT' }),
      },
    });
    h = await startHarnessOn(dialect, { pipeline });
    const { status } = await startAndSettle(h);
    expect(status.state).toBe('FAILED');
    expect(status.details.error).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'source.repo /nope does not exist',
    });
    expect(status.section_states).toEqual({ products: 'BLOCKED', docs: 'BLOCKED' });
    expect(status.details.interrupted).toBe(false);
  });

  /** Collects the data of every `notifications/message` the harness's client receives. */
  function logMessages(harness: Harness): unknown[] {
    const messages: unknown[] = [];
    harness.client.setNotificationHandler('notifications/message', (notification) => {
      messages.push(notification.params.data);
    });
    return messages;
  }

  /**
   * Starts a run in `era` with a progress token: exactly one progress notification arrives before the
   * answer, saying `says` about what follows. Returns the log messages received once the run rests.
   */
  async function startWithProgress(era: 'modern' | 'legacy', says: string): Promise<unknown[]> {
    const harness = await startHarnessOn(dialect, { pipeline: new FakePipeline({ seededProblems: 0 }), era });
    h = harness;
    const messages = logMessages(harness);
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = await harness.client.callTool(
      { name: 'launch_start_run', arguments: { run_config: runConfig() } },
      { onprogress: (update) => progress.push(update) },
    );
    expect(progress).toHaveLength(1);
    expect(progress[0]).toMatchObject({ progress: 0, total: 7 });
    expect(progress[0]?.message).toContain(says);
    const runId = (result.structuredContent as { run_id: string }).run_id;
    expect((await waitForStatus(harness, runId, atRest)).state).toBe('READY_FOR_PR');
    await new Promise((resolve) => setImmediate(resolve));
    return messages;
  }

  it('2025-era connection (stdio, in-memory): a progress notification, then the steps as log messages', async () => {
    const messages = await startWithProgress('legacy', 'progress follows as log messages');
    const steps = messages.filter((m) => (m as { event?: string }).event === 'run_progress') as {
      worker: string;
      progress: number;
    }[];
    expect(steps.map((step) => step.worker)).toEqual(['W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7']);
    expect(steps.at(-1)).toMatchObject({ progress: 7, total: 7, state: 'READY_FOR_PR' });
  });

  it('2026-07-28 era: the progress notification says to poll; nothing arrives after the answer', async () => {
    expect(await startWithProgress('modern', 'poll launch_get_status')).toEqual([]);
  });

  it.each(['modern', 'legacy'] as const)(
    'a client without a progress token gets no notifications (%s era)',
    async (era) => {
      h = await startHarnessOn(dialect, { pipeline: new FakePipeline({ seededProblems: 0 }), era });
      const messages = logMessages(h);
      await startAndSettle(h);
      expect(messages).toEqual([]);
    },
  );
});

describe.each(DIALECTS)('idempotency (%s)', (dialect) => {
  it('same key and same config return the existing run (defaults written out count as the same config)', async () => {
    const pipeline = new FakePipeline({ seededProblems: 0 });
    h = await startHarnessOn(dialect, { pipeline });
    const first = await startAndSettle(h, runConfig(), 'key-1');
    const again = (
      await h.call('launch_start_run', {
        run_config: {
          ...runConfig(),
          max_fix_attempts: 3,
          validation_profile: 'local',
          required_sections: ['products', 'docs'],
        },
        idempotency_key: 'key-1',
      })
    ).structured;
    expect(again).toEqual({ ok: true, run_id: first.runId, state: 'READY_FOR_PR' });
    expect(pipeline.calls.filter((w) => w === 'W1')).toHaveLength(1);
    const other = (await h.call('launch_start_run', { run_config: runConfig(), idempotency_key: 'key-2' }))
      .structured;
    expect(other.run_id).not.toBe(first.runId);
  });

  it('same key with a different config is INVALID_INPUT with details.reason=idempotency_key_reused', async () => {
    h = await startHarnessOn(dialect, { pipeline: new FakePipeline() });
    const first = (await h.call('launch_start_run', { run_config: runConfig(), idempotency_key: 'key-1' }))
      .structured;
    const error = errorOf(
      await h.call('launch_start_run', {
        run_config: runConfig({ product_name: 'Other' }),
        idempotency_key: 'key-1',
      }),
      'INVALID_INPUT',
    );
    expect(error.details).toMatchObject({ reason: 'idempotency_key_reused', run_id: first.run_id });
    expect(error.retryable).toBe(false);
  });

  it('text with an unpaired surrogate is INVALID_INPUT naming the field, and no run is recorded', async () => {
    // The database would store U+FFFD for it: two different keys would name one run, a name would change.
    h = await startHarnessOn(dialect, { pipeline: new FakePipeline() });
    for (const [args, field] of [
      [{ run_config: runConfig({ product_name: 'Example \ud800' }) }, 'run_config.product_name'],
      [{ run_config: runConfig(), idempotency_key: 'key-\udc00' }, 'idempotency_key'],
    ] as const) {
      const error = errorOf(await h.call('launch_start_run', args), 'INVALID_INPUT');
      expect(error.message).toMatch(
        new RegExp(`^${field.replace('.', '\\.')} must be well-formed Unicode text`),
      );
      expect(error.retryable).toBe(false);
    }
    expect((await h.call('launch_list_runs', {})).structured.runs).toEqual([]);
  });

  it('two concurrent starts with one key give one run', async () => {
    const pipeline = new FakePipeline({ seededProblems: 0 });
    h = await startHarnessOn(dialect, { pipeline });
    const harness = h;
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        harness.call('launch_start_run', { run_config: runConfig(), idempotency_key: 'same' }),
      ),
    );
    const ids = new Set(results.map((r) => r.structured.run_id));
    expect(ids.size).toBe(1);
    const [runId] = [...ids] as string[];
    await waitForStatus(harness, runId as string, atRest);
    expect((await harness.call('launch_list_runs', {})).structured.runs).toHaveLength(1);
    expect(pipeline.calls.filter((w) => w === 'W1')).toHaveLength(1);
  });
});

describe.each(DIALECTS)('the active run limit (%s)', (dialect) => {
  it('refuses a start over LAUNCH_MAX_ACTIVE_RUNS (retryable, nothing recorded) until a run ends; others start', async () => {
    h = await startHarnessOn(dialect, {
      pipeline: new FakePipeline({ seededProblems: 1 }),
      config: { maxActiveRuns: 1 },
    });
    const { runId } = await startAndSettle(h, runConfig(), 'first');
    const refused = errorOf(await h.call('launch_start_run', { run_config: runConfig() }), 'INVALID_INPUT');
    expect(refused).toMatchObject({
      retryable: true,
      details: { reason: 'active_run_limit', setting: 'LAUNCH_MAX_ACTIVE_RUNS', limit: 1, active: 1 },
    });
    expect(refused.message).toMatch(/finish or cancel one/);
    expect((await h.call('launch_list_runs', {})).structured.runs).toHaveLength(1);
    const replay = (await h.call('launch_start_run', { run_config: runConfig(), idempotency_key: 'first' }))
      .structured;
    expect(replay).toMatchObject({ ok: true, run_id: runId });

    const other = await h.connect('modern', 'someone-else');
    const theirs = (await callTool(other, 'launch_start_run', { run_config: runConfig() })).structured;
    expect(theirs).toMatchObject({ ok: true });

    await h.call('launch_cancel', { run_id: runId });
    const next = (await h.call('launch_start_run', { run_config: runConfig() })).structured;
    expect(next).toMatchObject({ ok: true, state: 'CREATED' });
  });

  it('counts a DONE run while launch_validate rebuilds its workspace: refused over the limit like a start', async () => {
    const pipeline = new FakePipeline({ seededProblems: 0 });
    h = await startHarnessOn(dialect, { pipeline, config: { maxActiveRuns: 1 } });
    const { runId: done } = await startAndSettle(h);
    expect((await h.call('launch_open_pr', { run_id: done })).structured).toMatchObject({ ok: true });
    const { runId: unfinished } = await startAndSettle(h);

    const refused = (await h.call('launch_validate', { run_id: done })).structured;
    expect(errorOf(refused, 'INVALID_INPUT')).toMatchObject({
      retryable: true,
      details: { reason: 'active_run_limit', setting: 'LAUNCH_MAX_ACTIVE_RUNS', limit: 1, active: 1 },
    });
    expect(pipeline.calls.filter((worker) => worker === 'W7')).toHaveLength(2);

    await h.call('launch_cancel', { run_id: unfinished });
    const held = pipeline.hold('W7');
    const validating = h.call('launch_validate', { run_id: done });
    await held.reached;
    const start = (await h.call('launch_start_run', { run_config: runConfig() })).structured;
    expect(errorOf(start, 'INVALID_INPUT').details).toMatchObject({ reason: 'active_run_limit', active: 1 });
    held.release();
    expect((await validating).structured).toMatchObject({ ok: true });
    expect((await h.call('launch_start_run', { run_config: runConfig() })).structured).toMatchObject({
      ok: true,
    });
  });
});
