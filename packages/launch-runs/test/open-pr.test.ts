import fs from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { LaunchOpenPrOutputSchema } from '@switchyard/contracts/launch-runs';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { registerSecret } from '@switchyard/resilience';
import { createLogger } from '@switchyard/server-kit/runtime';
import { errorOf } from '@switchyard/server-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { materializeExampleRepos } from '../src/pipeline/index.js';
import { DIALECTS, startHarnessOn } from './support/dialects.js';
import { FakePipeline } from './support/fake-pipeline.js';
import {
  atRest,
  startAndSettle,
  startHarness,
  tempDir,
  waitForStatus,
  type Harness,
} from './support/harness.js';
import { exampleConfig, fixUntilReady } from './support/launch-flow.js';

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
    const first = LaunchOpenPrOutputSchema.parse(
      (await h.call('launch_open_pr', { run_id: runId })).structured,
    );
    expect(first.branch).toBe(`launch/${runId}/example-product`);
    const status = (await h.call('launch_get_status', { run_id: runId })).structured.status as Record<
      string,
      unknown
    >;
    expect(status).toMatchObject({
      state: 'DONE',
      section_states: { products: 'DONE', docs: 'DONE' },
      details: { pr: { pr_url: first.pr_url, branch: first.branch, commit_sha: first.commit_sha } },
    });
    const second = (await h.call('launch_open_pr', { run_id: runId })).structured;
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
      ((await h.call('launch_list_runs', {})).structured.runs as { finished_at: string | null }[])[0]
        ?.finished_at,
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
      const status = (await h.call('launch_get_status', { run_id: runId })).structured.status as {
        state: string;
        details: Record<string, unknown>;
      };
      expect(status.state).toBe('READY_FOR_PR');
      expect(status.details.error).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable });
      const retried = LaunchOpenPrOutputSchema.parse(
        (await h.call('launch_open_pr', { run_id: runId })).structured,
      );
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
    const payload = (await h.call('launch_open_pr', { run_id: runId })).structured;
    const error = errorOf(payload, 'COMMIT_SERVICE_ERROR');
    expect(error.retryable).toBe(false);
    expect(JSON.stringify(payload)).not.toContain(secret);
    expect(error.message).toContain('[REDACTED]');
    const status = (await h.call('launch_get_status', { run_id: runId })).structured;
    expect(JSON.stringify(status)).not.toContain(secret);
    expect(JSON.stringify(await (await h.state.runs()).events(runId))).not.toContain(secret);
  });
});

describe('launch_open_pr cancelled by its client while git pushes', { timeout: 120_000 }, () => {
  it('is logged as a cancelled call, not an internal error; the run stays READY_FOR_PR', async () => {
    const workDir = tempDir('open-pr-cancel');
    // A git remote that takes the push's first request and never answers it.
    const held: ServerResponse[] = [];
    let reached!: () => void;
    const pushReached = new Promise<void>((resolve) => (reached = resolve));
    const remote = createServer((_request, response) => {
      held.push(response);
      reached();
    });
    await new Promise<void>((done) => remote.listen(0, '127.0.0.1', done));
    const lines: string[] = [];
    try {
      const repos = await materializeExampleRepos(path.join(workDir, 'repos'));
      h = await startHarness({
        config: { remoteHosts: ['127.0.0.1'] },
        logger: createLogger({ level: 'info', write: (line) => lines.push(line) }),
      });
      const { port } = remote.address() as AddressInfo;
      const config = exampleConfig(repos, {
        pr: { provider: 'local', remote: `http://127.0.0.1:${port}/site.git` },
      });
      const started = (await h.call('launch_start_run', { run_config: config })).structured;
      const runId = started.run_id as string;
      await waitForStatus(h, runId, atRest);
      await fixUntilReady(h, runId);

      const controller = new AbortController();
      const call = h.client.callTool(
        { name: 'launch_open_pr', arguments: { run_id: runId } },
        { signal: controller.signal },
      );
      await pushReached;
      controller.abort('the client gave up');
      await expect(call).rejects.toThrow();

      const failed = await loggedFailureOf(lines, 'launch_open_pr');
      expect(failed).toMatchObject({ level: 'info', outcome: 'cancelled', code: 'INTERNAL' });
      const status = await waitForStatus(h, runId, atRest);
      expect(status.state).toBe('READY_FOR_PR');
      // The run records the interrupted step as before: INTERNAL, not CANCELLED (the run was not cancelled).
      const failedStep = (await (await h.state.runs()).events(runId))
        .filter((event) => event.type === 'WORK_ITEM_FAILED')
        .at(-1);
      expect(failedStep?.payload).toMatchObject({ worker: 'W9', code: 'INTERNAL' });
    } finally {
      remote.closeAllConnections();
      await new Promise((done) => remote.close(done));
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  });
});

/** The "tool call failed" line of `tool`, once the server has written it. */
async function loggedFailureOf(lines: readonly string[], tool: string): Promise<Record<string, unknown>> {
  for (;;) {
    const entry = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((logged) => logged.msg === 'tool call failed' && logged.tool === tool);
    if (entry !== undefined) return entry;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
