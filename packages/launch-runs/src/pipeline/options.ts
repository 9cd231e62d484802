import { LOCKED_HUGO, type HugoSecurity } from '../gates/hugo-lockdown.js';

/** A site generator invocation for the SiteBuild gate (run in the site worktree, no shell). */
export interface SiteBuildCommand {
  command: string;
  args?: readonly string[];
  /** Extra environment; `SWITCHYARD_SITE_BUILD_DIR` (an empty folder outside the worktree) is always set. */
  env?: Readonly<Record<string, string>>;
}

export interface GithubClientOptions {
  /** Per-attempt timeout. Default 15 s. */
  timeoutMs?: number;
  /** Attempts per request, the first included. Default 3. */
  maxAttempts?: number;
  /** Backoff between attempts. Default 200..2000 ms. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** Default of `maxFileBytes` (LAUNCH_MAX_FILE_BYTES): 4 MiB, far above any README or manifest. */
export const DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Default of `maxHashBytes` (LAUNCH_MAX_HASH_BYTES): 1 GiB, a few seconds of streamed hashing. */
export const DEFAULT_MAX_HASH_BYTES = 1024 * 1024 * 1024;

/** Default of `gitTimeoutMs` (LAUNCH_GIT_TIMEOUT_MS): 10 minutes, a large repository over a slow link. */
export const DEFAULT_GIT_TIMEOUT_MS = 10 * 60 * 1000;
/** Default of `cloneMaxBytes` (LAUNCH_CLONE_MAX_BYTES): 4 GiB per repository, checkout included (room for a 2 GiB file). */
export const DEFAULT_CLONE_MAX_BYTES = 4 * 1024 * 1024 * 1024;

export interface LaunchPipelineOptions {
  /**
   * Largest source file W2/W3 read to parse it (README, manifest, LICENSE, CHANGELOG, docs and example
   * files); a bigger one is skipped and their artifacts say so. Default 4 MiB.
   */
  maxFileBytes?: number;
  /**
   * Largest file W1 hashes (streamed, in fixed chunks) for `repo_inventory.json`; a bigger one is listed
   * with its size, `sha256: null` and the reason. Default 1 GiB.
   */
  maxHashBytes?: number;
  /** The git executable; `git` on PATH by default. */
  gitBinary?: string;
  /** Longest one git clone, checkout or push may take before git is stopped. Default 10 min. */
  gitTimeoutMs?: number;
  /** Bytes one cloned repository may take on disk, its checkout included, before git is stopped. Default 4 GiB. */
  cloneMaxBytes?: number;
  /** The hugo executable used when the site has a hugo config; `hugo` on PATH by default. */
  hugoBinary?: string;
  /** Overrides generator detection for SiteBuild (e.g. a site built by a script). */
  siteBuildCommand?: SiteBuildCommand;
  /** Longest a site build may take before it fails the gate. Default 120 s. */
  siteBuildTimeoutMs?: number;
  /** Bytes a site build may write (pages, resources, caches) before it is stopped. Default 256 MiB. */
  siteBuildMaxOutputBytes?: number;
  /** What a site's hugo build may run and fetch; nothing by default (see gates/hugo-lockdown.ts). */
  hugoSecurity?: Partial<HugoSecurity>;
  /** Tuning of the GitHub pull request client. */
  github?: GithubClientOptions;
}

export interface ResolvedPipelineOptions {
  maxFileBytes: number;
  maxHashBytes: number;
  gitBinary: string | undefined;
  gitTimeoutMs: number;
  cloneMaxBytes: number;
  hugoBinary: string;
  siteBuildCommand: SiteBuildCommand | undefined;
  siteBuildTimeoutMs: number;
  siteBuildMaxOutputBytes: number;
  hugoSecurity: HugoSecurity;
  github: Required<GithubClientOptions>;
}

export function resolvePipelineOptions(options: LaunchPipelineOptions = {}): ResolvedPipelineOptions {
  return {
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maxHashBytes: options.maxHashBytes ?? DEFAULT_MAX_HASH_BYTES,
    gitBinary: options.gitBinary,
    gitTimeoutMs: options.gitTimeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    cloneMaxBytes: options.cloneMaxBytes ?? DEFAULT_CLONE_MAX_BYTES,
    hugoBinary: options.hugoBinary ?? 'hugo',
    siteBuildCommand: options.siteBuildCommand,
    siteBuildTimeoutMs: options.siteBuildTimeoutMs ?? 120_000,
    siteBuildMaxOutputBytes: options.siteBuildMaxOutputBytes ?? 256 * 1024 * 1024,
    hugoSecurity: { ...LOCKED_HUGO, ...options.hugoSecurity },
    github: {
      timeoutMs: options.github?.timeoutMs ?? 15_000,
      maxAttempts: options.github?.maxAttempts ?? 3,
      initialDelayMs: options.github?.initialDelayMs ?? 200,
      maxDelayMs: options.github?.maxDelayMs ?? 2_000,
    },
  };
}
