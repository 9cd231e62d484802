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

export interface LaunchPipelineOptions {
  /** The git executable; `git` on PATH by default. */
  gitBinary?: string;
  /** The hugo executable used when the site has a hugo config; `hugo` on PATH by default. */
  hugoBinary?: string;
  /** Overrides generator detection for SiteBuild (e.g. a site built by a script). */
  siteBuildCommand?: SiteBuildCommand;
  /** Longest a site build may take before it fails the gate. Default 120 s. */
  siteBuildTimeoutMs?: number;
  /** Tuning of the GitHub pull request client. */
  github?: GithubClientOptions;
}

export interface ResolvedPipelineOptions {
  gitBinary: string | undefined;
  hugoBinary: string;
  siteBuildCommand: SiteBuildCommand | undefined;
  siteBuildTimeoutMs: number;
  github: Required<GithubClientOptions>;
}

export function resolvePipelineOptions(options: LaunchPipelineOptions = {}): ResolvedPipelineOptions {
  return {
    gitBinary: options.gitBinary,
    hugoBinary: options.hugoBinary ?? 'hugo',
    siteBuildCommand: options.siteBuildCommand,
    siteBuildTimeoutMs: options.siteBuildTimeoutMs ?? 120_000,
    github: {
      timeoutMs: options.github?.timeoutMs ?? 15_000,
      maxAttempts: options.github?.maxAttempts ?? 3,
      initialDelayMs: options.github?.initialDelayMs ?? 200,
      maxDelayMs: options.github?.maxDelayMs ?? 2_000,
    },
  };
}
