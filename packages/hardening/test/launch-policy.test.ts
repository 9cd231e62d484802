import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../src/harness/mcp-client.js';
import { PACKAGE_DIR } from '../src/harness/paths.js';
import { spawnSwitchyard } from '../src/harness/switchyard.js';
import { removeTempDir, tempDir } from '../src/harness/temp.js';
import { serverEnv } from '../src/harness/upstreams.js';
import { startWorld, type World } from '../src/harness/world.js';
import { exampleRepos, launchCall, runConfig, waitForRest, type LaunchRepos } from '../src/launch.js';
import { GITHUB_TOKEN_ENV } from '../src/sentinels.js';

/**
 * Issue #11 against the built combined server, with every sentinel secret in its environment: a caller
 * tries to send the server's secrets to its own listener, to use the server's own checkout and unrelated
 * local repositories, and to make a hostile hugo site run its own postcss or print SWITCHYARD_TOKEN.
 * The operator's policy refuses each with INVALID_INPUT naming the setting, the listener hears nothing, and
 * no sentinel reaches an answer, an artifact or a log line.
 */
let world: World;
let repos: LaunchRepos;
let attacker: http.Server;
let attackerUrl: string;
const heard: string[] = [];
const outside = tempDir('launch-policy-outside');

beforeAll(async () => {
  world = await startWorld({ name: 'launch-policy' });
  repos = await exampleRepos(path.join(world.dataDir, 'repos'));
  attacker = http.createServer((request, response) => {
    heard.push(`${request.method} ${request.url} ${JSON.stringify(request.headers)}`);
    response.writeHead(201, { 'content-type': 'application/json' }).end('{"number":1,"html_url":"x"}');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await world?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  removeTempDir(outside);
});

/** launch_start_run with `config`; the answer must be INVALID_INPUT with this policy reason and setting. */
async function expectRefused(config: Record<string, unknown>, reason: string, setting: string) {
  const answer = await callTool(world.client, 'launch_start_run', { run_config: config });
  world.scanner.scan('launch_start_run refusal', answer);
  expect(answer.isError, JSON.stringify(answer.structured)).toBe(true);
  expect(answer.structured).toMatchObject({
    ok: false,
    error: { code: 'INVALID_INPUT', retryable: false, details: { reason, setting } },
  });
}

function githubPr(tokenEnv: string, apiBaseUrl: string, remote?: string) {
  return {
    provider: 'github',
    ...(remote === undefined ? {} : { remote }),
    github: { owner: 'attacker', repo: 'loot', token_env: tokenEnv, api_base_url: apiBaseUrl },
  };
}

describe('the PR token cannot be sent anywhere the operator did not allow', () => {
  const cases: [string, () => Record<string, unknown>, string, string][] = [
    ...['SWITCHYARD_TOKEN', 'TFL_API_KEY', 'DIGITRANSIT_SUBSCRIPTION_KEY'].map(
      (secret): [string, () => Record<string, unknown>, string, string] => [
        `token_env ${secret} with the caller's api_base_url`,
        () => githubPr(secret, attackerUrl),
        'token_env_not_allowed',
        'LAUNCH_PR_TOKEN_ENV',
      ],
    ),
    [
      "the operator's own token variable with the caller's api_base_url",
      () => githubPr(GITHUB_TOKEN_ENV, attackerUrl),
      'api_base_url_not_allowed',
      'LAUNCH_GITHUB_API_URLS',
    ],
    [
      "the operator's token with an https push remote on the caller's host",
      () =>
        githubPr(
          GITHUB_TOKEN_ENV,
          world.upstreams.github.url,
          `${attackerUrl.replace('http:', 'https:')}/loot.git`,
        ),
      'remote_host_not_allowed',
      'LAUNCH_REMOTE_HOSTS',
    ],
  ];
  for (const [what, pr, reason, setting] of cases) {
    it(`${what}: INVALID_INPUT ${reason}, the listener hears nothing`, async () => {
      await expectRefused({ ...runConfig(repos), pr: pr() }, reason, setting);
      expect(heard).toEqual([]);
    });
  }
});

describe('local repositories only under LAUNCH_REPO_ROOTS (by default the data directory)', () => {
  /** The checkout the server was built from. */
  const checkout = execFileSync('git', ['rev-parse', '--show-toplevel'], {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
  }).trim();

  it("the server's own checkout as source.repo: refused", async () => {
    await expectRefused(
      { ...runConfig(repos), source: { repo: checkout } },
      'repo_outside_allowed_roots',
      'LAUNCH_REPO_ROOTS',
    );
  });

  it('an unrelated local repository as pr.remote: refused, and it receives no branch', async () => {
    const unrelated = path.join(outside, 'unrelated.git');
    execFileSync('git', ['init', '--quiet', '--bare', unrelated]);
    await expectRefused(
      { ...runConfig(repos), pr: { provider: 'local', remote: unrelated } },
      'repo_outside_allowed_roots',
      'LAUNCH_REPO_ROOTS',
    );
    expect(execFileSync('git', ['-C', unrelated, 'for-each-ref'], { encoding: 'utf8' })).toBe('');
  });
});

const hugo = spawnSync('hugo', ['version'], { encoding: 'utf8' });
const hugoMissing = hugo.error !== undefined || hugo.status !== 0;
if (hugoMissing) console.log('launch-policy: the hostile hugo site is skipped, hugo is not installed');

/** The example site with `files` added and committed, as a bare repository under the data directory. */
function hostileSite(name: string, files: Record<string, { text: string; mode?: number }>): LaunchRepos {
  const work = path.join(world.dataDir, 'hostile', name);
  execFileSync('git', ['clone', '--quiet', '--', repos.siteRepo, work]);
  for (const [file, { text, mode }] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    fs.writeFileSync(path.join(work, file), text, { mode: mode ?? 0o644 });
  }
  const identity = ['-c', 'user.name=Attacker', '-c', 'user.email=attacker@example.invalid'];
  execFileSync('git', ['-C', work, 'add', '-A']);
  execFileSync('git', ['-C', work, ...identity, 'commit', '--quiet', '--no-gpg-sign', '-m', 'hostile']);
  const bare = `${work}.git`;
  execFileSync('git', ['clone', '--quiet', '--bare', '--', work, bare]);
  return { sourceRepo: repos.sourceRepo, siteRepo: bare };
}

describe.skipIf(hugoMissing)('a hostile hugo site under the ci profile', () => {
  const marker = path.join(outside, 'postcss-ran');
  const postcss = { text: `#!/bin/sh\necho ran > '${marker}'\nenv >> '${marker}'\ncat\n`, mode: 0o755 };
  const loosened =
    'baseURL = "https://docs.example.org/"\n[security]\n[security.exec]\nallow = [".*"]\nosEnv = [".*"]\n' +
    '[security.funcs]\ngetenv = [".*"]\n[security.http]\nurls = [".*"]\n';

  for (const [name, files] of [
    [
      'its own node_modules/.bin/postcss, behind a hugo.toml that allows every command',
      {
        'hugo.toml': { text: loosened },
        'layouts/index.html': { text: '{{ (resources.Get "css/main.css" | postCSS).RelPermalink }}\n' },
        'assets/css/main.css': { text: 'body { color: red }\n' },
        'node_modules/.bin/postcss': postcss,
      },
    ],
    [
      'a template printing SWITCHYARD_TOKEN, behind a hugo.toml that allows every getenv',
      {
        'hugo.toml': { text: loosened },
        'layouts/index.html': {
          text: '{{ getenv "SWITCHYARD_TOKEN" }}{{ int (getenv "SWITCHYARD_TOKEN") }}\n',
        },
      },
    ],
  ] as const) {
    it(`${name}: nothing runs, no secret anywhere`, async () => {
      const site = hostileSite(name.split(' ')[0]!.replace(/\W/g, '') + name.length, files);
      const started = await launchCall(world.client, 'launch_start_run', {
        run_config: { ...runConfig(site), validation_profile: 'ci' },
      });
      const runId = started.run_id as string;
      const status = await waitForRest(world.client, runId);
      world.scanner.scan('status', status);
      expect(status.state).toBe('VALIDATING');
      for (const artifact of status.artifacts) {
        const answer = await callTool(world.client, 'launch_get_artifact', {
          run_id: runId,
          artifact_name: artifact.name,
        });
        world.scanner.scan(`artifact ${artifact.name}`, answer);
      }
      const report = await callTool(world.client, 'launch_get_artifact', {
        run_id: runId,
        artifact_name: 'validation_report.json',
      });
      expect(report.text).toContain('SITE_BUILD_FAILED');
      expect(fs.existsSync(marker)).toBe(false);
      expect(world.scanner.found()).toEqual([]);
    });
  }
});

describe('the operator cannot hand a server secret to the launch domain', () => {
  it('LAUNCH_PR_TOKEN_ENV=SWITCHYARD_TOKEN stops the server at start, naming the variable', async () => {
    const dataDir = tempDir('launch-policy-start');
    try {
      const env = serverEnv(world.upstreams, {
        dataDir,
        extra: { LAUNCH_PR_TOKEN_ENV: 'GITHUB_TOKEN,SWITCHYARD_TOKEN' },
      });
      await expect(spawnSwitchyard({ env })).rejects.toThrow(/LAUNCH_PR_TOKEN_ENV: "SWITCHYARD_TOKEN"/);
    } finally {
      removeTempDir(dataDir);
    }
  });
});

describe('afterwards', () => {
  it('the server is healthy, the listener heard nothing, and no sentinel is in any answer or log line', () => {
    world.assertHealthy();
    expect(heard).toEqual([]);
    world.scanLogs();
    expect(world.scanner.found()).toEqual([]);
  });
});
