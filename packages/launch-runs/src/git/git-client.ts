import { devNull } from 'node:os';
import { redactSecrets } from '@switchyard/resilience/context';
import { simpleGit, type SimpleGit } from 'simple-git';
import { emptyDirIn, processScratchHome, subprocessEnvironment } from '../subprocess/environment.js';
import { stripCredentials } from './repo-location.js';

/**
 * simple-git (a maintained wrapper over the git CLI) with an isolated, reproducible environment: the
 * minimal subprocess environment (a scratch HOME, no server secrets), no global or system git config (so a
 * user's hooks, signing, aliases or credential helpers never leak into a run), no terminal prompts, only the
 * file/git/http(s)/ssh transports (never ext:: or fd::), C locale messages, and the settings a repository a
 * caller named could otherwise use to run code locked down (hooks, fsmonitor, submodule recursion).
 */

export interface GitClientOptions {
  /** The git executable; `git` on PATH by default. */
  binary?: string;
  signal?: AbortSignal;
  /** Per-command configuration passed through the environment (so secrets stay out of argv). */
  config?: Record<string, string>;
  /** Extra environment (author/committer identity and dates). */
  env?: Record<string, string>;
  /** HOME of the git processes: the run's scratch home; a per-process scratch folder by default. */
  home?: string;
}

/**
 * Configuration no caller can change: hooks from an empty folder (a clone, checkout or commit in a caller's
 * repository never runs a hook), no fsmonitor command, no submodule recursion. No credential helper is
 * configured anywhere (no global or system config, a scratch HOME), and GIT_ALLOW_PROTOCOL below overrides
 * every protocol.*.allow setting.
 */
function lockedConfig(home: string): Record<string, string> {
  return {
    'core.hooksPath': emptyDirIn(home, 'no-hooks'),
    'core.fsmonitor': 'false',
    'submodule.recurse': 'false',
  };
}

function gitEnvironment(options: GitClientOptions): Record<string, string> {
  const home = options.home ?? processScratchHome();
  const config = Object.entries({ ...options.config, ...lockedConfig(home) });
  const locked: Record<string, string> = {
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_ALLOW_PROTOCOL: 'file:git:http:https:ssh',
    GIT_CONFIG_COUNT: String(config.length),
  };
  config.forEach(([key, value], index) => {
    locked[`GIT_CONFIG_KEY_${index}`] = key;
    locked[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  // The locked variables come last: a caller's extra environment (identity, dates) cannot undo them.
  return { ...subprocessEnvironment({ kind: 'git', home, extra: options.env }), ...locked };
}

export function gitClient(baseDir: string, options: GitClientOptions = {}): SimpleGit {
  const environment = gitEnvironment(options);
  const git = simpleGit({
    baseDir,
    binary: options.binary ?? 'git',
    maxConcurrentProcesses: 1,
    trimmed: false,
    ...(options.signal === undefined ? {} : { abort: options.signal }),
    // simple-git refuses GIT_* variables it was not told of; this environment is the whole of what git
    // sees (never process.env), built above, so every variable in it is allowed.
    allowEnvironment: Object.keys(environment),
    unsafe: {
      // Set by this module only, with fixed or secret-bearing values it controls (the hooks path is an
      // empty folder and fsmonitor is off: they lock those down rather than open them).
      allowUnsafeConfigPaths: true,
      allowUnsafeConfigEnvCount: true,
      allowUnsafeHooksPath: true,
      allowUnsafeFsMonitor: true,
      ...(options.binary === undefined ? {} : { allowUnsafeCustomBinary: true }),
    },
  });
  return git.env(environment);
}

/** A git failure's message, safe to show: credentials and registered secrets removed, bounded. */
export function gitFailureMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const lines = raw
    .split('\n')
    .map((line) => stripCredentials(line.trim()))
    .filter((line) => line !== '');
  return redactSecrets(lines.slice(-6).join(' | ')).slice(0, 600);
}
