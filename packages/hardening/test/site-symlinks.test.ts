import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { materializeExampleRepos } from '@switchyard/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveToDone, launchCall, runConfig, runStatus, waitForRest } from '../src/launch.js';
import { connectHttp } from '../src/harness/mcp-client.js';
import { troubleIn } from '../src/harness/server-log.js';
import { spawnSwitchyard, type SpawnedSwitchyard } from '../src/harness/switchyard.js';
import { removeTempDir, tempDir } from '../src/harness/temp.js';

/**
 * A caller controls the site repository a launch writes into (issue #34, section 6). Its symlinks into its
 * own `.git`, to the repository itself, to the run's workspace (the source clone beside the site worktree)
 * or out of the machine's files must never be followed by the workers, the fixers or the commit: nothing
 * is read or written through them, and nothing of what they point at reaches an answer, an artifact or the
 * pushed branch. Through the `switchyard` bin, with real git repositories.
 */
/** In every clone's `.git/config`: its appearance anywhere means git's config was read through a link. */
const GIT_CONFIG_MARK = 'repositoryformatversion';
const ETC_PASSWD_MARK = 'root:x:0:0';

let dataDir: string;
let server: SpawnedSwitchyard;
let client: Client;

beforeAll(async () => {
  dataDir = tempDir('site-symlinks');
  server = await spawnSwitchyard({ env: { SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_DOMAINS: 'launch' } });
  client = await connectHttp(server.url);
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
  if (dataDir !== undefined) removeTempDir(dataDir);
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
}

/** The example repositories, the site's `links` committed as symlinks (replacing what was at each path). */
async function reposWithSiteLinks(name: string, links: Record<string, string>) {
  const dir = path.join(dataDir, name);
  const repos = await materializeExampleRepos(dir);
  for (const [link, target] of Object.entries(links)) {
    const at = path.join(repos.siteWorkingCopy, ...link.split('/'));
    fs.rmSync(at, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.symlinkSync(target, at);
  }
  git(repos.siteWorkingCopy, 'add', '-A');
  git(
    repos.siteWorkingCopy,
    '-c',
    'user.name=Mallory',
    '-c',
    'user.email=m@example.invalid',
    'commit',
    '-qm',
    'links',
  );
  fs.rmSync(repos.siteRepo, { recursive: true, force: true });
  git(dir, 'clone', '--quiet', '--bare', '--', repos.siteWorkingCopy, repos.siteRepo);
  return repos;
}

/** Every answer's and artifact's text for a run, joined. */
async function everythingOf(runId: string, answers: unknown[]): Promise<string> {
  const texts = answers.map((answer) => JSON.stringify(answer));
  for (const artifact of (await runStatus(client, runId)).artifacts) {
    const read = await client.readResource({ uri: `launch://runs/${runId}/artifacts/${artifact.name}` });
    texts.push(...read.contents.map((part) => ('text' in part ? part.text : part.blob)));
  }
  return texts.join('\n');
}

describe('symlinks in the site repository', () => {
  it("a folder linked into the site's .git is written through by no worker: the run fails naming the pages", async () => {
    const repos = await reposWithSiteLinks('into-git', { 'content/docs': '../.git' });
    const started = await launchCall(client, 'launch_start_run', { run_config: runConfig(repos) });
    const runId = started.run_id as string;
    const status = await waitForRest(client, runId);
    expect(status.state).toBe('FAILED');
    expect(status.details.error).toMatchObject({
      code: 'ALLOWED_PATHS_VIOLATION',
      details: { paths: expect.arrayContaining([expect.stringMatching(/^content\/docs\//)]) },
    });
    const worktreeGit = path.join(dataDir, 'launch-runs', 'runs', runId, 'workspace', 'site', '.git');
    expect(fs.existsSync(path.join(worktreeGit, 'tallyho'))).toBe(false);
    expect(await everythingOf(runId, [started, status])).not.toContain(GIT_CONFIG_MARK);
    expect(troubleIn(server.lines())).toEqual({ errors: [], defects: [] });
  });

  it('links to .git files, the repository itself, the run workspace and /etc are left as they are to DONE', async () => {
    const links = {
      'content/products/leak.md': '../../.git/config',
      'content/products/self': '../..',
      'content/docs/source.md': '../../../source/README.md',
      'static/passwd.txt': '/etc/passwd',
    };
    const repos = await reposWithSiteLinks('links', links);
    const started = await launchCall(client, 'launch_start_run', { run_config: runConfig(repos) });
    const runId = started.run_id as string;
    const done = await driveToDone(client, runId);
    expect(done.state).toBe('DONE');
    const everything = await everythingOf(runId, [started, done]);
    expect(everything).not.toContain(GIT_CONFIG_MARK);
    expect(everything).not.toContain(ETC_PASSWD_MARK);
    // The pushed launch branch holds each link as the link it was (mode 120000, same target), nothing else.
    const branch = (done.details.pr as { branch: string }).branch;
    for (const [link, target] of Object.entries(links)) {
      expect(git(repos.siteRepo, 'ls-tree', branch, '--', link)).toMatch(/^120000 blob /);
      expect(git(repos.siteRepo, 'cat-file', 'blob', `${branch}:${link}`)).toBe(target);
    }
    expect(troubleIn(server.lines())).toEqual({ errors: [], defects: [] });
  });
});
