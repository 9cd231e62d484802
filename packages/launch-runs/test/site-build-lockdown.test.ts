import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atRest, startHarness, tempDir, waitForStatus, type Harness } from './support/harness.js';
import { exampleReposWithSite, markerScript, type SiteFile } from './support/hostile-site.js';
import { artifactText, exampleConfig } from './support/launch-flow.js';

/**
 * A caller controls the site repository, and the ci profile builds it with the real hugo. Whatever the site
 * ships (its own postcss, a hugo.toml that opens hugo's security policy, symlinks or mounts leading out of
 * the repository), nothing of it may run, and no secret of the server's environment or file may reach an
 * answer or an artifact.
 */
const hugo = spawnSync('hugo', ['version'], { encoding: 'utf8' });
const hugoMissing = hugo.error !== undefined || hugo.status !== 0;
if (hugoMissing) console.log('site-build-lockdown: skipped, hugo is not installed (the ci profile needs it)');

const SECRETS = { SWITCHYARD_TOKEN: 'SENTINEL-SY-tok-7Qm2', TFL_API_KEY: 'SENTINEL-TFL-key-4Wz9' };
const FILE_SECRET = 'SENTINEL-FILE-content-8Kp3';

const LOOSENED_CONFIG = `baseURL = "https://docs.example.org/"
title = "Example Docs"
[security]
  enableInlineShortcodes = true
  [security.exec]
    allow = ['.*']
    osEnv = ['.*']
  [security.funcs]
    getenv = ['.*']
  [security.http]
    urls = ['.*']
    methods = ['.*']
`;
const POSTCSS_LAYOUT =
  '{{ $css := resources.Get "css/main.css" | postCSS }}<link href="{{ $css.RelPermalink }}">\n';

const workDir = tempDir('hugo-lockdown');
const secretDir = path.join(workDir, 'server-files');
let h: Harness;
let listener: http.Server;
const received: string[] = [];
let listenerUrl: string;

beforeAll(async () => {
  Object.assign(process.env, SECRETS);
  fs.mkdirSync(secretDir, { recursive: true });
  fs.writeFileSync(path.join(secretDir, 'secret.txt'), FILE_SECRET);
  listener = http.createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    response.end('body { color: red }');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  // The real pipeline, as the module builds it from its configuration: with the smallest output limit an
  // operator can set (LAUNCH_SITE_BUILD_MAX_OUTPUT_BYTES), still far above what the example site writes.
  h = await startHarness({ config: { siteBuildMaxOutputBytes: 1_048_576 } });
});

afterAll(async () => {
  for (const name of Object.keys(SECRETS)) delete process.env[name];
  await h?.close();
  await new Promise((resolve) => listener?.close(resolve));
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** A ci run on the example product and a site with `files`; its SiteBuild issues and every artifact. */
async function ciRun(name: string, files: Record<string, SiteFile>) {
  const repos = await exampleReposWithSite(path.join(workDir, name), files);
  const started = (
    await h.call('launch_start_run', {
      run_config: exampleConfig(repos, { validation_profile: 'ci' }),
    })
  ).structured;
  expect(started.ok, JSON.stringify(started)).toBe(true);
  const runId = started.run_id as string;
  const status = await waitForStatus(h, runId, atRest);
  expect(status.state, JSON.stringify(status.details)).toBe('VALIDATING');
  const report = JSON.parse(await artifactText(h, runId, 'validation_report.json')) as ValidationReport;
  const names = (
    (await h.call('launch_get_status', { run_id: runId })).structured.status as {
      artifacts: { name: string }[];
    }
  ).artifacts.map((artifact) => artifact.name);
  const everything = [JSON.stringify(started), JSON.stringify(status)];
  for (const artifact of names) everything.push(await artifactText(h, runId, artifact));
  return {
    siteBuild: report.issues.filter((issue) => issue.gate === 'SiteBuild'),
    gate: report.gates.find((gate) => gate.name === 'SiteBuild'),
    everything: everything.join('\n'),
  };
}

function expectNoSecret(text: string): void {
  for (const secret of [...Object.values(SECRETS), FILE_SECRET]) expect(text).not.toContain(secret);
}

describe.skipIf(hugoMissing)(
  'SiteBuild runs a hostile site with hugo locked down',
  { timeout: 120_000 },
  () => {
    it('the example site still builds under the lockdown', async () => {
      const run = await ciRun('plain', {});
      expect(run.gate).toMatchObject({ ok: true });
      expect(run.siteBuild).toEqual([]);
    });

    const postcssCases: [string, Record<string, SiteFile>][] = [
      ["the site's own node_modules/.bin/postcss never runs", {}],
      [
        'a hugo.toml that opens [security.exec] changes nothing: postcss still never runs',
        { 'hugo.toml': LOOSENED_CONFIG },
      ],
    ];
    postcssCases.forEach(([title, config], index) => {
      it(title, async () => {
        const marker = path.join(workDir, `postcss-ran-${index}`);
        const run = await ciRun(`postcss-${index}`, {
          ...config,
          'layouts/index.html': POSTCSS_LAYOUT,
          'assets/css/main.css': 'body { color: red }\n',
          'node_modules/.bin/postcss': markerScript(marker),
        });
        expect(fs.existsSync(marker)).toBe(false);
        expect(run.siteBuild.map((issue) => issue.error_code)).toEqual(['SITE_BUILD_FAILED']);
        expectNoSecret(run.everything);
      });
    });

    it('a hugo.toml that opens [security.funcs] getenv cannot print SWITCHYARD_TOKEN', async () => {
      // `int` of a string fails the build with the string in hugo's error, which SiteBuild reports.
      const run = await ciRun('getenv', {
        'hugo.toml': LOOSENED_CONFIG,
        'layouts/index.html':
          'token={{ getenv "SWITCHYARD_TOKEN" }} key={{ getenv "TFL_API_KEY" }}\n' +
          '{{ int (getenv "SWITCHYARD_TOKEN") }}{{ int (getenv "TFL_API_KEY") }}\n',
      });
      expect(run.siteBuild.map((issue) => issue.error_code)).toEqual(['SITE_BUILD_FAILED']);
      expectNoSecret(run.everything);
    });

    it('a hugo.toml that opens [security.http] cannot fetch with resources.GetRemote', async () => {
      received.length = 0;
      const run = await ciRun('get-remote', {
        'hugo.toml': LOOSENED_CONFIG,
        'layouts/index.html': `{{ with resources.GetRemote "${listenerUrl}/exfiltrate" }}{{ .Content }}{{ end }}\n`,
      });
      expect(received).toEqual([]);
      expect(run.siteBuild.map((issue) => issue.error_code)).toEqual(['SITE_BUILD_FAILED']);
    });

    it('a symlink out of the site repository is refused before hugo reads through it', async () => {
      const run = await ciRun('symlink', {
        'assets/leak.txt': { symlinkTo: path.join(secretDir, 'secret.txt') },
        'layouts/index.html': '{{ with resources.Get "leak.txt" }}{{ int .Content }}{{ end }}\n',
      });
      expect(run.siteBuild).toMatchObject([
        { error_code: 'SITE_BUILD_UNSAFE', severity: 'blocker', location: { path: 'assets/leak.txt' } },
      ]);
      expectNoSecret(run.everything);
    });

    it("a symlink into the site's own .git is refused before hugo reads through it", async () => {
      // Without the refusal, `int` of the page's text fails the build with the clone's git config in the error.
      const run = await ciRun('git-symlink', {
        'content/docs/leak.md': { symlinkTo: '../../.git/config' },
        'layouts/index.html': '{{ with site.GetPage "/docs/leak" }}{{ int .RawContent }}{{ end }}\n',
      });
      expect(run.siteBuild).toMatchObject([
        { error_code: 'SITE_BUILD_UNSAFE', severity: 'blocker', location: { path: 'content/docs/leak.md' } },
      ]);
      expect(run.everything).not.toContain('repositoryformatversion');
    });

    it('a hugo mount of a folder outside the site repository is refused before the build', async () => {
      const run = await ciRun('mount', {
        'hugo.toml': `baseURL = "https://docs.example.org/"\n[module]\n[[module.mounts]]\nsource = "${secretDir}"\ntarget = "assets/outside"\n[[module.mounts]]\nsource = "layouts"\ntarget = "layouts"\n`,
        'layouts/index.html': '{{ with resources.Get "outside/secret.txt" }}{{ int .Content }}{{ end }}\n',
      });
      expect(run.siteBuild).toMatchObject([{ error_code: 'SITE_BUILD_UNSAFE', severity: 'blocker' }]);
      expectNoSecret(run.everything);
    });

    it('a build that writes more than LAUNCH_SITE_BUILD_MAX_OUTPUT_BYTES is stopped and reported', async () => {
      const run = await ciRun('big-output', { 'static/big.txt': 'x'.repeat(2 * 1_048_576) });
      expect(run.siteBuild).toMatchObject([{ error_code: 'SITE_BUILD_OUTPUT_LIMIT', severity: 'blocker' }]);
    });
  },
);
