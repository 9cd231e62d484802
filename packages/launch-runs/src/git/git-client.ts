import { devNull } from 'node:os';
import { redactSecrets } from '@switchyard/resilience/context';
import { simpleGit, type SimpleGit } from 'simple-git';
import { stripCredentials } from './repo-location.js';

/**
 * simple-git (a maintained wrapper over the git CLI) with an isolated, reproducible environment: no global
 * or system git config (so a user's hooks, signing or aliases never leak into a run), no terminal prompts,
 * only the file/git/http(s)/ssh transports, and C locale messages.
 */

export interface GitClientOptions {
  /** The git executable; `git` on PATH by default. */
  binary?: string;
  signal?: AbortSignal;
  /** Per-command configuration passed through the environment (so secrets stay out of argv). */
  config?: Record<string, string>;
  /** Extra environment (author/committer identity and dates). */
  env?: Record<string, string>;
}

const PASSTHROUGH_ENV = [
  'PATH',
  'HOME',
  'TMPDIR',
  'SSH_AUTH_SOCK',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'SYSTEMROOT',
];

function gitEnvironment(options: GitClientOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSTHROUGH_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, {
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_ALLOW_PROTOCOL: 'file:git:http:https:ssh',
  });
  const config = Object.entries(options.config ?? {});
  if (config.length > 0) {
    env.GIT_CONFIG_COUNT = String(config.length);
    config.forEach(([key, value], index) => {
      env[`GIT_CONFIG_KEY_${index}`] = key;
      env[`GIT_CONFIG_VALUE_${index}`] = value;
    });
  }
  return { ...env, ...options.env };
}

export function gitClient(baseDir: string, options: GitClientOptions = {}): SimpleGit {
  const git = simpleGit({
    baseDir,
    binary: options.binary ?? 'git',
    maxConcurrentProcesses: 1,
    trimmed: false,
    ...(options.signal === undefined ? {} : { abort: options.signal }),
    unsafe: {
      // Both are set by this module only, with fixed or secret-bearing values it controls.
      allowUnsafeConfigPaths: true,
      allowUnsafeConfigEnvCount: true,
      ...(options.binary === undefined ? {} : { allowUnsafeCustomBinary: true }),
    },
  });
  return git.env(gitEnvironment(options));
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
