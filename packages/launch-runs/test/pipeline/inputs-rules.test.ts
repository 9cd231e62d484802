import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { RunConfigInput } from '@switchyard/contracts/launch-runs';
import { registerSecret } from '@switchyard/resilience/context';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { gitClient, gitFailureMessage } from '../../src/git/git-client.js';
import { fileAtCommit, gitInternalError, gitStep } from '../../src/git/operations.js';
import { parseRepoLocation, repoUrl, stripCredentials } from '../../src/git/repo-location.js';
import type { PatchBundle, RepoInventory } from '../../src/pipeline/artifact-schemas.js';
import { readFileCapped, sha256OfFile } from '../../src/pipeline/file-reads.js';
import { fixArtifactName } from '../../src/pipeline/fix.js';
import { sha256Hex } from '../../src/pipeline/hashing.js';
import {
  createLaunchPipeline,
  exampleRunConfig,
  materializeExampleRepos,
  type ExampleRepos,
} from '../../src/pipeline/index.js';
import type { AppliedFix, WorkspaceRestore } from '../../src/pipeline/types.js';
import { workspacePaths } from '../../src/pipeline/workspace.js';
import { PASSTHROUGH_ENV, subprocessEnvironment } from '../../src/subprocess/environment.js';
import { folderBytes, watchFolderSize } from '../../src/subprocess/folder-size-watch.js';
import { git } from '../support/launch-flow.js';
import {
  copyRun,
  failure,
  prepareExampleRun,
  startUntrustedHttps,
  tempDir,
  workerContext,
  type PreparedRun,
  type TestContext,
} from './helpers.js';

/**
 * The rules of W1 (cloning the source and the site at pinned commits), of the git client every run uses
 * (its locked configuration and minimal environment), of bounded repository reads, and of rebuilding a
 * run's workspace on another replica: each row fails when the rule it names is broken.
 */
const pipeline = createLaunchPipeline();
const CANARY = 'SENTINEL-inputs-token-Qw93';
const IDENTITY = ['-c', 'user.name=Test', '-c', 'user.email=test@switchyard.invalid'];
let dir: { path: string; cleanup: () => Promise<void> };
let repos: ExampleRepos;
let server: Server;
let baseUrl: string;
/** Commits of the source repository: the one `main` had first, and the annotated tag `v2` names. */
let firstSha: string;
let taggedSha: string;

beforeAll(async () => {
  process.env.SWITCHYARD_TOKEN = CANARY;
  dir = await tempDir('inputs-rules');
  repos = await materializeExampleRepos(join(dir.path, 'repos'));
  const source = repos.sourceRepo;
  firstSha = git(source, 'rev-parse', 'HEAD').trim();
  // A branch and a tag both named `release` (on different commits), an annotated tag, and a commit whose
  // committer date differs from its author date.
  git(source, 'branch', 'release', firstSha);
  fs.writeFileSync(join(source, 'LATER.md'), 'later\n');
  git(source, 'add', 'LATER.md');
  execFileSync(
    'git',
    [...IDENTITY, 'commit', '--quiet', '--no-gpg-sign', '--date=2020-02-02T00:00:00Z', '-m', 'later'],
    { cwd: source, env: { ...process.env, GIT_COMMITTER_DATE: '2024-04-04T00:00:00Z' } },
  );
  taggedSha = git(source, 'rev-parse', 'HEAD').trim();
  git(source, 'tag', 'release');
  git(source, ...IDENTITY, 'tag', '-a', '-m', 'v2', 'v2');

  server = createServer((request, response) => {
    if (request.url?.startsWith('/stall.git')) return; // never answers
    const status = request.url?.startsWith('/broken.git')
      ? 500
      : request.url?.startsWith('/private.git')
        ? 401
        : 404;
    response.writeHead(status, status === 401 ? { 'WWW-Authenticate': 'Basic realm="git"' } : {});
    response.end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  delete process.env.SWITCHYARD_TOKEN;
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done));
  await dir?.cleanup();
});

function context(name: string, config: Partial<RunConfigInput> = {}): TestContext {
  return workerContext({ config: { ...exampleRunConfig(repos), ...config }, runDir: join(dir.path, name) });
}

/** A shell script at `path` (executable). */
function script(path: string, text: string): string {
  fs.writeFileSync(path, `#!/bin/sh\n${text}`, { mode: 0o755 });
  return path;
}

describe('the git client: configuration a repository, a caller or the home folder cannot change', () => {
  let repo: string;
  let home: string;
  beforeAll(() => {
    repo = join(dir.path, 'configured');
    home = join(dir.path, 'configured-home');
    fs.mkdirSync(repo);
    git(repo, 'init', '--quiet');
    // What a repository's own config would make git run or do.
    git(repo, 'config', 'core.hooksPath', join(repo, 'hooks'));
    git(repo, 'config', 'core.fsmonitor', join(repo, 'monitor.sh'));
    git(repo, 'config', 'submodule.recurse', 'true');
    // A global config in the scratch HOME (both places git looks) and a system config.
    fs.mkdirSync(join(home, '.config', 'git'), { recursive: true });
    fs.writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = FromHomeGitconfig\n');
    fs.writeFileSync(join(home, '.config', 'git', 'config'), '[user]\n\temail = from-xdg@home.invalid\n');
    fs.writeFileSync(join(dir.path, 'system.gitconfig'), '[user]\n\tsigningkey = FromSystemConfig\n');
  });

  function client(config?: Record<string, string>) {
    return gitClient(repo, {
      home,
      env: { GIT_CONFIG_SYSTEM: join(dir.path, 'system.gitconfig') },
      ...(config === undefined ? {} : { config }),
    });
  }

  it.each([
    ['core.hooksPath', () => join(home, 'no-hooks')],
    ['core.fsmonitor', () => 'false'],
    ['submodule.recurse', () => 'false'],
  ])("%s is locked over the repository's own config and the caller's", async (key, expected) => {
    const value = await client({ [key]: 'from-caller' }).raw(['config', '--get', key]);
    expect(value.trim()).toBe(expected());
  });

  it("the caller's extra environment cannot undo the locked variables", async () => {
    const undoing = gitClient(repo, {
      home,
      env: {
        GIT_CONFIG_COUNT: '0',
        GIT_CONFIG_NOSYSTEM: '0',
        GIT_CONFIG_SYSTEM: join(dir.path, 'system.gitconfig'),
        GIT_ALLOW_PROTOCOL: 'ext',
      },
    });
    expect((await undoing.raw(['config', '--get', 'core.hooksPath'])).trim()).toBe(join(home, 'no-hooks'));
    expect(await undoing.raw(['config', '--list'])).not.toContain('FromSystemConfig');
    await expect(undoing.raw(['ls-remote', '--', 'ext::sh -c true', 'HEAD'])).rejects.toThrow(
      "transport 'ext' not allowed",
    );
  });

  it('neither the global config in HOME nor a system config is read; the caller config is', async () => {
    const listed = await client({ 'user.name': 'From Caller' }).raw(['config', '--list']);
    expect(listed).not.toMatch(/FromHomeGitconfig|from-xdg|FromSystemConfig/);
    expect(listed).toContain('user.name=From Caller');
  });

  it("a repository's own hooks never run when git commits in it", async () => {
    const marker = join(dir.path, 'hook-ran');
    fs.mkdirSync(join(repo, 'hooks'), { recursive: true });
    for (const hooks of [join(repo, 'hooks'), join(repo, '.git', 'hooks')])
      script(join(hooks, 'pre-commit'), `touch '${marker}'\n`);
    fs.writeFileSync(join(repo, 'a.txt'), 'a\n');
    const git = client({ 'user.name': 'T', 'user.email': 't@x.invalid' });
    await git.raw(['add', 'a.txt']);
    await git.raw(['commit', '--quiet', '--no-gpg-sign', '-m', 'a']);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('the ext:: transport is refused by git itself; ssh is a transport git may use', async () => {
    const marker = join(dir.path, 'ext-ran');
    const git = gitClient(dir.path, { home });
    const ext = await failure(
      gitStep(
        undefined,
        () => git.raw(['clone', '--quiet', '--', `ext::sh -c touch% ${marker}`, join(dir.path, 'ext')]),
        gitInternalError('clone'),
      ),
    );
    expect(ext.message).toContain("transport 'ext' not allowed");
    expect(fs.existsSync(marker)).toBe(false);

    // An `ssh` first on PATH stands in for the real one: git starts it for an ssh:// URL.
    const ssh = join(dir.path, 'ssh-ran');
    fs.mkdirSync(join(dir.path, 'bin'));
    script(join(dir.path, 'bin', 'ssh'), `touch '${ssh}'\nexit 1\n`);
    const viaSsh = gitClient(dir.path, {
      home,
      env: { PATH: `${join(dir.path, 'bin')}:${process.env.PATH}` },
    });
    await expect(viaSsh.raw(['ls-remote', '--', 'ssh://git@example.invalid/r.git'])).rejects.toThrow();
    expect(fs.existsSync(ssh)).toBe(true);
  });

  it('every git process of W1 gets the minimal environment: scratch HOME in the run, no prompts, no secrets', async () => {
    const logs = join(dir.path, 'git-env');
    fs.mkdirSync(logs);
    const wrapper = script(join(dir.path, 'git-wrapper'), `env > '${logs}'/$$.env\nexec git "$@"\n`);
    const ctx = context('run-env');
    await createLaunchPipeline({ gitBinary: wrapper }).cloneInputs(ctx);
    const seen = fs.readdirSync(logs).map((name) => fs.readFileSync(join(logs, name), 'utf8'));
    expect(seen.length).toBeGreaterThan(3);
    const allowed = new Set([
      ...PASSTHROUGH_ENV.git,
      ...['HOME', 'USERPROFILE', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'LANG', 'LC_ALL', 'PWD', 'SHLVL', '_'],
    ]);
    for (const text of seen) {
      expect(text).not.toContain(CANARY);
      const env = new Map(
        text
          .split('\n')
          .filter((line) => line.includes('='))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      expect([...env.keys()].filter((name) => !allowed.has(name) && !name.startsWith('GIT_'))).toEqual([]);
      expect(env.get('HOME')!.startsWith(ctx.runDir)).toBe(true);
      expect(
        Object.fromEntries([...env].filter(([name]) => /^(GIT_[A-Z_]+|LANG|LC_ALL)$/.test(name))),
      ).toMatchObject({
        GIT_TERMINAL_PROMPT: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_ALLOW_PROTOCOL: 'file:git:http:https:ssh',
        LANG: 'C',
        LC_ALL: 'C',
      });
      const count = Number(env.get('GIT_CONFIG_COUNT'));
      const keys = Array.from({ length: count }, (_, index) => env.get(`GIT_CONFIG_KEY_${index}`));
      expect(keys).toEqual(expect.arrayContaining(['core.hooksPath', 'core.fsmonitor', 'submodule.recurse']));
    }
  });
});

describe('git failure messages', () => {
  it.each([
    [
      'credentials in a URL are removed',
      'fatal: unable to access https://user:tok-Zx81@git.example/r.git/',
      'fatal: unable to access https://git.example/r.git/',
    ],
    ['blank lines are dropped, lines joined', 'one\n\n  two  \n', 'one | two'],
    ['only the last six lines are kept', 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8', 'l3 | l4 | l5 | l6 | l7 | l8'],
  ])('%s', (_rule, raw, expected) => {
    expect(gitFailureMessage(new Error(raw))).toBe(expected);
  });

  it('are at most 600 characters, and a registered secret is redacted before they are cut', () => {
    expect(gitFailureMessage(new Error('x'.repeat(1000)))).toHaveLength(600);
    const secret = 'ghp_inputsRulesSecret0123456789';
    registerSecret(secret);
    const message = gitFailureMessage(new Error(`${'x'.repeat(590)}${secret} tail`));
    expect(message).not.toContain(secret.slice(0, 10));
    expect(message.length).toBeLessThanOrEqual(600);
  });
});

describe('gitStep', () => {
  const internal = gitInternalError('fetch');

  it('a cancelled run never starts the step', async () => {
    const controller = new AbortController();
    controller.abort();
    const step = vi.fn(() => Promise.resolve('ran'));
    expect((await failure(gitStep(controller.signal, step, internal))).code).toBe('CANCELLED');
    expect(step).not.toHaveBeenCalled();
  });

  it('a step that fails because the run was cancelled is CANCELLED, not a git failure', async () => {
    const controller = new AbortController();
    const step = () => {
      controller.abort();
      return Promise.reject(new Error('killed'));
    };
    expect((await failure(gitStep(controller.signal, step, internal))).code).toBe('CANCELLED');
  });

  it('a SwitchyardError passes through; any other failure is INTERNAL naming the step, redacted', async () => {
    const own = new SwitchyardError('validation', 'own', { code: 'INVALID_INPUT' });
    expect(await failure(gitStep(undefined, () => Promise.reject(own), internal))).toBe(own);
    const error = await failure(
      gitStep(undefined, () => Promise.reject(new Error('fatal: https://u:p-secret@h/x')), internal),
    );
    expect(error).toMatchObject({
      code: 'INTERNAL',
      message: 'git fetch failed: fatal: https://h/x',
      details: { cause_class: 'GitError', step: 'fetch' },
    });
  });
});

describe('repository locations', () => {
  it.each([
    ['an empty value', '   '],
    ['an option-like value', '--upload-pack=touch /tmp/x'],
    ['an option-like value after blanks', '  -u x'],
    ['a NUL byte', 'repo\0x'],
    ['a newline', 'repo\nx'],
    ['a carriage return', 'repo\rx'],
    ['the ext transport', 'ext::sh -c touch% /tmp/x'],
    ['the fd transport', 'fd::3'],
    ['an unsupported URL scheme', 'ftp://git.example/r.git'],
  ])('%s is INVALID_INPUT naming the field', (_rule, value) => {
    expect(() => parseRepoLocation(value, 'source.repo')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', details: { field: 'source.repo' } }),
    );
  });

  // The policy reads the host with the WHATWG parser, git with curl or ssh: where they could differ, refused.
  it.each([
    ['a backslash before @ (github.com to WHATWG, 10.0.0.7 to curl)', 'http://github.com\\@10.0.0.7/x.git'],
    ['a backslash in an https authority', 'https://github.com\\@10.0.0.7:8443/x.git'],
    ['a backslash in an ssh authority', 'ssh://github.com\\@10.0.0.7/x.git'],
    ['two @ (curl takes the first, WHATWG the last)', 'https://u:p@ss@git.example/r.git'],
    ['a space in the authority', 'https://git hub.com/r.git'],
    ['a tab in the authority', 'https://github.com\t@10.0.0.7/r.git'],
    ['a percent-escaped host', 'https://%67ithub.com/r.git'],
  ])('%s is INVALID_INPUT ambiguous_url', (_rule, value) => {
    expect(() => parseRepoLocation(value, 'pr.remote')).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        details: { field: 'pr.remote', reason: 'ambiguous_url' },
      }),
    );
  });

  it.each([
    ['file:///srv/repo', 'file', 'file:///srv/repo', 'file:///srv/repo'],
    ['FILE:///srv/repo', 'file', 'FILE:///srv/repo', 'FILE:///srv/repo'],
    [
      'https://u:tok@git.example/r.git',
      'network',
      'https://u:tok@git.example/r.git',
      'https://git.example/r.git',
    ],
    ['HTTPS://git.example/r.git', 'network', 'HTTPS://git.example/r.git', 'HTTPS://git.example/r.git'],
    ['git://git.example/r.git', 'network', 'git://git.example/r.git', 'git://git.example/r.git'],
    ['git@git.example:o/r.git', 'network', 'git@git.example:o/r.git', 'git@git.example:o/r.git'],
    ['me@host://x', 'local', resolve('me@host://x'), resolve('me@host://x')],
    ['relative/repo', 'local', resolve('relative/repo'), resolve('relative/repo')],
    [' /srv/repo ', 'local', '/srv/repo', '/srv/repo'],
    [
      'https://u:p%40ss@git.example/r.git',
      'network',
      'https://u:p%40ss@git.example/r.git',
      'https://git.example/r.git',
    ],
    ['https://[::1]:8443/r.git', 'network', 'https://[::1]:8443/r.git', 'https://[::1]:8443/r.git'],
  ])('%s is %s', (value, kind, cloneArg, display) => {
    expect(parseRepoLocation(value, 'source.repo')).toEqual({ kind, cloneArg, display });
  });

  it.each([
    ['https://user:pass@h/x and ssh://git@h/y', 'https://h/x and ssh://h/y'],
    ['https://user:pa:ss@h/x', 'https://h/x'],
    ['svn+ssh://tok@h/x', 'svn+ssh://h/x'],
    ['https://user:p@ss@h/x', 'https://h/x'],
    ['https://tok@h?q=a@b#c@d', 'https://h?q=a@b#c@d'],
    ['https://h/a@b', 'https://h/a@b'],
  ])('stripCredentials(%s)', (value, expected) => {
    expect(stripCredentials(value)).toBe(expected);
  });

  it('the URL naming a repository: file:// for a local path, the credential-free URL otherwise', () => {
    expect(repoUrl(parseRepoLocation('/srv/my repo', 'f'))).toBe('file:///srv/my%20repo');
    expect(repoUrl(parseRepoLocation('https://u:t@h/x.git', 'f'))).toBe('https://h/x.git');
  });
});

describe('the subprocess environment', () => {
  const home = () => join(dir.path, 'env-home', 'nested');

  it('creates the scratch HOME and takes nothing from process.env when given `from`', () => {
    const env = subprocessEnvironment({ kind: 'git', home: home(), from: {} });
    expect(fs.statSync(home()).isDirectory()).toBe(true);
    expect(env.PATH).toBeUndefined();
    expect(Object.values(env)).not.toContain(CANARY);
  });

  it('the per-process scratch HOME is removed when the process exits', () => {
    // Node runs the TypeScript module itself (type stripping): nothing to resolve from the working directory.
    const module = new URL('../../src/subprocess/environment.ts', import.meta.url).href;
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { writeFileSync } from 'node:fs';
         import { processScratchHome } from '${module}';
         const home = processScratchHome();
         writeFileSync(home + '/left.txt', 'x');
         console.log(home);`,
      ],
      { encoding: 'utf8' },
    );
    const home = child.stdout.trim();
    expect(home, child.stderr).toContain('switchyard-home-');
    expect(fs.existsSync(home)).toBe(false);
  });

  it.each(['git', 'generator'] as const)('%s: proxies pass through; what the caller sets wins', (kind) => {
    const proxies = { HTTPS_PROXY: 'http://proxy:3128', no_proxy: 'localhost' };
    const env = subprocessEnvironment({
      kind,
      home: home(),
      from: { PATH: '/usr/bin', ...proxies, SWITCHYARD_TOKEN: CANARY, SSH_AUTH_SOCK: '/agent' },
      extra: { PATH: '/opt/tools/bin' },
    });
    expect(env).toMatchObject({ ...proxies, PATH: '/opt/tools/bin' });
    expect(env.SWITCHYARD_TOKEN).toBeUndefined();
    expect(env.SSH_AUTH_SOCK).toBe(kind === 'git' ? '/agent' : undefined);
  });
});

describe('folder sizes', () => {
  afterEach(() => vi.useRealTimers());

  function folder(name: string): string {
    const root = join(dir.path, 'sizes', name);
    fs.mkdirSync(join(root, 'a', 'b'), { recursive: true });
    fs.writeFileSync(join(root, 'top.txt'), 'x'.repeat(10));
    fs.writeFileSync(join(root, 'a', 'b', 'deep.txt'), 'x'.repeat(20));
    return root;
  }

  it('count nested files, never what a symlink points to, and stop counting past the limit', async () => {
    const root = folder('count');
    fs.writeFileSync(join(dir.path, 'sizes', 'outside.bin'), Buffer.alloc(5000));
    fs.symlinkSync(join(dir.path, 'sizes', 'outside.bin'), join(root, 'a', 'link.bin'));
    expect(await folderBytes(root, 1_000_000)).toBe(30);
    const single = join(dir.path, 'sizes', 'single');
    fs.mkdirSync(single);
    for (const name of ['one', 'two', 'three']) fs.writeFileSync(join(single, name), 'x'.repeat(10));
    expect(await folderBytes(single, 5)).toBe(10);
    // Reaching the limit is not passing it: counting goes on.
    expect(await folderBytes(single, 10)).toBeGreaterThan(10);
  });

  it('a watch checks every 250 ms by default, calls back once when exceeded and stops its timer', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const root = folder('watched');
    const onExceeded = vi.fn();
    const exceeded = new Promise<void>((done) => {
      watchFolderSize(root, 29, () => {
        onExceeded();
        done();
      });
    });
    vi.advanceTimersByTime(250);
    await exceeded;
    expect(vi.getTimerCount()).toBe(0);
    expect(onExceeded).toHaveBeenCalledTimes(1);
  });

  it('stopping a watch clears its timer', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stop = watchFolderSize(folder('stopped'), 1_000_000, () => undefined);
    expect(vi.getTimerCount()).toBe(1);
    stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('bounded file reads', () => {
  let file: string;
  beforeAll(() => {
    file = join(dir.path, 'reads', 'ten.txt');
    fs.mkdirSync(join(dir.path, 'reads'), { recursive: true });
    fs.writeFileSync(file, '0123456789');
  });

  it('a file of exactly the cap is read; one byte more is reported by its size', async () => {
    expect(await readFileCapped(file, 10)).toEqual({ bytes: Buffer.from('0123456789') });
    expect(await readFileCapped(file, 9)).toEqual({ tooLarge: true, size: 10 });
  });

  it('a symlink is never followed', async () => {
    const link = join(dir.path, 'reads', 'link.txt');
    fs.symlinkSync(file, link);
    await expect(readFileCapped(link, 100)).rejects.toMatchObject({ code: 'ELOOP' });
  });

  it.skipIf(process.platform !== 'linux')('every read closes its file', async () => {
    const open = () => fs.readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i += 1) await readFileCapped(file, 100);
    await readFileCapped(file, 1);
    expect(open()).toBe(before);
  });

  it('hashing stops when the run is cancelled', async () => {
    expect(await sha256OfFile(file)).toBe(sha256Hex('0123456789'));
    const controller = new AbortController();
    controller.abort();
    await expect(sha256OfFile(file, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('W1: refs, pins and the inventory', { timeout: 60_000 }, () => {
  it('a branch wins over a tag of the same name; an annotated tag pins the commit it names', async () => {
    const byBranch = context('run-branch', { source: { repo: repos.sourceRepo, ref: 'release' } });
    expect((await pipeline.cloneInputs(byBranch)).source_sha).toBe(firstSha);
    const byTag = context('run-annotated', { source: { repo: repos.sourceRepo, ref: 'v2' } });
    expect((await pipeline.cloneInputs(byTag)).source_sha).toBe(taggedSha);
  });

  it('the inventory records the committer date, no ref when none was given, and the site at base_ref', async () => {
    // The source repository as the site too: its base_ref, an older commit, is where the launch branch starts.
    const ctx = context('run-dates', { site: { repo: repos.sourceRepo, base_ref: firstSha } });
    const result = await pipeline.cloneInputs(ctx);
    const inventory = ctx.artifacts.json<RepoInventory>('repo_inventory.json');
    expect(inventory.source).toMatchObject({ ref: null, sha: taggedSha });
    expect(Date.parse(inventory.source.committed_at)).toBe(Date.parse('2024-04-04T00:00:00Z'));
    expect(result.site_sha).toBe(firstSha);
    const site = gitClient(workspacePaths(ctx.runDir).site);
    expect((await site.raw(['rev-parse', 'HEAD'])).trim()).toBe(firstSha);
  });

  it('files above maxHashBytes are listed by size, unhashed, in both repositories', async () => {
    const ctx = context('run-hash-limit');
    await createLaunchPipeline({ maxHashBytes: 10 }).cloneInputs(ctx);
    const inventory = ctx.artifacts.json<RepoInventory>('repo_inventory.json');
    for (const files of [inventory.source.files, inventory.site.files]) {
      const big = files.find((entry) => entry.size > 10)!;
      expect(big).toMatchObject({
        sha256: null,
        not_hashed: `${big.size} bytes is more than LAUNCH_MAX_HASH_BYTES (10 bytes)`,
      });
    }
  });

  /** Repositories the rows below name (made once, after the shared ones exist). */
  const place = {
    empty: () => {
      const empty = join(dir.path, 'empty-repo');
      if (!fs.existsSync(empty)) {
        fs.mkdirSync(empty);
        git(empty, 'init', '--quiet');
      }
      return empty;
    },
    tree: () => git(repos.sourceRepo, 'rev-parse', `${taggedSha}^{tree}`).trim(),
  };
  it.each<[string, () => Partial<RunConfigInput>, string, () => string]>([
    [
      'an unknown source.ref',
      () => ({ source: { repo: repos.sourceRepo, ref: 'no-such-ref' } }),
      'source.ref',
      () => '"no-such-ref" names no branch, tag or commit',
    ],
    [
      'a source.ref naming a tree',
      () => ({ source: { repo: repos.sourceRepo, ref: place.tree() } }),
      'source.ref',
      () => `"${place.tree()}" names no branch, tag or commit`,
    ],
    [
      'a site that cannot be cloned',
      () => ({ site: { repo: join(dir.path, 'missing') } }),
      'site.repo',
      () => `site.repo ${join(dir.path, 'missing')} could not be cloned`,
    ],
    [
      'a source with no commits',
      () => ({ source: { repo: place.empty() } }),
      'source.repo',
      () => `source.repo ${place.empty()} has no commits on its default branch`,
    ],
    [
      'a local path that reads like a network error',
      () => ({ source: { repo: join(dir.path, 'connection refused') } }),
      'source.repo',
      () => 'could not be cloned',
    ],
  ])('%s is INVALID_INPUT naming its field', async (rule, config, field, message) => {
    const ctx = context(`run-${rule.replaceAll(' ', '-')}`, config());
    const error = await failure(pipeline.cloneInputs(ctx));
    expect(error).toMatchObject({ code: 'INVALID_INPUT', details: { field } });
    expect(error.message).toContain(message());
  });

  it.each([
    ['missing.git', { code: 'INVALID_INPUT', details: { field: 'source.repo' } }],
    [
      'broken.git',
      {
        code: 'INTERNAL',
        retryable: true,
        details: { cause_class: 'GitNetworkError', field: 'source.repo' },
      },
    ],
    ['private.git', { code: 'INVALID_INPUT', message: expect.stringContaining('Authentication failed') }],
  ])(
    'cloning %s over http: the failure is classified and never shows the credentials',
    async (path, expected) => {
      const url = `${baseUrl.replace('://', '://user:tok-Ux52@')}/${path}`;
      const ctx = context(`run-http-${path}`, { source: { repo: url } });
      const error = await failure(pipeline.cloneInputs(ctx));
      expect(error).toMatchObject(expected);
      expect(error.retryable === true).toBe(expected.code === 'INTERNAL');
      expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain('tok-Ux52');
    },
  );

  it('a clone still running after gitTimeoutMs is stopped: INTERNAL, retryable, naming the setting', async () => {
    const ctx = context('run-stalled', { source: { repo: `${baseUrl}/stall.git` } });
    const error = await failure(createLaunchPipeline({ gitTimeoutMs: 1000 }).cloneInputs(ctx));
    expect(error).toMatchObject({
      code: 'INTERNAL',
      retryable: true,
      details: { cause_class: 'GitTimeout', field: 'source.repo' },
    });
    expect(error.message).toContain('took longer than 1000 ms (LAUNCH_GIT_TIMEOUT_MS)');
  });

  /** A repository holding one file `name` of `bytes` bytes from `fill`, committed on main. */
  function repoWith(name: string, bytes: number, fill: (size: number) => Buffer): string {
    const repo = join(dir.path, `repo-${name}`);
    fs.mkdirSync(repo, { recursive: true });
    git(repo, 'init', '--quiet', '--initial-branch=main');
    fs.writeFileSync(join(repo, name), fill(bytes));
    git(repo, 'add', name);
    git(repo, ...IDENTITY, 'commit', '--quiet', '--no-gpg-sign', '-m', name);
    return repo;
  }

  it.each([
    ['incompressible content, large as cloned', 'noise.bin', (size: number) => randomBytes(size)],
    ['a small pack that checks out large', 'zeros.bin', (size: number) => Buffer.alloc(size)],
  ])(
    'a repository over cloneMaxBytes on disk is INVALID_INPUT naming its field: %s',
    async (_what, name, fill) => {
      const limit = 1_048_576;
      const ctx = context(`run-large-${name}`, { site: { repo: repoWith(name, 3 * limit, fill) } });
      const error = await failure(createLaunchPipeline({ cloneMaxBytes: limit }).cloneInputs(ctx));
      expect(error).toMatchObject({
        code: 'INVALID_INPUT',
        details: { field: 'site.repo', reason: 'repository_too_large', max_bytes: limit },
      });
      expect(error.message).toContain(`takes more than ${limit} bytes on disk (LAUNCH_CLONE_MAX_BYTES)`);
      expect(fs.existsSync(workspacePaths(ctx.runDir).site)).toBe(false);
    },
  );

  it('a repository within cloneMaxBytes is cloned', async () => {
    const ctx = context('run-within', { site: { repo: repoWith('small.bin', 256 * 1024, randomBytes) } });
    const result = await createLaunchPipeline({ cloneMaxBytes: 1_048_576 }).cloneInputs(ctx);
    expect(result.site_sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('a certificate git will not trust is INVALID_INPUT, not a network failure to retry', async () => {
    const https = await startUntrustedHttps();
    try {
      const ctx = context('run-untrusted', { source: { repo: `${https.url}/tallyho.git` } });
      const error = await failure(pipeline.cloneInputs(ctx));
      expect(error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'source.repo' } });
      expect(error.retryable).not.toBe(true);
      expect(error.message).toMatch(/certificate (problem|verification failed)/);
    } finally {
      await https.close();
    }
  });

  it('a repository asking for credentials fails at once: git never prompts', async () => {
    const ctx = context('run-prompt', { source: { repo: `${baseUrl}/private.git` } });
    const error = await failure(pipeline.cloneInputs(ctx));
    expect(error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('terminal prompts disabled'),
    });
  });

  it('a cancelled W1 leaves the workspace it found untouched', async () => {
    const ctx = context('run-cancelled');
    const marker = join(workspacePaths(ctx.runDir).site, 'kept.txt');
    fs.mkdirSync(workspacePaths(ctx.runDir).site, { recursive: true });
    fs.writeFileSync(marker, 'kept');
    ctx.controller.abort();
    expect((await failure(pipeline.cloneInputs(ctx))).code).toBe('CANCELLED');
    expect(fs.readFileSync(marker, 'utf8')).toBe('kept');
  });

  it('cancelling a run stops the git process it is waiting on', async () => {
    const started = join(dir.path, 'slow-git-started');
    const slow = script(join(dir.path, 'slow-git'), `touch '${started}'\nexec sleep 60\n`);
    const ctx = context('run-slow');
    const cloning = createLaunchPipeline({ gitBinary: slow }).cloneInputs(ctx);
    await vi.waitFor(() => expect(fs.existsSync(started)).toBe(true), { timeout: 10_000 });
    ctx.controller.abort();
    expect((await failure(cloning)).code).toBe('CANCELLED');
  });
});

describe('fileAtCommit', () => {
  it('a file keeps its bytes; a folder or a missing path is undefined', async () => {
    const client = gitClient(repos.sourceRepo);
    expect(await fileAtCommit(client, taggedSha, 'LATER.md')).toBe('later\n');
    const folder = git(repos.sourceRepo, 'ls-tree', '-d', '--name-only', taggedSha).split('\n')[0]!;
    expect(await fileAtCommit(client, taggedSha, folder)).toBeUndefined();
    expect(await fileAtCommit(client, firstSha, 'LATER.md')).toBeUndefined();
  });

  it('a submodule (a commit at the path, not a blob) is undefined', async () => {
    const repo = join(dir.path, 'with-submodule');
    fs.mkdirSync(repo);
    git(repo, 'init', '--quiet');
    git(repo, ...IDENTITY, 'commit', '--quiet', '--no-gpg-sign', '--allow-empty', '-m', 'first');
    // The gitlink names a commit this repository has, so git can tell its type.
    const first = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'update-index', '--add', '--cacheinfo', `160000,${first},vendored`);
    git(repo, ...IDENTITY, 'commit', '--quiet', '--no-gpg-sign', '-m', 'gitlink');
    expect(await fileAtCommit(gitClient(repo), 'HEAD', 'vendored')).toBeUndefined();
  });
});

describe('the workspace', () => {
  it('source, site and build are separate folders of the run; the build output is outside the site worktree', () => {
    const paths = workspacePaths(join(dir.path, 'run-x'));
    expect(paths.root).toBe(join(dir.path, 'run-x', 'workspace'));
    for (const folder of [paths.source, paths.site, paths.build]) expect(dirname(folder)).toBe(paths.root);
    expect(new Set([paths.source, paths.site, paths.build]).size).toBe(3);
  });
});

describe('restoreWorkspace rules', { timeout: 120_000 }, () => {
  let prepared: PreparedRun;
  let applied: AppliedFix[];
  beforeAll(async () => {
    prepared = await prepareExampleRun({ prefix: 'restore-rules', through: 'validate' });
    const { ctx } = prepared;
    const plan = await pipeline.planFix(ctx, ctx.artifacts.json('validation_report.json'));
    await pipeline.applyFix(ctx, plan);
    applied = [{ issue_id: plan.issue_id, path: plan.change!.path, after_sha256: plan.change!.after_sha256 }];
    // Both repositories move on after the run pinned them.
    for (const repo of [prepared.repos.sourceRepo, prepared.repos.siteWorkingCopy]) {
      fs.writeFileSync(join(repo, 'MOVED.md'), 'moved on\n');
      git(repo, 'add', 'MOVED.md');
      git(repo, ...IDENTITY, 'commit', '--quiet', '--no-gpg-sign', '-m', 'moved on');
    }
    git(prepared.repos.siteWorkingCopy, 'push', '--quiet', prepared.repos.siteRepo, 'HEAD:main');
  }, 120_000);
  afterAll(() => prepared?.cleanup());

  function restoreOf(ctx: TestContext): WorkspaceRestore {
    const inventory = ctx.artifacts.json<RepoInventory>('repo_inventory.json');
    return {
      inputs: { source_sha: inventory.source.sha, site_sha: inventory.site.sha },
      linked: true,
      fixes: applied,
    };
  }

  async function withoutWorkspace(name: string): Promise<TestContext> {
    const ctx = await copyRun(prepared, name);
    fs.rmSync(workspacePaths(ctx.runDir).root, { recursive: true, force: true });
    return ctx;
  }

  function editArtifact<T>(ctx: TestContext, name: string, edit: (value: T) => void): void {
    const value = ctx.artifacts.json<T>(name);
    edit(value);
    ctx.artifacts.files.set(name, new TextEncoder().encode(JSON.stringify(value)));
  }

  it('clones at the pinned SHAs, not where the repositories are now; a missing source alone is rebuilt', async () => {
    const ctx = await copyRun(prepared, 'pinned');
    const paths = workspacePaths(ctx.runDir);
    fs.rmSync(paths.source, { recursive: true, force: true });
    const restore = restoreOf(ctx);
    await pipeline.restoreWorkspace(ctx, restore);
    expect((await gitClient(paths.source).raw(['rev-parse', 'HEAD'])).trim()).toBe(restore.inputs.source_sha);

    const whole = await withoutWorkspace('pinned-whole');
    await pipeline.restoreWorkspace(whole, restore);
    const site = gitClient(workspacePaths(whole.runDir).site);
    expect((await site.raw(['rev-parse', 'HEAD'])).trim()).toBe(restore.inputs.site_sha);
    expect(fs.existsSync(join(workspacePaths(whole.runDir).site, 'MOVED.md'))).toBe(false);
  });

  it('a patch outside allowed_paths is ALLOWED_PATHS_VIOLATION before anything is cloned', async () => {
    const ctx = await withoutWorkspace('outside');
    editArtifact<PatchBundle>(ctx, 'patch_bundle.json', (bundle) => {
      bundle.patches.push({ ...bundle.patches[0]!, path: 'layouts/evil.html' });
    });
    expect((await failure(pipeline.restoreWorkspace(ctx, restoreOf(ctx)))).code).toBe(
      'ALLOWED_PATHS_VIOLATION',
    );
    expect(fs.existsSync(workspacePaths(ctx.runDir).root)).toBe(false);
  });

  it('a patch whose content does not have its recorded sha256 cannot rebuild the workspace', async () => {
    const ctx = await withoutWorkspace('tampered');
    let path = '';
    editArtifact<PatchBundle>(ctx, 'patch_bundle.json', (bundle) => {
      const patch = bundle.patches.find((candidate) => candidate.path !== applied[0]!.path)!;
      patch.content += '\nchanged after the fact\n';
      path = patch.path;
    });
    const error = await failure(pipeline.restoreWorkspace(ctx, restoreOf(ctx)));
    expect(error).toMatchObject({
      code: 'INTERNAL',
      details: { cause_class: 'WorkspaceRestoreError', path },
    });
    expect(error.message).toContain('does not have the recorded sha256');
  });

  it('the patch of the fixed path is the one restored, wherever the record lists it', async () => {
    const ctx = await withoutWorkspace('other-patch-first');
    type Record = { patches: { path: string; content?: string; after_sha256: string }[] };
    editArtifact<Record>(ctx, fixArtifactName(applied[0]!.issue_id), (record) => {
      const other = 'another page\n';
      record.patches.unshift({
        ...record.patches[0]!,
        path: 'content/other.md',
        content: other,
        after_sha256: sha256Hex(other),
      });
    });
    await pipeline.restoreWorkspace(ctx, restoreOf(ctx));
    const restored = fs.readFileSync(join(workspacePaths(ctx.runDir).site, applied[0]!.path));
    expect(sha256Hex(restored)).toBe(applied[0]!.after_sha256);
  });

  it('a fix record without the fixed content cannot rebuild the workspace', async () => {
    const ctx = await withoutWorkspace('no-content');
    editArtifact<{ patches: { content?: string }[] }>(
      ctx,
      fixArtifactName(applied[0]!.issue_id),
      (record) => {
        for (const patch of record.patches) delete patch.content;
      },
    );
    const error = await failure(pipeline.restoreWorkspace(ctx, restoreOf(ctx)));
    expect(error.details).toMatchObject({
      cause_class: 'WorkspaceRestoreError',
      issue_id: applied[0]!.issue_id,
    });
    expect(error.message).toContain('was recorded without the fixed content');
    expect(fs.existsSync(workspacePaths(ctx.runDir).root)).toBe(false);
  });
});
