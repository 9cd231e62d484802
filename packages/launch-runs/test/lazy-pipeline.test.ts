import { LaunchErrorPayloadSchema, LaunchResumeOutputSchema } from '@switchyard/contracts/launch-runs';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyPipeline, type PipelineWorkers } from '../src/pipeline/lazy-pipeline.js';
import { resolvePipelineOptions } from '../src/pipeline/options.js';
import { FakePipeline } from './support/fake-pipeline.js';
import {
  atRest,
  runConfig,
  startAndSettle,
  startHarness,
  waitForStatus,
  type Harness,
} from './support/harness.js';

/** A module that does not exist: importing it fails the way a missing dependency does. */
const NOT_INSTALLED = './support/not-installed.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The fake pipeline's workers in the shape of the worker module. */
function workersOf(fake: FakePipeline): PipelineWorkers {
  return {
    cloneInputs: (ctx) => fake.cloneInputs(ctx),
    extractFacts: (ctx) => fake.extractFacts(ctx),
    catalogSnippets: (ctx) => fake.catalogSnippets(ctx),
    planPages: (ctx) => fake.planPages(ctx),
    draftPages: (ctx) => fake.draftPages(ctx),
    publishWritingBrief: (ctx) => fake.publishWritingBrief(ctx),
    acceptDraft: (ctx, draft) => fake.acceptDraft(ctx, draft),
    fallBackDraft: (ctx, fallback) => fake.fallBackDraft(ctx, fallback),
    linkPages: (ctx) => fake.linkPages(ctx),
    validateSite: (ctx) => fake.validateSite(ctx),
    planFix: (ctx, report) => fake.planFix(ctx, report),
    applyFix: (ctx, plan) => fake.applyFix(ctx, plan),
    openPullRequest: (ctx) => fake.openPullRequest(ctx),
    restoreWorkspace: (ctx, restore) => fake.restoreWorkspace(ctx, restore),
  };
}

/**
 * A lazily loaded pipeline over `fake` whose worker module is "installed" or not: while it is not, loading
 * it is a real failed import.
 */
function installablePipeline(fake: FakePipeline, installed: boolean) {
  const install = { installed };
  const pipeline = lazyPipeline(
    async () => (install.installed ? workersOf(fake) : import(NOT_INSTALLED)),
    resolvePipelineOptions(),
  );
  return { pipeline, install };
}

describe('the lazily loaded pipeline', () => {
  it('loads nothing until a run executes its first worker', async () => {
    const fake = new FakePipeline({ seededProblems: 0 });
    let loads = 0;
    const pipeline = lazyPipeline(async () => {
      loads += 1;
      return workersOf(fake);
    }, resolvePipelineOptions());
    h = await startHarness({ pipeline });
    await h.client.listTools();
    expect(loads).toBe(0);
    const { status } = await startAndSettle(h);
    expect(status.state).toBe('READY_FOR_PR');
    // lazyPipeline asks its loader every time; the production loader is lazy() (one import per process).
    expect(loads).toBe(fake.calls.length);
  });

  it('a worker module that cannot be loaded halts the run (INTERNAL, retryable); launch_resume continues it once it loads', async () => {
    const fake = new FakePipeline({ seededProblems: 0 });
    const { pipeline, install } = installablePipeline(fake, false);
    h = await startHarness({ pipeline });

    const started = (await h.call('launch_start_run', { run_config: runConfig() })).structured;
    expect(started).toMatchObject({ ok: true, state: 'CREATED' });
    const runId = started.run_id as string;
    const halted = await waitForStatus(h, runId, atRest);
    expect(halted.state).toBe('CREATED');
    expect(halted.details).toMatchObject({
      interrupted: false,
      error: {
        code: 'INTERNAL',
        retryable: true,
        details: { reason: 'pipeline_unavailable', cause_class: expect.any(String) },
      },
    });
    expect(String((halted.details.error as { message: string }).message)).toMatch(
      /The launch pipeline could not be loaded .*Reinstall @switchyard\/launch-runs/,
    );
    expect(fake.calls).toEqual([]);

    install.installed = true;
    const resumed = LaunchResumeOutputSchema.parse(
      (await h.call('launch_resume', { run_id: runId })).structured,
    );
    expect(resumed.status.state).toBe('PLAN_READY');
    expect(resumed.status.details?.error).toBeUndefined();
    expect(fake.calls).toEqual(['W1', 'W2', 'W3', 'W4']);
  });

  it('a synchronous worker call (launch_validate) answers a load failure with the standard error shape', async () => {
    const { pipeline, install } = installablePipeline(new FakePipeline({ seededProblems: 1 }), true);
    h = await startHarness({ pipeline });
    const { runId, status } = await startAndSettle(h);
    expect(status.state).toBe('VALIDATING');

    install.installed = false;
    const raw = (await h.call('launch_validate', { run_id: runId })).raw;
    expect(raw.isError).toBe(true);
    const payload = LaunchErrorPayloadSchema.parse(raw.structuredContent);
    expect(payload).toMatchObject({
      ok: false,
      run_id: runId,
      error: { code: 'INTERNAL', retryable: true, details: { reason: 'pipeline_unavailable' } },
    });
    expect(typeof payload.error.details.cause_class).toBe('string');
    expect((await h.call('launch_get_status', { run_id: runId })).structured.status).toMatchObject({
      state: 'VALIDATING',
    });
  });
});
