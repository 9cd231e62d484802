import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { SimpleGit } from 'simple-git';
import { gitClient } from '../git/git-client.js';
import { gitInternalError, gitStep, headSha, resolveCommit } from '../git/operations.js';
import { parseRepoLocation, type RepoLocation } from '../git/repo-location.js';
import { runScratchHome } from '../subprocess/environment.js';
import { throwIfCancelled } from './errors.js';
import type { ResolvedPipelineOptions } from './options.js';
import type { WorkerContext } from './types.js';
import { launchBranch, workspacePaths } from './workspace.js';

const NETWORK_FAILURE =
  /could not resolve host|connection (refused|timed out|reset)|unable to access|network is unreachable|timed out|early eof/i;

function cloneFailure(field: string, location: RepoLocation) {
  return (message: string): SwitchyardError =>
    NETWORK_FAILURE.test(message) && location.kind === 'network'
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

async function cloneAt(
  location: RepoLocation,
  dir: string,
  at: CloneRef,
  field: string,
  git: (dir: string) => SimpleGit,
  signal: AbortSignal,
): Promise<ClonedRepo> {
  await gitStep(
    signal,
    () => git(join(dir, '..')).raw(['clone', '--quiet', '--no-checkout', '--', location.cloneArg, dir]),
    cloneFailure(field, location),
  );
  const repo = git(dir);
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
  return { repo, sha };
}

/** A git client for the run's workspace: the pipeline's binary, the run's signal and scratch HOME. */
function workspaceGit(ctx: WorkerContext, options: ResolvedPipelineOptions): (dir: string) => SimpleGit {
  return (dir) =>
    gitClient(dir, {
      binary: options.gitBinary,
      signal: ctx.signal,
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

  const source = await cloneAt(sourceLocation, paths.source, refs.source, 'source.repo', git, signal);
  await gitStep(
    signal,
    () => source.repo.raw(['checkout', '--quiet', '--detach', source.sha]),
    gitInternalError('checkout'),
  );
  const site = await cloneAt(siteLocation, paths.site, refs.site, 'site.repo', git, signal);
  const branch = launchBranch(ctx.runId, config.product_slug);
  await gitStep(
    signal,
    () => site.repo.raw(['checkout', '--quiet', '-B', branch, site.sha]),
    gitInternalError('checkout'),
  );
  return { source, site };
}
