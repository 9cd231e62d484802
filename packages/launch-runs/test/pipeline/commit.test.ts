import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchErrorPayload } from '@switchyard/contracts/errors';
import type { RunConfigInput } from '@switchyard/contracts/launch-runs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gitClient } from '../../src/git/git-client.js';
import type { PrRecord } from '../../src/pipeline/artifact-schemas.js';
import { createLaunchPipeline } from '../../src/pipeline/index.js';
import { GithubPullsMock } from './github-mock.js';
import { copyRun, failure, prepareExampleRun, type PreparedRun, type TestContext } from './helpers.js';

const TOKEN = 'ghp_mockSecretToken0123456789';
let prepared: PreparedRun;
let remotes = 0;

beforeAll(async () => {
  prepared = await prepareExampleRun({ prefix: 'commit', seedFixableProblem: false, through: 'validate' });
});
afterAll(() => prepared.cleanup());

/** A fresh bare copy of the example site to push to (each test pushes its own launch commit). */
async function freshRemote(): Promise<string> {
  remotes += 1;
  const remote = join(prepared.root, `remote-${remotes}.git`);
  await cp(prepared.repos.siteRepo, remote, { recursive: true });
  return remote;
}

async function branchSha(repo: string, branch: string): Promise<string> {
  return (await gitClient(repo).raw(['rev-parse', `refs/heads/${branch}`])).trim();
}

describe('W9 local commit service', () => {
  it('commits as the configured author, pushes the branch to the site repository and answers the same on repeat', async () => {
    const remote = await freshRemote();
    const ctx = await copyRun(prepared, 'local-pr', { site: { repo: remote } });
    const pipeline = createLaunchPipeline();
    const result = await pipeline.openPullRequest(ctx);
    const branch = `launch/${ctx.runId}/tallyho`;
    expect(result.branch).toBe(branch);
    expect(result.pr_url).toBe(`${pathToFileURL(remote).href}#${branch}`);
    expect(await branchSha(remote, branch)).toBe(result.commit_sha);
    const git = gitClient(remote);
    expect((await git.raw(['log', '-1', '--format=%an <%ae>|%s', result.commit_sha])).trim()).toBe(
      'Switchyard Launch <launch@switchyard.invalid>|Launch Tallyho documentation',
    );
    const files = (await git.raw(['show', '--name-only', '--format=', result.commit_sha]))
      .trim()
      .split('\n')
      .sort();
    expect(files).toEqual([
      'content/docs/tallyho/getting-started.md',
      'content/docs/tallyho/installation.md',
      'content/docs/tallyho/usage.md',
      'content/products/tallyho.md',
    ]);
    expect(ctx.artifacts.json<PrRecord>('pr.json')).toMatchObject({
      provider: 'local',
      commit_sha: result.commit_sha,
      branch,
      number: null,
    });

    expect(await pipeline.openPullRequest(ctx)).toEqual(result);
    expect(ctx.artifacts.writes.get('pr.json')).toBe(1);
    // An attempt interrupted after the push (pr.json never written) reuses the commit: no second commit.
    ctx.artifacts.files.delete('pr.json');
    expect(await pipeline.openPullRequest(ctx)).toEqual(result);
    expect(await branchSha(remote, branch)).toBe(result.commit_sha);
    expect((await gitClient(remote).raw(['rev-list', '--count', branch])).trim()).toBe('2');
  });

  it('uses the configured identity and message, and pushes to pr.remote when given', async () => {
    const remote = await freshRemote();
    const ctx = await copyRun(prepared, 'local-identity', {
      commit: {
        author_name: 'Docs Bot',
        author_email: 'docs@example.org',
        message: 'Launch the Tallyho docs',
      },
      pr: { provider: 'local', remote },
    });
    const result = await createLaunchPipeline().openPullRequest(ctx);
    expect(result.pr_url.startsWith(pathToFileURL(remote).href)).toBe(true);
    expect(
      (await gitClient(remote).raw(['log', '-1', '--format=%an <%ae>|%cn|%B', result.commit_sha])).trim(),
    ).toBe('Docs Bot <docs@example.org>|Docs Bot|Launch the Tallyho docs');
  });

  it('fails with a non-retryable COMMIT_SERVICE_ERROR when the push is refused', async () => {
    const ctx = await copyRun(prepared, 'local-refused', {
      pr: { provider: 'local', remote: join(prepared.root, 'missing.git') },
    });
    const error = await failure(createLaunchPipeline().openPullRequest(ctx));
    expect(error.code).toBe('COMMIT_SERVICE_ERROR');
    expect(launchErrorPayload(error).error).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable: false });
  });
});

describe('W9 github commit service (loopback mock of the pulls endpoint)', () => {
  const mock = new GithubPullsMock();
  let api: string;
  beforeAll(async () => {
    api = await mock.start();
  });
  afterAll(() => mock.stop());
  afterEach(() => {
    mock.requests.length = 0;
    mock.posts.length = 0;
    mock.gets.length = 0;
  });

  async function githubRun(
    name: string,
    env: Record<string, string> = { GH_TOKEN: TOKEN },
    apiBase?: string,
  ): Promise<TestContext> {
    const remote = await freshRemote();
    const pr: RunConfigInput['pr'] = {
      provider: 'github',
      remote,
      github: { owner: 'acme', repo: 'site', token_env: 'GH_TOKEN', api_base_url: apiBase ?? api },
    };
    const ctx = await copyRun(prepared, name, { pr });
    return Object.assign(ctx, { env });
  }
  const pipeline = createLaunchPipeline({
    github: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5, timeoutMs: 5000 },
  });

  it('posts the PR with the token, an Idempotency-Key and the launch body; retries a 5xx with the same key', async () => {
    const ctx = await githubRun('gh-created');
    mock.posts.push({ status: 502, body: { message: 'Bad gateway' } });
    mock.posts.push({ status: 201, body: { html_url: 'https://github.com/acme/site/pull/7', number: 7 } });
    const result = await pipeline.openPullRequest(ctx);
    expect(result.pr_url).toBe('https://github.com/acme/site/pull/7');
    const posts = mock.requests.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(2);
    for (const post of posts) {
      expect(post.url).toBe('/repos/acme/site/pulls');
      expect(post.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(post.headers['idempotency-key']).toMatch(/^launch-[0-9a-f]{40}$/);
    }
    expect(posts[0]!.headers['idempotency-key']).toBe(posts[1]!.headers['idempotency-key']);
    const body = JSON.parse(posts[1]!.body) as { title: string; head: string; base: string; body: string };
    expect(body).toMatchObject({ title: 'Launch Tallyho documentation', head: result.branch, base: 'main' });
    expect(body.body).toContain('### products');
    expect(body.body).toContain('`content/docs/tallyho/usage.md`');
    expect(body.body).toContain('- TruthLock: passed');
    expect(body.body).toMatch(/\d+ claim markers on 4 pages/);
    expect(ctx.artifacts.json<PrRecord>('pr.json')).toMatchObject({ provider: 'github', number: 7 });
    expect(await pipeline.openPullRequest(ctx)).toEqual(result);
    expect(mock.requests).toHaveLength(2);
  });

  it('422 "already exists" answers with the existing pull request', async () => {
    const ctx = await githubRun('gh-exists');
    mock.posts.push({
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ message: 'A pull request already exists for acme:launch.' }],
      },
    });
    mock.gets.push({ status: 200, body: [{ html_url: 'https://github.com/acme/site/pull/3', number: 3 }] });
    const result = await pipeline.openPullRequest(ctx);
    expect(result.pr_url).toBe('https://github.com/acme/site/pull/3');
    const get = mock.requests.find((request) => request.method === 'GET')!;
    const query = new URL(get.url, api).searchParams;
    expect(query.get('head')).toBe(`acme:${result.branch}`);
  });

  it('a 4xx is not retried and not retryable; the token never appears in the error', async () => {
    const ctx = await githubRun('gh-401');
    mock.posts.push({ status: 401, body: { message: `Bad credentials for ${TOKEN}` } });
    const error = await failure(pipeline.openPullRequest(ctx));
    expect(mock.requests).toHaveLength(1);
    const payload = launchErrorPayload(error);
    expect(payload.error).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable: false });
    expect(JSON.stringify(payload)).not.toContain(TOKEN);
    expect(error.message).toContain('401');
  });

  it('a 429 is retryable later but not retried now', async () => {
    const ctx = await githubRun('gh-429');
    mock.posts.push({ status: 429, body: { message: 'slow down' } });
    const error = await failure(pipeline.openPullRequest(ctx));
    expect(mock.requests).toHaveLength(1);
    expect(launchErrorPayload(error).error).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable: true });
  });

  it('a 403 for an exhausted quota is retryable with the wait; a 403 refusal is not', async () => {
    const ctx = await githubRun('gh-403-quota');
    const reset = String(Math.floor(Date.now() / 1000) + 30);
    mock.posts.push({
      status: 403,
      body: { message: 'API rate limit exceeded' },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    });
    const quota = launchErrorPayload(await failure(pipeline.openPullRequest(ctx))).error;
    expect(mock.requests).toHaveLength(1);
    expect(quota).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable: true });
    expect(quota.details.retry_after_s).toBeGreaterThanOrEqual(25);
    expect(quota.details.retry_after_s).toBeLessThanOrEqual(31);

    mock.posts.push({ status: 403, body: { message: 'Resource not accessible by integration' } });
    const refusal = launchErrorPayload(await failure(pipeline.openPullRequest(ctx))).error;
    expect(refusal).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable: false });
    expect(refusal.details).not.toHaveProperty('retry_after_s');
  });

  it('5xx on every attempt gives up after maxAttempts with a retryable error', async () => {
    const ctx = await githubRun('gh-503');
    for (let index = 0; index < 3; index += 1)
      mock.posts.push({ status: 503, body: { message: 'unavailable' } });
    const error = await failure(pipeline.openPullRequest(ctx));
    expect(mock.requests.filter((request) => request.method === 'POST')).toHaveLength(3);
    expect(launchErrorPayload(error).error).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable: true });
    expect(ctx.artifacts.files.has('pr.json')).toBe(false);
  });

  it('a network failure is retryable', async () => {
    const closed = new GithubPullsMock();
    const deadApi = await closed.start();
    await closed.stop();
    const ctx = await githubRun('gh-network', { GH_TOKEN: TOKEN }, deadApi);
    const error = await failure(pipeline.openPullRequest(ctx));
    expect(launchErrorPayload(error).error).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable: true });
  });

  it('a token_env that is not set fails before anything is pushed', async () => {
    const ctx = await githubRun('gh-no-token', {});
    const error = await failure(pipeline.openPullRequest(ctx));
    expect(launchErrorPayload(error).error).toMatchObject({
      code: 'COMMIT_SERVICE_ERROR',
      retryable: false,
      details: { reason: 'token_missing', token_env: 'GH_TOKEN' },
    });
    expect(mock.requests).toHaveLength(0);
    const remote = ctx.config.pr.remote!;
    await expect(branchSha(remote, `launch/${ctx.runId}/tallyho`)).rejects.toThrow();
  });
});
