import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The one place that builds the environment of every process launch-runs spawns (git, the site generator,
 * a configured build command). Never `process.env`: a child sees an explicit allow-list of the server's
 * variables, a scratch HOME of its own, the C locale, and what its caller adds. So the server's secrets
 * (SWITCHYARD_TOKEN, the upstream API keys, a PR token) and the user's home (~/.gitconfig, ~/.netrc,
 * ~/.git-credentials, tool caches) never reach code that a caller's repository can steer.
 */

/** What a child process is for; each kind passes only the server variables it needs. */
export type SubprocessKind = 'git' | 'generator';

const BASE = ['PATH', 'TMPDIR', 'TMP', 'TEMP', 'SYSTEMROOT'] as const;
const PROXY = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'] as const;

/** Server variables passed through, per kind (the ssh agent only to git, never to a site's build). */
export const PASSTHROUGH_ENV: Readonly<Record<SubprocessKind, readonly string[]>> = {
  git: [...BASE, ...PROXY, 'SSH_AUTH_SOCK'],
  generator: [...BASE, ...PROXY],
};

/** A run's scratch home (`<runDir>/home`): HOME of every process spawned for that run. */
export function runScratchHome(runDir: string): string {
  return join(runDir, 'home');
}

let processHome: string | undefined;

/**
 * A scratch home for processes spawned outside any run (writing the example repositories): one empty
 * folder per server process, removed when it exits.
 */
export function processScratchHome(): string {
  if (processHome === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-home-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    processHome = dir;
  }
  return processHome;
}

/** An empty folder inside `home` (created if missing), e.g. git's core.hooksPath. */
export function emptyDirIn(home: string, name: string): string {
  const dir = join(home, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface SubprocessEnvOptions {
  kind: SubprocessKind;
  /** HOME (and USERPROFILE) of the child: a scratch folder, created if missing. */
  home: string;
  /** Variables the caller sets (they win over the pass-through ones). */
  extra?: Readonly<Record<string, string>>;
  /** The server's environment to pick from; process.env by default (tests pass their own). */
  from?: Readonly<Record<string, string | undefined>>;
}

export function subprocessEnvironment(options: SubprocessEnvOptions): Record<string, string> {
  const from = options.from ?? process.env;
  mkdirSync(options.home, { recursive: true });
  const env: Record<string, string> = {};
  for (const name of PASSTHROUGH_ENV[options.kind]) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    HOME: options.home,
    USERPROFILE: options.home,
    XDG_CONFIG_HOME: join(options.home, '.config'),
    XDG_CACHE_HOME: join(options.home, '.cache'),
    LANG: 'C',
    LC_ALL: 'C',
    ...options.extra,
  };
}
