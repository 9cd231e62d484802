import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeExampleRepos } from '../src/pipeline/index.js';
import { PASSTHROUGH_ENV, subprocessEnvironment } from '../src/subprocess/environment.js';
import { atRest, startHarness, tempDir, waitForStatus, type Harness } from './support/harness.js';
import { exampleReposWithSite, markerScript } from './support/hostile-site.js';
import { exampleConfig, fixUntilReady, git } from './support/launch-flow.js';

/**
 * Every process launch-runs spawns gets the minimal environment: an allow-list of the server's variables and
 * a scratch HOME, never process.env. Seen from inside real children: the hook of a repository a run pushes
 * to (run by the git the server spawned) and a command hugo starts when the operator allows one.
 */
const CANARY = { LAUNCH_ENV_CANARY: 'canary-Hc41', SWITCHYARD_TOKEN: 'SENTINEL-env-token-Zt07' };

const hugo = spawnSync('hugo', ['version'], { encoding: 'utf8' });
const hugoMissing = hugo.error !== undefined || hugo.status !== 0;
if (hugoMissing) console.log('subprocess-env: the hugo case is skipped, hugo is not installed');

let h: Harness;
const workDir = tempDir('subprocess-env');

beforeAll(async () => {
  Object.assign(process.env, CANARY);
  // The operator lets hugo start npx (and so a site's postcss): what it starts must still see nothing.
  h = await startHarness({ config: { hugoExecAllow: ['npx'] } });
});
afterAll(async () => {
  for (const name of Object.keys(CANARY)) delete process.env[name];
  await h?.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** `NAME=value` lines of `env` output as a map. */
function parseEnv(text: string): Map<string, string> {
  return new Map(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

function expectMinimal(env: Map<string, string>): void {
  for (const [name, value] of Object.entries(CANARY)) {
    expect(env.has(name), name).toBe(false);
    expect([...env.values()].join('\n')).not.toContain(value);
  }
  expect(env.get('HOME')).toBeDefined();
  expect(env.get('HOME')).not.toBe(os.homedir());
  expect(env.get('HOME')!.startsWith(h.dataDir)).toBe(true);
}

describe('the subprocess environment', { timeout: 120_000 }, () => {
  it('is built from the allow-list only, with the scratch HOME', () => {
    const env = subprocessEnvironment({
      kind: 'generator',
      home: path.join(workDir, 'home'),
      from: { PATH: '/usr/bin', HOME: '/home/someone', SSH_AUTH_SOCK: '/agent', ...CANARY },
      extra: { HUGO_RESOURCEDIR: '/build/resources' },
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: path.join(workDir, 'home'),
      USERPROFILE: path.join(workDir, 'home'),
      XDG_CONFIG_HOME: path.join(workDir, 'home', '.config'),
      XDG_CACHE_HOME: path.join(workDir, 'home', '.cache'),
      LANG: 'C',
      LC_ALL: 'C',
      HUGO_RESOURCEDIR: '/build/resources',
    });
    expect(PASSTHROUGH_ENV.generator).not.toContain('SSH_AUTH_SOCK');
    expect(PASSTHROUGH_ENV.git).toContain('SSH_AUTH_SOCK');
  });

  it('git: the hook of the repository a run pushes to sees no server variable', async () => {
    const repos = await materializeExampleRepos(path.join(workDir, 'repos'));
    const remote = path.join(workDir, 'repos', 'hooked.git');
    git(workDir, 'clone', '--quiet', '--bare', '--', repos.siteRepo, remote);
    const seen = path.join(workDir, 'pre-receive');
    fs.writeFileSync(path.join(remote, 'hooks', 'pre-receive'), markerScript(seen).text, { mode: 0o755 });

    const started = (
      await h.call('launch_start_run', {
        run_config: exampleConfig(repos, { pr: { provider: 'local', remote } }),
      })
    ).structured;
    expect(started.ok, JSON.stringify(started)).toBe(true);
    const runId = started.run_id as string;
    await waitForStatus(h, runId, atRest);
    await fixUntilReady(h, runId);
    expect((await h.call('launch_open_pr', { run_id: runId })).structured.ok).toBe(true);
    // The receiving repository's own hook ran (that is why LAUNCH_REPO_ROOTS matters), in our environment.
    expectMinimal(parseEnv(fs.readFileSync(`${seen}.env`, 'utf8')));
  });

  it.skipIf(hugoMissing)('hugo: a command it starts sees no server variable and a scratch HOME', async () => {
    const marker = path.join(workDir, 'postcss');
    const repos = await exampleReposWithSite(path.join(workDir, 'site-repos'), {
      'layouts/index.html': '{{ $css := resources.Get "css/main.css" | postCSS }}{{ $css.RelPermalink }}\n',
      'assets/css/main.css': 'body { color: red }\n',
      'node_modules/.bin/postcss': markerScript(marker),
    });
    const started = (
      await h.call('launch_start_run', {
        run_config: exampleConfig(repos, { validation_profile: 'ci' }),
      })
    ).structured;
    await waitForStatus(h, started.run_id as string, atRest);
    expectMinimal(parseEnv(fs.readFileSync(`${marker}.env`, 'utf8')));
  });
});
