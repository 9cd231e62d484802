import { fileURLToPath } from 'node:url';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { RunConfig } from '@switchyard/contracts/launch-runs';
import type { LaunchRunsConfig } from '../config.js';
import { parseRepoLocation, type RepoLocation } from '../git/repo-location.js';
import { RunPaths } from '../store/run-paths.js';
import { canonicalPath, isInside } from './canonical-path.js';

/**
 * The operator decides, the caller chooses within it: which repositories a run_config may name and where
 * a PR token may go. The policy comes from the server's environment (config.ts) and never from a tool
 * argument; a run_config outside it is INVALID_INPUT naming the policy and the setting that widens it,
 * checked when the run starts and again right before W1 or a workspace restore clones and W9 pushes or
 * opens the PR.
 */
export interface LaunchPolicy {
  /** Canonical folders local repositories (paths, file:// URLs) may be cloned from and pushed to. */
  repoRoots: readonly string[];
  /**
   * The runs' own folders (clones, worktrees, builds), never a repository a run may name, whatever the
   * roots: a caller's site could check out a repository with hooks there and have a later run push to it.
   */
  runsRoot: string;
  /** Host names network repositories (https, http, ssh, git, user@host:path) may be on. */
  remoteHosts: readonly string[];
  /** GitHub API base URLs a PR may be opened through (and the token sent to). */
  githubApiUrls: readonly string[];
  /** Environment variables pr.github.token_env may name. */
  prTokenEnv: readonly string[];
}

export const DEFAULT_REMOTE_HOSTS: readonly string[] = ['github.com', 'gitlab.com'];
export const DEFAULT_GITHUB_API_URLS: readonly string[] = ['https://api.github.com'];

/**
 * The policy a configuration sets, with the defaults for what it leaves unset (local repositories: the
 * server's data directory `dataDir`, outside the runs' own folders).
 */
export function resolveLaunchPolicy(config: LaunchRunsConfig, dataDir: string): LaunchPolicy {
  return {
    repoRoots: (config.repoRoots ?? [dataDir]).map(canonicalPath),
    runsRoot: canonicalPath(new RunPaths(dataDir).root),
    remoteHosts: config.remoteHosts ?? DEFAULT_REMOTE_HOSTS,
    githubApiUrls: (config.githubApiUrls ?? DEFAULT_GITHUB_API_URLS).map(normalizeApiUrl),
    prTokenEnv: config.prTokenEnv ?? [],
  };
}

type PolicyReason =
  | 'repo_outside_allowed_roots'
  | 'repo_in_run_workspace'
  | 'remote_host_not_allowed'
  | 'api_base_url_not_allowed'
  | 'token_env_not_allowed';

/** Each rule: the reason a refusal carries and the setting that would allow it (none for the runs' folders). */
const SETTINGS: Record<PolicyReason, string | undefined> = {
  repo_outside_allowed_roots: 'LAUNCH_REPO_ROOTS',
  repo_in_run_workspace: undefined,
  remote_host_not_allowed: 'LAUNCH_REMOTE_HOSTS',
  api_base_url_not_allowed: 'LAUNCH_GITHUB_API_URLS',
  token_env_not_allowed: 'LAUNCH_PR_TOKEN_ENV',
};

function refusal(reason: PolicyReason, field: string, message: string): SwitchyardError {
  const setting = SETTINGS[reason];
  return new SwitchyardError(
    'validation',
    setting === undefined ? message : `${message}; the server's operator allows more with ${setting}`,
    { code: 'INVALID_INPUT', details: { reason, setting, field } },
  );
}

/** A GitHub API base URL in the one form policies compare: origin + path, no trailing slash. */
export function normalizeApiUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** The host of a network repository location (`https://host/…`, `ssh://user@host:22/…`, `user@host:path`). */
function networkHost(location: RepoLocation): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location.cloneArg)) {
    try {
      return new URL(location.cloneArg).hostname.toLowerCase();
    } catch {
      return undefined;
    }
  }
  return /^[^@]+@([^:]+):/.exec(location.cloneArg)?.[1]?.toLowerCase();
}

function localPath(location: RepoLocation): string | undefined {
  if (location.kind === 'local') return location.cloneArg;
  try {
    return fileURLToPath(location.cloneArg);
  } catch {
    return undefined; // file://otherhost/… is not a local path
  }
}

/** Refuses a repository the policy does not allow (a local one outside the roots, a network one elsewhere). */
export function checkRepository(location: RepoLocation, field: string, policy: LaunchPolicy): void {
  if (location.kind === 'network') {
    const host = networkHost(location);
    if (host === undefined || !policy.remoteHosts.includes(host)) {
      throw refusal(
        'remote_host_not_allowed',
        field,
        `${field} is on ${host === undefined ? 'an unknown host' : `host ${host}`}, which is not an allowed git host (allowed: ${policy.remoteHosts.join(', ') || 'none'})`,
      );
    }
    return;
  }
  const path = localPath(location);
  const canonical = path === undefined ? undefined : canonicalPath(path);
  if (canonical !== undefined && isInside(policy.runsRoot, canonical)) {
    throw refusal(
      'repo_in_run_workspace',
      field,
      `${field} ${location.display} is inside the folders this server keeps runs in, which no run may use as a repository`,
    );
  }
  if (canonical === undefined || !policy.repoRoots.some((root) => isInside(root, canonical))) {
    throw refusal(
      'repo_outside_allowed_roots',
      field,
      `${field} ${location.display} is outside the folders this server may use local repositories from`,
    );
  }
}

/** The GitHub settings of pr: the token variable must be allowed, and may only go to an allowed API. */
function checkGithub(github: NonNullable<RunConfig['pr']['github']>, policy: LaunchPolicy): void {
  if (!policy.prTokenEnv.includes(github.token_env)) {
    throw refusal(
      'token_env_not_allowed',
      'pr.github.token_env',
      `pr.github.token_env ${github.token_env} is not a variable this server lets runs use as a PR token (allowed: ${policy.prTokenEnv.join(', ') || 'none'})`,
    );
  }
  const api = normalizeApiUrl(github.api_base_url ?? DEFAULT_GITHUB_API_URLS[0]!);
  if (!policy.githubApiUrls.includes(api)) {
    throw refusal(
      'api_base_url_not_allowed',
      'pr.github.api_base_url',
      `pr.github.api_base_url ${api} is not a GitHub API this server sends tokens to (allowed: ${policy.githubApiUrls.join(', ') || 'none'})`,
    );
  }
}

/** Every repository and PR setting of a run_config against the policy; throws the first refusal. */
export function checkRunConfigPolicy(config: RunConfig, policy: LaunchPolicy): void {
  checkRepository(parseRepoLocation(config.source.repo, 'source.repo'), 'source.repo', policy);
  checkRepository(parseRepoLocation(config.site.repo, 'site.repo'), 'site.repo', policy);
  if (config.pr.remote !== undefined) {
    checkRepository(parseRepoLocation(config.pr.remote, 'pr.remote'), 'pr.remote', policy);
  }
  if (config.pr.provider === 'github' && config.pr.github !== undefined)
    checkGithub(config.pr.github, policy);
}
