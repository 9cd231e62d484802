// W9's rules no other test held (found by mutation testing): what the pull request body says, which GitHub
// answers are a pull request, a refusal or worth retrying, what the launch commit takes, and that neither the
// token nor a remote's credentials reach an error.
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { launchErrorPayload } from '@switchyard/contracts/errors';
import type { RunConfigInput, ValidationIssue, ValidationReport } from '@switchyard/contracts/launch-runs';
import { registerSecret } from '@switchyard/resilience';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { commitServiceError } from '../../src/commit/errors.js';
import { idempotencyKey } from '../../src/commit/github-provider.js';
import { pullRequestBody } from '../../src/commit/pr-body.js';
import { gitClient } from '../../src/git/git-client.js';
import type { PagePlan, PrRecord, RepoInventory } from '../../src/pipeline/artifact-schemas.js';
import { createLaunchPipeline } from '../../src/pipeline/index.js';
import { GithubPullsMock } from './github-mock.js';
import {
  copyRun,
  failure,
  prepareExampleRun,
  startUntrustedHttps,
  type PreparedRun,
  type TestContext,
} from './helpers.js';

const TOKEN = 'plain-w9-token-5d1f0c9a7b3e';
const RUN = 'r_2026-01-21T10-00-00Z_abcd1234';

describe('the pull request body', () => {
  const plan = {
    sections: [
      { section: 'products', page_ids: ['p-overview'] },
      { section: 'docs', page_ids: ['p-install', 'p-gone'] },
    ],
    pages: [
      {
        page_id: 'p-install',
        title: 'Installation',
        path: 'content/docs/x/install.md',
        url_path: '/docs/x/install/',
      },
      { page_id: 'p-overview', title: 'X', path: 'content/products/x.md', url_path: '/products/x/' },
    ],
  } as unknown as PagePlan;
  const report: ValidationReport = {
    schema_version: '1.0',
    ok: false,
    profile: 'local',
    gates: [
      { name: 'FrontMatter', ok: true, duration_ms: 1 },
      { name: 'TruthLock', ok: false, duration_ms: 1 },
      { name: 'MarkdownLint', ok: true, duration_ms: 0, skipped: true, reason: 'no markdownlint here' },
      { name: 'SiteBuild', ok: true, duration_ms: 0, skipped: true },
    ],
    issues: [],
  };

  it('lists pages by section with path and URL, every gate outcome under its profile, and the TruthLock counts', () => {
    const body = pullRequestBody({
      productName: 'X',
      runId: RUN,
      branch: `launch/${RUN}/x`,
      plan,
      report,
      truthLock: { pages: 2, markers: 9, openIssues: 3 },
    });
    expect(body).toBe(
      [
        `Documentation launch of **X** (run \`${RUN}\`, branch \`launch/${RUN}/x\`).`,
        '',
        '## Pages by section',
        '',
        '### products',
        '',
        '- X: `content/products/x.md` (/products/x/)',
        '',
        '### docs',
        '',
        '- Installation: `content/docs/x/install.md` (/docs/x/install/)',
        '',
        '## Gates (local profile)',
        '',
        '- FrontMatter: passed',
        '- TruthLock: failed',
        '- MarkdownLint: skipped (no markdownlint here)',
        '- SiteBuild: skipped (not in this profile)',
        '',
        '## TruthLock',
        '',
        '9 claim markers on 2 pages, each resolving to evidence in the source repository; 3 open TruthLock issues.',
        '',
      ].join('\n'),
    );
  });
});

describe('W9 building blocks', () => {
  it('the Idempotency-Key changes with the run, the branch and the commit, and only with them', () => {
    const key = idempotencyKey(RUN, 'launch/a', 'c1');
    expect(idempotencyKey(RUN, 'launch/a', 'c1')).toBe(key);
    expect(
      new Set([
        key,
        idempotencyKey(`${RUN}x`, 'launch/a', 'c1'),
        idempotencyKey(RUN, 'launch/b', 'c1'),
        idempotencyKey(RUN, 'launch/a', 'c2'),
      ]).size,
    ).toBe(4);
  });

  it('a commit service error never carries a registered secret in its message', () => {
    const secret = 'w9-registered-secret-81f3a0';
    registerSecret(secret);
    const error = commitServiceError(`push to https://x:${secret}@example.org failed`, false);
    expect(error.message).not.toContain(secret);
    expect(error.message).toContain('[REDACTED]');
  });
});

describe('W9 against its repositories and the GitHub pulls endpoint (loopback)', () => {
  let prepared: PreparedRun;
  let remotes = 0;
  const mock = new GithubPullsMock();
  let api: string;
  const pipeline = createLaunchPipeline({
    github: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5, timeoutMs: 5000 },
  });

  beforeAll(async () => {
    prepared = await prepareExampleRun({
      prefix: 'open-pr-rules',
      seedFixableProblem: false,
      through: 'validate',
    });
    api = await mock.start();
  });
  afterAll(async () => {
    await mock.stop();
    await prepared.cleanup();
  });
  afterEach(() => {
    vi.useRealTimers();
    mock.onRequest = undefined;
    mock.requests.length = 0;
    mock.posts.length = 0;
    mock.gets.length = 0;
  });

  async function freshRemote(): Promise<string> {
    remotes += 1;
    const remote = join(prepared.root, `rules-remote-${remotes}.git`);
    await cp(prepared.repos.siteRepo, remote, { recursive: true });
    return remote;
  }

  async function localRun(name: string, config: Partial<RunConfigInput> = {}): Promise<TestContext> {
    return copyRun(prepared, name, { site: { repo: await freshRemote() }, ...config });
  }

  async function githubRun(
    name: string,
    github: Partial<NonNullable<NonNullable<RunConfigInput['pr']>['github']>> = {},
    env: Record<string, string> = { GH_TOKEN: TOKEN },
  ): Promise<TestContext> {
    const ctx = await copyRun(prepared, name, {
      pr: {
        provider: 'github',
        remote: await freshRemote(),
        github: { owner: 'acme', repo: 'site', token_env: 'GH_TOKEN', api_base_url: api, ...github },
      },
    });
    return Object.assign(ctx, { env });
  }

  async function git(ctx: TestContext, ...args: string[]): Promise<string> {
    return (await gitClient(join(ctx.runDir, 'workspace', 'site')).raw(args)).trim();
  }

  function otherBranchRecord(ctx: TestContext): PrRecord {
    return {
      schema_version: '1.0',
      provider: 'local',
      pr_url: 'file:///elsewhere.git#launch/other/tallyho',
      branch: 'launch/other/tallyho',
      commit_sha: 'f'.repeat(40),
      base_ref: 'main',
      base_sha: ctx.artifacts.json<RepoInventory>('repo_inventory.json').site.sha,
      number: null,
      pages: [],
    };
  }

  const posts = () => mock.requests.filter((request) => request.method === 'POST');

  it('sends the GitHub API headers and asks for maintainer edits, under a base URL given with a trailing slash', async () => {
    const ctx = await githubRun('gh-headers', { api_base_url: `${api}/` });
    mock.posts.push({ status: 201, body: { html_url: 'https://github.com/acme/site/pull/1', number: 1 } });
    await pipeline.openPullRequest(ctx);
    const [post] = posts();
    expect(post!.url).toBe('/repos/acme/site/pulls');
    expect(post!.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'switchyard-launch',
    });
    expect(JSON.parse(post!.body)).toMatchObject({ maintainer_can_modify: true });
  });

  it('a 200 with the pull request is the pull request too', async () => {
    const ctx = await githubRun('gh-200');
    mock.posts.push({ status: 200, body: { html_url: 'https://github.com/acme/site/pull/4', number: 4 } });
    expect((await pipeline.openPullRequest(ctx)).pr_url).toBe('https://github.com/acme/site/pull/4');
  });

  it('a 500 is retried like any 5xx, and an exhausted 5xx names the status', async () => {
    const ctx = await githubRun('gh-500');
    mock.posts.push({ status: 500, body: { message: 'oops' } });
    mock.posts.push({ status: 201, body: { html_url: 'https://github.com/acme/site/pull/5', number: 5 } });
    expect((await pipeline.openPullRequest(ctx)).pr_url).toBe('https://github.com/acme/site/pull/5');
    expect(posts()).toHaveLength(2);

    const again = await githubRun('gh-503-status');
    for (let index = 0; index < 3; index += 1) mock.posts.push({ status: 503, body: { message: 'down' } });
    expect(launchErrorPayload(await failure(pipeline.openPullRequest(again))).error).toMatchObject({
      code: 'COMMIT_SERVICE_ERROR',
      retryable: true,
      details: { provider: 'github', status: 503 },
    });
  });

  it("retries a 5xx as often as configured: no circuit breaker cuts a run's own retries short", async () => {
    const ctx = await githubRun('gh-six-attempts');
    for (let index = 0; index < 6; index += 1) mock.posts.push({ status: 503, body: { message: 'down' } });
    const patient = createLaunchPipeline({
      github: { maxAttempts: 6, initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 5000 },
    });
    expect((await failure(patient.openPullRequest(ctx))).details).toMatchObject({ status: 503 });
    expect(posts()).toHaveLength(6);
  });

  it.each([
    ['no html_url', { number: 9 }],
    ['no number', { html_url: 'https://github.com/acme/site/pull/9' }],
    ['a body that is not JSON', 'created'],
  ])(
    'a 201 without a pull request (%s) is a retryable COMMIT_SERVICE_ERROR and writes no pr.json',
    async (_what, body) => {
      const ctx = await githubRun('gh-201-empty');
      mock.posts.push({ status: 201, body });
      const error = await failure(pipeline.openPullRequest(ctx));
      expect(error.message).toContain('without a pull request URL');
      expect(launchErrorPayload(error).error).toMatchObject({
        code: 'COMMIT_SERVICE_ERROR',
        retryable: true,
      });
      expect(ctx.artifacts.files.has('pr.json')).toBe(false);
    },
  );

  it.each([
    [422, 'Validation Failed', 'No commits between main and launch'],
    [404, 'Not Found', 'A pull request already exists'],
  ])(
    'a %i that is not "422 already exists" is a refusal carrying GitHub\'s words, not retryable, and lists nothing',
    async (status, message, detail) => {
      const ctx = await githubRun(`gh-${status}`);
      mock.posts.push({ status, body: { message, errors: [{ message: detail }] } });
      const error = await failure(pipeline.openPullRequest(ctx));
      expect(error.message).toBe(`GitHub refused the pull request (${status}): ${message}: ${detail}`);
      expect(launchErrorPayload(error).error).toMatchObject({
        code: 'COMMIT_SERVICE_ERROR',
        retryable: false,
        details: { provider: 'github', status },
      });
      expect(mock.requests.map((request) => request.method)).toEqual(['POST']);
    },
  );

  it('a refusal whose body is not JSON says only the status', async () => {
    const ctx = await githubRun('gh-html');
    mock.posts.push({ status: 404, body: '<html>not found</html>' });
    expect((await failure(pipeline.openPullRequest(ctx))).message).toBe(
      'GitHub refused the pull request (404)',
    );
  });

  it("GitHub's message is cut to 300 characters, and a token across the cut is redacted before it", async () => {
    const ctx = await githubRun('gh-long');
    mock.posts.push({ status: 400, body: { message: 'y'.repeat(1000) } });
    const long = await failure(pipeline.openPullRequest(ctx));
    expect(long.message).toContain('y'.repeat(300));
    expect(long.message).not.toContain('y'.repeat(301));

    mock.posts.push({ status: 401, body: { message: `${'z'.repeat(292)} ${TOKEN}` } });
    const payload = launchErrorPayload(await failure(pipeline.openPullRequest(ctx)));
    expect(JSON.stringify(payload)).not.toContain(TOKEN.slice(0, 7));
  });

  it('the wait of an exhausted quota is rounded up to whole seconds', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00.500Z'));
    const ctx = await githubRun('gh-quota-round');
    mock.posts.push({
      status: 403,
      body: { message: 'API rate limit exceeded' },
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Date.parse('2026-03-01T12:00:30Z') / 1000),
      },
    });
    const error = launchErrorPayload(await failure(pipeline.openPullRequest(ctx))).error;
    expect(error).toMatchObject({ retryable: true, details: { retry_after_s: 30 } });
  });

  it.each([
    [200, 'an empty list', true, []],
    [200, 'no pull request in it', true, [{ html_url: 42 }]],
    [404, 'Not Found', false, { message: 'Not Found' }],
  ])(
    'after "already exists", a listing answered %i with %s is an error (retryable: %s)',
    async (status, _what, retryable, listing) => {
      const ctx = await githubRun('gh-exists-unlisted');
      mock.posts.push({ status: 422, body: { message: 'A pull request already exists for acme:launch.' } });
      mock.gets.push({ status, body: listing });
      const error = await failure(pipeline.openPullRequest(ctx));
      expect(error.message).toContain('does not list it');
      expect(launchErrorPayload(error).error).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable });
      const get = mock.requests.find((request) => request.method === 'GET')!;
      expect(Object.fromEntries(new URL(get.url, api).searchParams)).toEqual({
        head: `acme:launch/${ctx.runId}/tallyho`,
        state: 'all',
      });
    },
  );

  it('a cancellation while GitHub has the request is CANCELLED, not a commit service failure', async () => {
    const ctx = await githubRun('gh-cancel');
    let release!: () => void;
    mock.posts.push({
      status: 201,
      body: { html_url: 'https://github.com/acme/site/pull/8', number: 8 },
      wait: new Promise<void>((resolve) => (release = resolve)),
    });
    mock.onRequest = () => ctx.controller.abort();
    const error = await failure(pipeline.openPullRequest(ctx));
    release();
    expect(error.code).toBe('CANCELLED');
    expect(ctx.artifacts.files.has('pr.json')).toBe(false);
  });

  it('an empty token variable is as missing as an unset one', async () => {
    const ctx = await githubRun('gh-empty-token', {}, { GH_TOKEN: '' });
    expect(launchErrorPayload(await failure(pipeline.openPullRequest(ctx))).error).toMatchObject({
      code: 'COMMIT_SERVICE_ERROR',
      retryable: false,
      details: { reason: 'token_missing' },
    });
    expect(mock.requests).toHaveLength(0);
  });

  it('the token goes to no plain-http push remote: git is sent no Authorization header', async () => {
    const ctx = await githubRun('gh-http-push');
    ctx.config.pr.remote = `${api}/acme/site.git`;
    mock.gets.push({ status: 404, body: 'no such repository' });
    const error = await failure(pipeline.openPullRequest(ctx));
    expect(error.details).toMatchObject({ step: 'push' });
    expect(mock.requests.length).toBeGreaterThan(0);
    for (const request of mock.requests) expect(request.headers.authorization).toBeUndefined();
  });

  it('a push that cannot reach its remote is retryable and names the remote without its credentials', async () => {
    const closed = new GithubPullsMock();
    const port = new URL(await closed.start()).port;
    await closed.stop();
    const ctx = await localRun('push-unreachable', {
      pr: { provider: 'local', remote: `http://launcher:hunter2-w9@127.0.0.1:${port}/site.git` },
    });
    const payload = launchErrorPayload(await failure(pipeline.openPullRequest(ctx)));
    expect(payload.error).toMatchObject({
      code: 'COMMIT_SERVICE_ERROR',
      retryable: true,
      details: { step: 'push', remote: `http://127.0.0.1:${port}/site.git` },
    });
    expect(JSON.stringify(payload)).not.toContain('hunter2-w9');
  });

  it('a push to a remote whose certificate git will not trust is not retryable', async () => {
    const https = await startUntrustedHttps();
    try {
      const ctx = await localRun('push-untrusted', {
        pr: { provider: 'local', remote: `${https.url}/site.git` },
      });
      const error = await failure(pipeline.openPullRequest(ctx));
      expect(launchErrorPayload(error).error).toMatchObject({
        code: 'COMMIT_SERVICE_ERROR',
        retryable: false,
        details: { step: 'push' },
      });
      expect(error.message).toMatch(/certificate (problem|verification failed)/);
    } finally {
      await https.close();
    }
  });

  it('a push still running after gitTimeoutMs is stopped: retryable, naming the setting', async () => {
    const held: ServerResponse[] = [];
    const stalling = createServer((_request, response) => held.push(response));
    await new Promise<void>((done) => stalling.listen(0, '127.0.0.1', done));
    try {
      const { port } = stalling.address() as AddressInfo;
      const ctx = await localRun('push-stalled', {
        pr: { provider: 'local', remote: `http://127.0.0.1:${port}/site.git` },
      });
      const error = await failure(createLaunchPipeline({ gitTimeoutMs: 1000 }).openPullRequest(ctx));
      expect(launchErrorPayload(error).error).toMatchObject({
        code: 'COMMIT_SERVICE_ERROR',
        retryable: true,
        details: { step: 'push', remote: `http://127.0.0.1:${port}/site.git` },
      });
      expect(error.message).toContain('took longer than 1000 ms (LAUNCH_GIT_TIMEOUT_MS)');
      expect(held.length).toBeGreaterThan(0);
    } finally {
      stalling.closeAllConnections();
      await new Promise((done) => stalling.close(done));
    }
  });

  it.each([
    [403, false],
    [404, false],
    [429, true],
    [503, true],
  ])(
    'a push the remote answers with %i is retryable: %s (a refusal is not a network failure)',
    async (status, retryable) => {
      const ctx = await localRun(`push-answered-${status}`, {
        pr: { provider: 'local', remote: `${api}/acme/site.git` },
      });
      mock.gets.push({ status, body: 'answered' });
      expect(launchErrorPayload(await failure(pipeline.openPullRequest(ctx))).error).toMatchObject({
        code: 'COMMIT_SERVICE_ERROR',
        retryable,
        details: { step: 'push' },
      });
    },
  );

  it('a missing launch branch is a non-retryable error naming it', async () => {
    const ctx = await localRun('no-branch');
    const branch = `launch/${ctx.runId}/tallyho`;
    await git(ctx, 'checkout', '--quiet', '--detach');
    await git(ctx, 'branch', '-D', branch);
    const error = await failure(pipeline.openPullRequest(ctx));
    expect(error.message).toContain(`The launch branch ${branch} is missing`);
    expect(launchErrorPayload(error).error).toMatchObject({ code: 'COMMIT_SERVICE_ERROR', retryable: false });
  });

  it('a commit git cannot make (a stale index.lock) is a non-retryable error of the commit step', async () => {
    const ctx = await localRun('index-lock');
    await writeFile(join(ctx.runDir, 'workspace', 'site', '.git', 'index.lock'), '');
    const error = await failure(pipeline.openPullRequest(ctx));
    expect(error.message).toContain('Committing the launch failed');
    expect(launchErrorPayload(error).error).toMatchObject({
      code: 'COMMIT_SERVICE_ERROR',
      retryable: false,
      details: { step: 'commit' },
    });
  });

  it('the default commit message lists the pages and names the run; pr.json records base and pages', async () => {
    const ctx = await localRun('message');
    const result = await pipeline.openPullRequest(ctx);
    const plan = ctx.artifacts.json<PagePlan>('page_plan.json');
    const pages = plan.pages.map((page) => page.path);
    expect(await git(ctx, 'log', '-1', '--format=%B', result.commit_sha)).toBe(
      [
        'Launch Tallyho documentation',
        '',
        ...pages.map((path) => `- ${path}`),
        '',
        `Launch run: ${ctx.runId}`,
      ].join('\n'),
    );
    const inventory = ctx.artifacts.json<RepoInventory>('repo_inventory.json');
    expect(ctx.artifacts.json<PrRecord>('pr.json')).toEqual({
      schema_version: '1.0',
      provider: 'local',
      pr_url: result.pr_url,
      branch: result.branch,
      commit_sha: result.commit_sha,
      base_ref: 'main',
      base_sha: inventory.site.sha,
      number: null,
      pages,
    });
  });

  it.each([
    ['records another branch', (ctx: TestContext) => JSON.stringify(otherBranchRecord(ctx))],
    ['does not parse as a PR record', () => '{"not":"a pr record"}'],
  ])('a pr.json that %s is not the answer: W9 runs', async (_what, recorded) => {
    const ctx = await localRun(`stale-pr-json-${remotes}`);
    await ctx.artifacts.write('pr.json', recorded(ctx));
    const result = await pipeline.openPullRequest(ctx);
    expect(result.branch).toBe(`launch/${ctx.runId}/tallyho`);
    expect(ctx.artifacts.json<PrRecord>('pr.json')).toMatchObject({
      branch: result.branch,
      commit_sha: result.commit_sha,
    });
  });

  it('the body counts the claim markers of the pages and only the open TruthLock issues', async () => {
    const github = await githubRun('gh-body-counts');
    const plan = github.artifacts.json<PagePlan>('page_plan.json');
    const site = join(github.runDir, 'workspace', 'site');
    let markers = 0;
    for (const page of plan.pages) {
      markers +=
        (await readFile(join(site, ...page.path.split('/')), 'utf8')).split('<!-- claim_id:').length - 1;
    }
    const report = github.artifacts.json<ValidationReport>('validation_report.json');
    const issue = (
      gate: ValidationIssue['gate'],
      status: ValidationIssue['status'],
      id: string,
    ): ValidationIssue => ({
      issue_id: id,
      gate,
      severity: 'warn',
      error_code: 'SOMETHING',
      message: 'm',
      location: { path: plan.pages[0]!.path, line: 1 },
      status,
      suggested_fix: null,
    });
    report.issues = [
      issue('TruthLock', 'OPEN', 'a'),
      issue('TruthLock', 'RESOLVED', 'b'),
      issue('Consistency', 'OPEN', 'c'),
    ];
    await github.artifacts.write('validation_report.json', JSON.stringify(report));
    mock.posts.push({ status: 201, body: { html_url: 'https://github.com/acme/site/pull/2', number: 2 } });
    await pipeline.openPullRequest(github);
    const body = (JSON.parse(posts()[0]!.body) as { body: string }).body;
    expect(markers).toBeGreaterThan(0);
    expect(body).toContain(
      `${markers} claim markers on ${plan.pages.length} pages, each resolving to evidence in the source repository; 1 open TruthLock issues.`,
    );
  });

  async function committedFiles(ctx: TestContext, files: Record<string, string>): Promise<string[]> {
    const site = join(ctx.runDir, 'workspace', 'site');
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(site, path)), { recursive: true });
      await writeFile(join(site, path), content);
    }
    const result = await pipeline.openPullRequest(ctx);
    return (await git(ctx, 'show', '--name-only', '--format=', result.commit_sha)).split('\n').sort();
  }

  const PAGES = [
    'content/docs/tallyho/getting-started.md',
    'content/docs/tallyho/installation.md',
    'content/docs/tallyho/usage.md',
    'content/products/tallyho.md',
  ];

  it('only changes inside allowed_paths are committed, judged file by file, also inside a new folder', async () => {
    const ctx = await localRun('outside-allowed', {
      allowed_paths: ['content/products/**', 'content/docs/**/*.md'],
    });
    const files = await committedFiles(ctx, {
      'evil.sh': 'echo pwned\n',
      'content/docs/tallyho/build.sh': 'echo pwned\n',
      'content/docs/tallyho/extra/guide.md': '# Guide\n',
      'content/docs/tallyho/extra/run.sh': 'echo pwned\n',
    });
    expect(files).toEqual([...PAGES.slice(0, 3), 'content/docs/tallyho/extra/guide.md', PAGES[3]].sort());
  });

  it('an allowed path named like a glob stages that path only, also when the launch deletes it', async () => {
    const ctx = await localRun('glob-name', {
      allowed_paths: ['content/products/**', 'content/docs/*/*.md'],
    });
    // A site file named `*.md` (committed here as a base would have it) that the launch deletes.
    const named = join(ctx.runDir, 'workspace', 'site', 'content', 'docs', 'tallyho', '*.md');
    await mkdir(dirname(named), { recursive: true });
    await writeFile(named, 'a file named *.md\n');
    await git(ctx, 'add', '--', ':(literal)content/docs/tallyho/*.md');
    await git(ctx, '-c', 'user.name=T', '-c', 'user.email=t@example.org', 'commit', '-q', '-m', 'base');
    await rm(named);
    const files = await committedFiles(ctx, { 'content/docs/tallyho/deep/evil.md': 'not allowed\n' });
    expect(files).toEqual([...PAGES, 'content/docs/tallyho/*.md'].sort());
  });

  it('nothing to commit inside allowed_paths, with HEAD at the base, is nothing_to_commit and pushes nothing', async () => {
    const ctx = await localRun('nothing');
    const site = join(ctx.runDir, 'workspace', 'site');
    await git(ctx, 'clean', '-fdq', '--', 'content');
    await git(ctx, 'checkout', '--quiet', '--', '.');
    await mkdir(join(site, 'scripts'), { recursive: true });
    await writeFile(join(site, 'scripts', 'evil.sh'), 'echo pwned\n');
    const error = await failure(pipeline.openPullRequest(ctx));
    expect(launchErrorPayload(error).error).toMatchObject({
      code: 'COMMIT_SERVICE_ERROR',
      retryable: false,
      details: { reason: 'nothing_to_commit' },
    });
    expect(await git(ctx, 'log', '-1', '--format=%H')).toBe(
      ctx.artifacts.json<RepoInventory>('repo_inventory.json').site.sha,
    );
    await expect(
      gitClient(ctx.config.site.repo).raw([
        'rev-parse',
        '--verify',
        `refs/heads/launch/${ctx.runId}/tallyho`,
      ]),
    ).rejects.toThrow();
  });
});
