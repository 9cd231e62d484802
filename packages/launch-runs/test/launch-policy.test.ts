import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RunConfigInput } from '@switchyard/contracts/launch-runs';
import { errorOf } from '@switchyard/server-kit/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LaunchRunsConfigSchema, loadLaunchRunsConfig, type LaunchRunsConfigInput } from '../src/config.js';
import { materializeExampleRepos, type ExampleRepos } from '../src/pipeline/index.js';
import { GithubPullsMock } from './pipeline/github-mock.js';
import { FakePipeline } from './support/fake-pipeline.js';
import {
  atRest,
  runConfig,
  startAndSettle,
  startHarness,
  tempDir,
  waitForStatus,
  type Harness,
} from './support/harness.js';
import { exampleReposWithSite, markerScript } from './support/hostile-site.js';
import { exampleConfig, fixUntilReady, git } from './support/launch-flow.js';

/**
 * The operator decides, the caller chooses within it: a run_config may only name local repositories under
 * LAUNCH_REPO_ROOTS (default: the data directory), network repositories on LAUNCH_REMOTE_HOSTS, a PR token
 * variable of LAUNCH_PR_TOKEN_ENV (none by default, never a server secret) and a GitHub API of
 * LAUNCH_GITHUB_API_URLS. Everything else is INVALID_INPUT naming the policy and its setting, before any
 * run is recorded, and again right before W1 and W9.
 */
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The checkout this server runs from (the repository around the package, else the package itself). */
function serverCheckoutDir(): string {
  for (let dir = packageDir; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return packageDir;
  }
}
const serverCheckout = serverCheckoutDir();
const TOKEN_ENV = 'LAUNCH_POLICY_TEST_TOKEN';
const TOKEN = 'SENTINEL-policy-token-Xv81';
const SERVER_TOKEN = 'SENTINEL-server-token-Lq52';

const outside = tempDir('policy-outside');
let outsideRepos: ExampleRepos;
let github: GithubPullsMock;
let githubUrl: string;

beforeAll(async () => {
  process.env[TOKEN_ENV] = TOKEN;
  process.env.SWITCHYARD_TOKEN = SERVER_TOKEN;
  outsideRepos = await materializeExampleRepos(path.join(outside, 'repos'));
  github = new GithubPullsMock();
  githubUrl = await github.start();
});

afterAll(async () => {
  delete process.env[TOKEN_ENV];
  delete process.env.SWITCHYARD_TOKEN;
  await github.stop();
  fs.rmSync(outside, { recursive: true, force: true });
});

function expectRefused(
  payload: Record<string, unknown>,
  reason: string,
  setting: string,
  field: string,
): void {
  const error = errorOf(payload, 'INVALID_INPUT');
  expect(error.details).toMatchObject({ reason, setting, field });
  expect(error.message).toContain(setting);
  expect(error.retryable).toBe(false);
}

async function runCount(h: Harness): Promise<number> {
  return ((await h.call('launch_list_runs', {})).structured.runs as unknown[]).length;
}

describe(
  'local repositories: only under LAUNCH_REPO_ROOTS (default: the data directory)',
  { timeout: 120_000 },
  () => {
    let h: Harness;
    let inside: ExampleRepos;

    beforeAll(async () => {
      // No repoRoots: the server's own default, its data directory.
      h = await startHarness({ config: { repoRoots: undefined } });
      inside = await materializeExampleRepos(path.join(h.dataDir, 'repos'));
    });
    afterAll(() => h.close());

    const cases: [string, () => Partial<RunConfigInput>, string][] = [
      [
        'a repository elsewhere on the disk',
        () => ({ source: { repo: outsideRepos.sourceRepo } }),
        'source.repo',
      ],
      ["the server's own checkout", () => ({ source: { repo: serverCheckout } }), 'source.repo'],
      [
        'a file:// URL of a repository elsewhere',
        () => ({ site: { repo: pathToFileURL(outsideRepos.siteRepo).href } }),
        'site.repo',
      ],
      [
        'a path inside the root that climbs out of it',
        () => ({
          source: {
            repo: path.join(h.dataDir, 'repos', '..', '..', path.basename(outside), 'repos', 'tallyho'),
          },
        }),
        'source.repo',
      ],
      [
        'a file:// URL on another host, whatever its path',
        () => ({ site: { repo: `file://otherhost${path.join(h.dataDir, 'repos', 'site')}` } }),
        'site.repo',
      ],
      [
        'an unrelated repository as pr.remote',
        () => ({ pr: { provider: 'local', remote: outsideRepos.siteRepo } }),
        'pr.remote',
      ],
    ];
    for (const [what, overrides, field] of cases) {
      it(`refuses ${what}: INVALID_INPUT repo_outside_allowed_roots, nothing recorded`, async () => {
        const before = await runCount(h);
        const payload = (await h.call('launch_start_run', { run_config: exampleConfig(inside, overrides()) }))
          .structured;
        expectRefused(payload, 'repo_outside_allowed_roots', 'LAUNCH_REPO_ROOTS', field);
        expect(await runCount(h)).toBe(before);
      });
    }

    it('refuses a symlink inside the root that leads to a repository outside it', async () => {
      const link = path.join(h.dataDir, 'repos', 'elsewhere');
      fs.symlinkSync(outsideRepos.sourceRepo, link);
      const payload = (
        await h.call('launch_start_run', {
          run_config: exampleConfig(inside, { source: { repo: link } }),
        })
      ).structured;
      expectRefused(payload, 'repo_outside_allowed_roots', 'LAUNCH_REPO_ROOTS', 'source.repo');
    });

    it("refuses a repository inside a run's own folders, although they are under the root", async () => {
      // A caller's site can carry a bare repository with a hook as plain files; W1 checks it out in the run's
      // worktree, where a push from a later run would run that hook.
      const marker = path.join(outside, 'hook-ran');
      const hostile = await exampleReposWithSite(path.join(h.dataDir, 'hostile'), {
        'evil.git/HEAD': 'ref: refs/heads/main\n',
        'evil.git/config': '[core]\n\tbare = true\n',
        'evil.git/objects/.keep': '',
        'evil.git/refs/heads/.keep': '',
        'evil.git/hooks/pre-receive': markerScript(marker),
      });
      const first = (await h.call('launch_start_run', { run_config: exampleConfig(hostile) })).structured;
      await waitForStatus(h, first.run_id as string, atRest);
      const planted = path.join(
        h.dataDir,
        'launch-runs',
        'runs',
        first.run_id as string,
        'workspace',
        'site',
        'evil.git',
      );
      expect(git(planted, 'rev-parse', '--is-bare-repository').trim()).toBe('true');

      const payload = (
        await h.call('launch_start_run', {
          run_config: exampleConfig(inside, { pr: { provider: 'local', remote: planted } }),
        })
      ).structured;
      const error = errorOf(payload, 'INVALID_INPUT');
      expect(error.details).toMatchObject({ reason: 'repo_in_run_workspace', field: 'pr.remote' });
      expect(fs.existsSync(marker)).toBe(false);
    });

    it('the unrelated repository named as pr.remote received no branch', () => {
      expect(git(outsideRepos.siteRepo, 'branch', '--list', 'launch/*').trim()).toBe('');
    });

    it('repositories inside the root work, and a pr.remote inside it receives the branch', async () => {
      const remote = path.join(h.dataDir, 'repos', 'mirror.git');
      git(h.dataDir, 'clone', '--quiet', '--bare', '--', inside.siteRepo, remote);
      const started = (
        await h.call('launch_start_run', {
          run_config: exampleConfig(inside, { pr: { provider: 'local', remote } }),
        })
      ).structured;
      expect(started.ok, JSON.stringify(started)).toBe(true);
      const runId = started.run_id as string;
      expect((await waitForStatus(h, runId, atRest)).state).toBe('VALIDATING');
      await fixUntilReady(h, runId);
      const opened = (await h.call('launch_open_pr', { run_id: runId })).structured;
      expect(opened.ok, JSON.stringify(opened)).toBe(true);
      expect(git(remote, 'branch', '--list', 'launch/*').trim()).toBe(`launch/${runId}/tallyho`);
    });
  },
);

describe('network repositories, the PR token and the GitHub API', { timeout: 120_000 }, () => {
  let h: Harness;
  let repos: ExampleRepos;
  const dataDir = tempDir('policy-pr');

  beforeAll(async () => {
    repos = await materializeExampleRepos(path.join(dataDir, 'repos'));
    h = await startHarness({ dataDir, config: { repoRoots: undefined, prTokenEnv: [TOKEN_ENV] } });
  });
  afterAll(async () => {
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const githubPr = (token_env: string, api_base_url?: string): Partial<RunConfigInput> => ({
    pr: {
      provider: 'github',
      github: { owner: 'acme', repo: 'site', token_env, ...(api_base_url ? { api_base_url } : {}) },
    },
  });

  for (const secret of ['SWITCHYARD_TOKEN', 'TFL_API_KEY', 'DIGITRANSIT_SUBSCRIPTION_KEY', 'HOME']) {
    it(`token_env ${secret} with the caller's api_base_url: refused, the listener receives nothing`, async () => {
      const payload = (
        await h.call('launch_start_run', {
          run_config: exampleConfig(repos, githubPr(secret, githubUrl)),
        })
      ).structured;
      expectRefused(payload, 'token_env_not_allowed', 'LAUNCH_PR_TOKEN_ENV', 'pr.github.token_env');
      expect(JSON.stringify(payload)).not.toContain(SERVER_TOKEN);
      expect(github.requests).toEqual([]);
    });
  }

  it("an allowed token_env still only goes to an allowed API: the caller's URL is refused", async () => {
    const payload = (
      await h.call('launch_start_run', {
        run_config: exampleConfig(repos, githubPr(TOKEN_ENV, `${githubUrl}/`)),
      })
    ).structured;
    expectRefused(payload, 'api_base_url_not_allowed', 'LAUNCH_GITHUB_API_URLS', 'pr.github.api_base_url');
    expect(github.requests).toEqual([]);
  });

  for (const [what, api] of [
    ['over plain http', 'http://api.github.com'],
    ['under another path', 'https://api.github.com/some/proxy'],
  ]) {
    it(`the default GitHub API ${what} is another API: refused`, async () => {
      const payload = (
        await h.call('launch_start_run', {
          run_config: exampleConfig(repos, githubPr(TOKEN_ENV, api)),
        })
      ).structured;
      expectRefused(payload, 'api_base_url_not_allowed', 'LAUNCH_GITHUB_API_URLS', 'pr.github.api_base_url');
    });
  }

  it('an https push remote on a host that is not allowed is refused', async () => {
    const payload = (
      await h.call('launch_start_run', {
        run_config: exampleConfig(repos, {
          pr: { ...githubPr(TOKEN_ENV).pr!, remote: 'https://127.0.0.1:9/acme/site.git' },
        }),
      })
    ).structured;
    expectRefused(payload, 'remote_host_not_allowed', 'LAUNCH_REMOTE_HOSTS', 'pr.remote');
  });

  it('a source on a host that is not allowed is refused (scp-like and URL forms)', async () => {
    for (const repo of ['https://git.internal.example/acme/product.git', 'git@10.0.0.7:acme/product.git']) {
      const payload = (
        await h.call('launch_start_run', {
          run_config: exampleConfig(repos, { source: { repo } }),
        })
      ).structured;
      expectRefused(payload, 'remote_host_not_allowed', 'LAUNCH_REMOTE_HOSTS', 'source.repo');
    }
  });

  // github.com to the policy's WHATWG parser, the mock's loopback address to curl (git's http transport).
  const hostReadTwoWays = (repoPath: string) => `http://github.com\\@${new URL(githubUrl).host}/${repoPath}`;

  it('a source or push remote whose host git would read as another is refused; nothing reaches that host', async () => {
    for (const [field, runConfig] of [
      ['source.repo', { source: { repo: hostReadTwoWays('acme/product.git') } }],
      ['pr.remote', { pr: { ...githubPr(TOKEN_ENV).pr!, remote: hostReadTwoWays('acme/site.git') } }],
    ] as const) {
      const before = await runCount(h);
      const payload = (await h.call('launch_start_run', { run_config: exampleConfig(repos, runConfig) }))
        .structured;
      expect(errorOf(payload, 'INVALID_INPUT').details).toEqual({ field, reason: 'ambiguous_url' });
      expect(await runCount(h)).toBe(before);
    }
    expect(github.requests).toEqual([]);
  });

  it('a run recorded under a wider policy cannot send its token once the policy is narrowed (W9 checks again)', async () => {
    await h.close();
    const wide = await startHarness({
      dataDir,
      config: { repoRoots: undefined, prTokenEnv: [TOKEN_ENV], githubApiUrls: [githubUrl] },
    });
    let runId: string;
    try {
      const started = (
        await wide.call('launch_start_run', {
          run_config: exampleConfig(repos, githubPr(TOKEN_ENV, githubUrl)),
        })
      ).structured;
      expect(started.ok, JSON.stringify(started)).toBe(true);
      runId = started.run_id as string;
      await waitForStatus(wide, runId, atRest);
      await fixUntilReady(wide, runId);
      expect(
        ((await wide.call('launch_get_status', { run_id: runId })).structured.status as { state: string })
          .state,
      ).toBe('READY_FOR_PR');
    } finally {
      await wide.close();
    }
    h = await startHarness({ dataDir, config: { repoRoots: undefined, prTokenEnv: [TOKEN_ENV] } });
    const payload = (await h.call('launch_open_pr', { run_id: runId })).structured;
    expectRefused(payload, 'api_base_url_not_allowed', 'LAUNCH_GITHUB_API_URLS', 'pr.github.api_base_url');
    expect(github.requests).toEqual([]);
    expect(git(repos.siteRepo, 'branch', '--list', 'launch/*').trim()).toBe('');
  });
});

describe(
  'a run recorded under a wider policy clones nothing once it is narrowed',
  { timeout: 60_000 },
  () => {
    // The runs' repositories are in the OS temp folder, allowed where they start (the harness's roots); after
    // the restart only the data directory is (the default), so the run must not reach them again.
    let dataDir: string;
    let h: Harness | undefined;
    beforeEach(() => {
      dataDir = tempDir('policy-narrowed');
    });
    afterEach(async () => {
      await h?.close();
      h = undefined;
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const workspaceOf = (runId: string) => path.join(dataDir, 'launch-runs', 'runs', runId, 'workspace');

    async function restartNarrowed(): Promise<{ narrowed: Harness; pipeline: FakePipeline }> {
      await h?.close();
      const pipeline = new FakePipeline({ seededProblems: 1 });
      h = await startHarness({ dataDir, pipeline, config: { repoRoots: undefined } });
      return { narrowed: h, pipeline };
    }

    it('W1 of a run interrupted before it cloned is refused on resume', async () => {
      const wide = new FakePipeline();
      const held = wide.hold('W1');
      h = await startHarness({ dataDir, pipeline: wide });
      const started = (await h.call('launch_start_run', { run_config: runConfig() })).structured;
      expect(started.ok, JSON.stringify(started)).toBe(true);
      const runId = started.run_id as string;
      await held.reached;

      const { narrowed, pipeline } = await restartNarrowed();
      const payload = (await narrowed.call('launch_resume', { run_id: runId })).structured;
      expectRefused(payload, 'repo_outside_allowed_roots', 'LAUNCH_REPO_ROOTS', 'source.repo');
      expect(pipeline.calls).toEqual([]);
      expect(fs.existsSync(workspaceOf(runId))).toBe(false);
    });

    it('the workspace restore a fix needs is refused, and nothing is cloned back', async () => {
      h = await startHarness({ dataDir, pipeline: new FakePipeline({ seededProblems: 1 }) });
      const { runId, status } = await startAndSettle(h);
      expect(status.state).toBe('VALIDATING');
      fs.rmSync(workspaceOf(runId), { recursive: true });

      const { narrowed, pipeline } = await restartNarrowed();
      const payload = (await narrowed.call('launch_fix_next', { run_id: runId })).structured;
      expectRefused(payload, 'repo_outside_allowed_roots', 'LAUNCH_REPO_ROOTS', 'source.repo');
      expect(pipeline.calls).toEqual([]);
      expect(fs.existsSync(workspaceOf(runId))).toBe(false);
    });
  },
);

describe('LAUNCH_PR_TOKEN_ENV unset: no variable is a PR token', () => {
  it('refuses GITHUB_TOKEN, with the default GitHub API', async () => {
    const h = await startHarness();
    try {
      const payload = (
        await h.call('launch_start_run', {
          run_config: runConfig({
            pr: { provider: 'github', github: { owner: 'acme', repo: 'site', token_env: 'GITHUB_TOKEN' } },
          }),
        })
      ).structured;
      expectRefused(payload, 'token_env_not_allowed', 'LAUNCH_PR_TOKEN_ENV', 'pr.github.token_env');
    } finally {
      await h.close();
    }
  });
});

describe('what the operator allows, a run may name', { timeout: 60_000 }, () => {
  const base = tempDir('policy-allowed');
  const real = path.join(base, 'real');
  const link = path.join(base, 'link');
  beforeAll(() => {
    fs.mkdirSync(real);
    fs.symlinkSync(real, link);
  });
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
  const localRepos = () => ({
    source: { repo: path.join(real, 'product') },
    site: { repo: path.join(real, 'site') },
  });

  const cases: [string, () => Partial<LaunchRunsConfigInput>, () => Partial<RunConfigInput>][] = [
    [
      'repositories on the default hosts (URL and scp-like)',
      () => ({}),
      () => ({
        source: { repo: 'https://github.com/acme/product.git' },
        site: { repo: 'git@gitlab.com:acme/site.git' },
      }),
    ],
    [
      'an allowed host spelled in capitals',
      () => ({}),
      () => ({ source: { repo: 'git@GitHub.com:acme/product.git' } }),
    ],
    [
      'repositories under the second of two roots',
      () => ({ repoRoots: [path.join(base, 'elsewhere'), real] }),
      localRepos,
    ],
    [
      'repositories that are roots themselves',
      () => ({ repoRoots: [path.join(real, 'product'), path.join(real, 'site')] }),
      localRepos,
    ],
    ['repositories under a root named through a symlink', () => ({ repoRoots: [link] }), localRepos],
    [
      'a GitHub API the operator listed with a trailing slash',
      () => ({ githubApiUrls: ['https://ghe.example.org/api/v3/'], prTokenEnv: [TOKEN_ENV] }),
      () => ({
        pr: {
          provider: 'github',
          github: {
            owner: 'acme',
            repo: 'site',
            token_env: TOKEN_ENV,
            api_base_url: 'https://ghe.example.org/api/v3',
          },
        },
      }),
    ],
  ];
  for (const [what, config, overrides] of cases) {
    it(`starts a run naming ${what}, and W1 runs`, async () => {
      const pipeline = new FakePipeline();
      const h = await startHarness({ pipeline, config: config() });
      try {
        const started = (await h.call('launch_start_run', { run_config: runConfig(overrides()) })).structured;
        expect(started.ok, JSON.stringify(started)).toBe(true);
        const status = await waitForStatus(h, started.run_id as string, atRest);
        expect(status.details.error).toBeUndefined();
        expect(pipeline.calls).toContain('W1');
      } finally {
        await h.close();
      }
    });
  }
});

describe('the policy comes from the operator: LAUNCH_* variables, checked at start', () => {
  const dataDir = tempDir('policy-config');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) =>
    loadLaunchRunsConfig({ SWITCHYARD_DATA_DIR: dataDir, ...env });

  it('reads every setting; `none` is the empty list', () => {
    expect(
      load({
        LAUNCH_REPO_ROOTS: '/srv/repos, /home/docs/sites',
        LAUNCH_REMOTE_HOSTS: 'GitHub.com,git.example.org',
        LAUNCH_GITHUB_API_URLS: 'https://ghe.example.org/api/v3',
        LAUNCH_PR_TOKEN_ENV: 'GITHUB_TOKEN,DOCS_BOT_TOKEN',
        LAUNCH_HUGO_EXEC_ALLOW: 'postcss',
        LAUNCH_HUGO_HTTP_URLS: 'none',
        LAUNCH_SITE_BUILD_TIMEOUT_MS: '60000',
        LAUNCH_SITE_BUILD_MAX_OUTPUT_BYTES: '10485760',
      }),
    ).toMatchObject({
      repoRoots: ['/srv/repos', '/home/docs/sites'],
      remoteHosts: ['github.com', 'git.example.org'],
      githubApiUrls: ['https://ghe.example.org/api/v3'],
      prTokenEnv: ['GITHUB_TOKEN', 'DOCS_BOT_TOKEN'],
      hugoExecAllow: ['postcss'],
      hugoHttpUrls: [],
      siteBuildTimeoutMs: 60_000,
      siteBuildMaxOutputBytes: 10_485_760,
    });
  });

  it.each(['SWITCHYARD_TOKEN', 'TFL_API_KEY', 'DIGITRANSIT_SUBSCRIPTION_KEY'])(
    'LAUNCH_PR_TOKEN_ENV naming the server secret %s stops the start, naming both variables',
    (secret) => {
      expect(() => load({ LAUNCH_PR_TOKEN_ENV: `GITHUB_TOKEN,${secret}` })).toThrow(
        new RegExp(`LAUNCH_PR_TOKEN_ENV: "${secret}" is a secret of this server`),
      );
      // An embedding that builds its configuration in code is held to the same rule.
      expect(() => LaunchRunsConfigSchema.parse({ prTokenEnv: [secret] })).toThrow(/secret of this server/);
    },
  );

  it.each([
    [{ LAUNCH_REPO_ROOTS: 'relative/repos' }, 'LAUNCH_REPO_ROOTS'],
    [{ LAUNCH_REMOTE_HOSTS: 'https://github.com' }, 'LAUNCH_REMOTE_HOSTS'],
    [{ LAUNCH_GITHUB_API_URLS: 'api.github.com' }, 'LAUNCH_GITHUB_API_URLS'],
    [{ LAUNCH_PR_TOKEN_ENV: 'github-token' }, 'LAUNCH_PR_TOKEN_ENV'],
    [{ LAUNCH_HUGO_EXEC_ALLOW: '/usr/bin/postcss' }, 'LAUNCH_HUGO_EXEC_ALLOW'],
    [{ LAUNCH_SITE_BUILD_MAX_OUTPUT_BYTES: '10' }, 'LAUNCH_SITE_BUILD_MAX_OUTPUT_BYTES'],
  ])('a wrong value stops the start naming the variable (%j)', (env, variable) => {
    expect(() => load(env)).toThrow(variable);
  });
});
