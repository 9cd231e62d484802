import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { SimpleGit } from 'simple-git';
import { gitClient } from '../git/git-client.js';
import {
  boundedGitStep,
  gitInternalError,
  gitStep,
  headSha,
  isNetworkFailure,
  resolveCommit,
  type GitBound,
} from '../git/operations.js';
import { parseRepoLocation, type RepoLocation } from '../git/repo-location.js';
import { runScratchHome } from '../subprocess/environment.js';
import { folderBytes } from '../subprocess/folder-size-watch.js';
import { throwIfCancelled } from './errors.js';
import type { ResolvedPipelineOptions } from './options.js';
import type { WorkerContext } from './types.js';
import { launchBranch, workspacePaths } from './workspace.js';

function cloneFailure(field: string, location: RepoLocation) {
  return (message: string): SwitchyardError =>
    isNetworkFailure(message) && location.kind === 'network'
      ? new SwitchyardError('internal', `Cloning ${field} ${location.display} failed: ${message}`, {
          code: 'INTERNAL',
          retryable: true,
          details: { cause_class: 'GitNetworkError', field },
        })
      : new SwitchyardError('validation', `${field} ${location.display} could not be cloned: ${message}`, {
          code: 'INVALID_INPUT',
          details: { field },
        });
}

export interface ClonedRepo {
  repo: SimpleGit;
  sha: string;
}

/** The commit to check a repository out at, and the field an error about it names. */
export interface CloneRef {
  /** A branch, tag or commit; undefined for the default branch. */
  ref: string | undefined;
  field: string;
}

/** A git client in `dir` whose commands stop on `signal`. */
type GitIn = (dir: string, signal: AbortSignal) => SimpleGit;

/** Where a repository comes from and goes, and how it is checked out once its commit is known. */
interface CloneJob {
  location: RepoLocation;
  field: string;
  dir: string;
  at: CloneRef;
  checkoutArgs: (sha: string) => string[];
}

/** A clone or checkout stopped by the operator's bounds (LAUNCH_GIT_TIMEOUT_MS, LAUNCH_CLONE_MAX_BYTES). */
function cloneBoundError({ field, location }: CloneJob, options: ResolvedPipelineOptions) {
  return (bound: GitBound): SwitchyardError =>
    bound === 'time'
      ? new SwitchyardError(
          'internal',
          `Cloning ${field} ${location.display} took longer than ${options.gitTimeoutMs} ms (LAUNCH_GIT_TIMEOUT_MS)`,
          { code: 'INTERNAL', retryable: true, details: { cause_class: 'GitTimeout', field } },
        )
      : new SwitchyardError(
          'validation',
          `${field} ${location.display} takes more than ${options.cloneMaxBytes} bytes on disk (LAUNCH_CLONE_MAX_BYTES)`,
          {
            code: 'INVALID_INPUT',
            details: { field, reason: 'repository_too_large', max_bytes: options.cloneMaxBytes },
          },
        );
}

/**
 * Clones `job.location` into `job.dir` and checks it out at the commit `job.at` names. Both git commands are
 * bounded in time and in the bytes the repository's folder may hold (a folder over it is removed).
 */
async function cloneAt(
  job: CloneJob,
  git: GitIn,
  signal: AbortSignal,
  options: ResolvedPipelineOptions,
): Promise<ClonedRepo> {
  try {
    return await boundedCloneAt(job, git, signal, options);
  } catch (error) {
    // What a repository too large left behind is not kept: it may be as large as the bound.
    if (error instanceof SwitchyardError && error.details?.reason === 'repository_too_large')
      await rm(job.dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * cloneAt's work. The folder is counted once more at the end: a small repository is cloned before the
 * first look.
 */
async function boundedCloneAt(
  job: CloneJob,
  git: GitIn,
  signal: AbortSignal,
  options: ResolvedPipelineOptions,
): Promise<ClonedRepo> {
  const { location, field, dir, at } = job;
  const bounds = { timeoutMs: options.gitTimeoutMs, folder: { dir, maxBytes: options.cloneMaxBytes } };
  const exceeded = cloneBoundError(job, options);
  await boundedGitStep(
    signal,
    bounds,
    (bounded) =>
      git(join(dir, '..'), bounded).raw(['clone', '--quiet', '--no-checkout', '--', location.cloneArg, dir]),
    cloneFailure(field, location),
    exceeded,
  );
  const repo = git(dir, signal);
  const { ref } = at;
  const sha =
    ref === undefined
      ? await gitStep(
          signal,
          () => headSha(repo),
          () =>
            new SwitchyardError(
              'validation',
              `${field} ${location.display} has no commits on its default branch`,
              {
                code: 'INVALID_INPUT',
                details: { field },
              },
            ),
        )
      : await resolveCommit(repo, ref);
  if (sha === undefined) {
    throw new SwitchyardError(
      'validation',
      `${at.field} "${ref ?? ''}" names no branch, tag or commit of ${location.display}`,
      { code: 'INVALID_INPUT', details: { field: at.field } },
    );
  }
  await boundedGitStep(
    signal,
    bounds,
    (bounded) => git(dir, bounded).raw(['checkout', '--quiet', ...job.checkoutArgs(sha)]),
    gitInternalError('checkout'),
    exceeded,
  );
  if ((await folderBytes(dir, options.cloneMaxBytes)) > options.cloneMaxBytes) throw exceeded('bytes');
  return { repo, sha };
}

/** A git client for the run's workspace: the pipeline's binary, the run's scratch HOME. */
function workspaceGit(ctx: WorkerContext, options: ResolvedPipelineOptions): GitIn {
  return (dir, signal) =>
    gitClient(dir, {
      binary: options.gitBinary,
      signal,
      home: runScratchHome(ctx.runDir),
      config: { 'core.autocrlf': 'false', 'advice.detachedHead': 'false' },
    });
}

/**
 * Replaces the run's workspace with fresh clones: the source checked out (detached) at `refs.source`, the
 * site on the launch branch created at `refs.site`. A workspace left by an interrupted attempt is removed
 * first, so every clone starts from the same state.
 */
export async function cloneWorkspace(
  ctx: WorkerContext,
  options: ResolvedPipelineOptions,
  refs: { source: CloneRef; site: CloneRef },
): Promise<{ source: ClonedRepo; site: ClonedRepo }> {
  const { config, signal } = ctx;
  const paths = workspacePaths(ctx.runDir);
  const sourceLocation = parseRepoLocation(config.source.repo, 'source.repo');
  const siteLocation = parseRepoLocation(config.site.repo, 'site.repo');
  const git = workspaceGit(ctx, options);

  throwIfCancelled(signal);
  await rm(paths.root, { recursive: true, force: true });
  await mkdir(paths.root, { recursive: true });

  const source = await cloneAt(
    {
      location: sourceLocation,
      field: 'source.repo',
      dir: paths.source,
      at: refs.source,
      checkoutArgs: (sha) => ['--detach', sha],
    },
    git,
    signal,
    options,
  );
  const branch = launchBranch(ctx.runId, config.product_slug);
  const site = await cloneAt(
    {
      location: siteLocation,
      field: 'site.repo',
      dir: paths.site,
      at: refs.site,
      checkoutArgs: (sha) => ['-B', branch, sha],
    },
    git,
    signal,
    options,
  );
  return { source, site };
}
