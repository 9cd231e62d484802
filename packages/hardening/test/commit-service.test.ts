import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../src/harness/mcp-client.js';
import { startWorld, type World } from '../src/harness/world.js';
import {
  exampleRepos,
  launchCall,
  runConfig,
  runStatus,
  waitForRest,
  type LaunchRepos,
} from '../src/launch.js';
import { classify } from '../src/outcome.js';
import { SENTINELS } from '../src/sentinels.js';
import { toolContract } from '../src/tools.js';

/**
 * The launch commit service against a loopback GitHub stand-in, with the sentinel token in the variable the
 * run_config names: GitHub failures give COMMIT_SERVICE_ERROR with a truthful `retryable`, the run stays
 * READY_FOR_PR, the token reaches GitHub (and only GitHub) but never an answer or a log line, and once
 * GitHub answers the PR is opened exactly once.
 */
let world: World;
let repos: LaunchRepos;
let runId: string;

beforeAll(async () => {
  world = await startWorld({ name: 'commit' });
  repos = await exampleRepos(path.join(world.dataDir, 'repos'));
  const started = await launchCall(world.client, 'launch_start_run', {
    run_config: runConfig(repos, { githubApi: world.upstreams.github.url }),
  });
  runId = started.run_id as string;
  let status = await waitForRest(world.client, runId);
  while (status.state === 'VALIDATING') {
    await launchCall(world.client, 'launch_fix_next', { run_id: runId });
    status = await runStatus(world.client, runId);
  }
  expect(status.state).toBe('READY_FOR_PR');
});

afterAll(async () => {
  await world?.close();
});

async function openPr() {
  const answer = await callTool(world.client, 'launch_open_pr', { run_id: runId }, { timeoutMs: 120_000 });
  world.scanner.scan('launch_open_pr answer', answer);
  return classify(toolContract('launch_open_pr'), answer);
}

describe('launch_open_pr against GitHub failures', () => {
  const cases = [
    { fault: 'unauthorized', retryable: false, why: '401 Bad credentials: the same token fails again' },
    { fault: 'echo-token-422', retryable: false, why: '422 that echoes the Authorization header back' },
    { fault: 'server-error', retryable: true, why: '502 on every attempt: GitHub may recover' },
  ] as const;

  for (const { fault, retryable, why } of cases) {
    it(`${why} -> COMMIT_SERVICE_ERROR, retryable ${retryable}, run still READY_FOR_PR`, async () => {
      world.upstreams.github.fault(fault, fault === 'server-error' ? 3 : 1);
      const outcome = await openPr();
      expect(outcome.kind, JSON.stringify(outcome)).toBe('error');
      if (outcome.kind !== 'error') return;
      expect(outcome.code).toBe('COMMIT_SERVICE_ERROR');
      expect(outcome.retryable).toBe(retryable);
      expect((await runStatus(world.client, runId)).state).toBe('READY_FOR_PR');
      world.assertHealthy();
    });
  }

  // GitHub's primary rate limit is a 403 with x-ratelimit-remaining: 0; it was once reported as a refusal
  // (retryable: false). The provider now classifies refusals through resilience's classifyHttpStatus.
  it('a 403 with x-ratelimit-remaining: 0 (GitHub quota) is COMMIT_SERVICE_ERROR with retryable true', async () => {
    world.upstreams.github.fault('rate-limited');
    const outcome = await openPr();
    expect(outcome.kind).toBe('error');
    if (outcome.kind !== 'error') return;
    expect(outcome.code).toBe('COMMIT_SERVICE_ERROR');
    expect(outcome.retryable).toBe(true);
  });

  it('then opens the pull request once; a repeated call answers the same PR', async () => {
    const first = await openPr();
    expect(first.kind, JSON.stringify(first)).toBe('success');
    const again = await openPr();
    expect(again.kind).toBe('success');
    if (first.kind !== 'success' || again.kind !== 'success') return;
    expect(again.payload.pr_url).toBe(first.payload.pr_url);
    expect(world.upstreams.github.pulls.size).toBe(1);
    expect((await runStatus(world.client, runId)).state).toBe('DONE');
  });

  it('sent the token to GitHub as a bearer header, and nowhere else did it appear', () => {
    const posts = world.upstreams.github.requests.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    for (const request of posts)
      expect(request.headers.authorization).toBe(`Bearer ${SENTINELS.githubToken}`);
    world.assertHealthy();
    world.scanLogs();
    expect(world.scanner.found()).toEqual([]);
  });
});
