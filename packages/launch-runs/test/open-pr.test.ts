import { LaunchOpenPrOutputSchema } from '@switchyard/contracts/launch-runs';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { registerSecret } from '@switchyard/resilience';
import { errorOf } from '@switchyard/server-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, startHarnessOn } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import { startAndSettle, type Harness } from './support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(DIALECTS)('launch_open_pr (%s)', (dialect) => {
  it('needs READY_FOR_PR: ILLEGAL_STATE with current and required state', async () => {
    h = await startHarnessOn(dialect, { pipeline: new FakePipeline({ seededProblems: 1 }) });
    const { runId } = await startAndSettle(h);
    const error = errorOf(await h.call('launch_open_pr', { run_id: runId }), 'ILLEGAL_STATE');
    expect(error.details).toMatchObject({
      current_state: 'VALIDATING',
      required_state: 'READY_FOR_PR',
      allowed_states: ['READY_FOR_PR'],
    });
  });

  it('opens the PR through W9, ends DONE, and a second call returns the same PR without a second one', async () => {
    const pipeline = new FakePipeline({ seededProblems: 0 });
    h = await startHarnessOn(dialect, { pipeline });
    const { runId } = await startAndSettle(h);
    const first = LaunchOpenPrOutputSchema.parse(await h.call('launch_open_pr', { run_id: runId }));
    expect(first.branch).toBe(`launch/${runId}/example-product`);
    const status = (await h.call('launch_get_status', { run_id: runId })).status as Record<string, unknown>;
    expect(status).toMatchObject({
      state: 'DONE',
      section_states: { products: 'DONE', docs: 'DONE' },
      details: { pr: { pr_url: first.pr_url, branch: first.branch, commit_sha: first.commit_sha } },
    });
    const second = await h.call('launch_open_pr', { run_id: runId });
    expect(second).toEqual(first);
    expect(pipeline.prsOpened).toHaveLength(1);
    const transitions = (await (await h.state.runs()).events(runId))
      .filter((e) => e.type === 'STATE_CHANGED')
      .slice(-2)
      .map((e) => [e.payload.from, e.payload.to]);
    expect(transitions).toEqual([
      ['READY_FOR_PR', 'PR_OPENED'],
      ['PR_OPENED', 'DONE'],
    ]);
    expect(
      ((await h.call('launch_list_runs', {})).runs as { finished_at: string | null }[])[0]?.finished_at,
    ).not.toBeNull();
  });

  it.each([
    [502, 'Bad Gateway', true],
    [422, 'Unprocessable Entity', false],
  ])(
    'a commit service failure (%i) is COMMIT_SERVICE_ERROR with its retryable flag; the run stays READY_FOR_PR',
    async (upstreamStatus, reason, retryable) => {
      let failures = 1;
      const pipeline = new FakePipeline({ seededProblems: 0 });
      const original = pipeline.openPullRequest.bind(pipeline);
      pipeline.openPullRequest = async (ctx) => {
        if (failures-- > 0) {
          throw new SwitchyardError('upstream-error', `GitHub answered ${upstreamStatus} ${reason}`, {
            code: 'COMMIT_SERVICE_ERROR',
            retryable,
            upstreamStatus,
          });
        }
        return original(ctx);
      };
      h = await startHarnessOn(dialect, { pipeline });
      const { runId } = await startAndSettle(h);
      const error = errorOf(await h.call('launch_open_pr', { run_id: runId }), 'COMMIT_SERVICE_ERROR');
      expect(error.retryable).toBe(retryable);
      const status = (await h.call('launch_get_status', { run_id: runId })).status as {
        state: string;
        details: Record<string, unknown>;
      };
      expect(status.state).toBe('READY_FOR_PR');
      expect(status.details.error).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable });
      const retried = LaunchOpenPrOutputSchema.parse(await h.call('launch_open_pr', { run_id: runId }));
      expect(retried.run_id).toBe(runId);
      expect(pipeline.prsOpened).toHaveLength(1);
    },
  );

  it('never shows a registered secret: not in the error, not in the status, not in the events', async () => {
    const secret = 'ghp_launchTestSecret0123456789';
    registerSecret(secret);
    const pipeline = new FakePipeline({ seededProblems: 0 });
    pipeline.openPullRequest = async () => {
      throw new SwitchyardError(
        'upstream-error',
        `push to https://x-access-token:${secret}@github.com failed`,
        {
          code: 'COMMIT_SERVICE_ERROR',
          retryable: false,
          details: { remote: `https://x-access-token:${secret}@github.com/o/r.git` },
        },
      );
    };
    h = await startHarnessOn(dialect, { pipeline });
    const { runId } = await startAndSettle(h);
    const payload = await h.call('launch_open_pr', { run_id: runId });
    const error = errorOf(payload, 'COMMIT_SERVICE_ERROR');
    expect(error.retryable).toBe(false);
    expect(JSON.stringify(payload)).not.toContain(secret);
    expect(error.message).toContain('[REDACTED]');
    const status = await h.call('launch_get_status', { run_id: runId });
    expect(JSON.stringify(status)).not.toContain(secret);
    expect(JSON.stringify(await (await h.state.runs()).events(runId))).not.toContain(secret);
  });
});
