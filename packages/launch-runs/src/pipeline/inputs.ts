import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { SimpleGit } from 'simple-git';
import { gitClient } from '../git/git-client.js';
import { gitInternalError, gitStep, headSha, resolveCommit, trackedFiles } from '../git/operations.js';
import { parseRepoLocation, type RepoLocation } from '../git/repo-location.js';
import { runScratchHome } from '../subprocess/environment.js';
import { writeJsonArtifact } from './artifact-io.js';
import type { RepoInventory } from './artifact-schemas.js';
import { throwIfCancelled } from './errors.js';
import { inventoryFiles } from './inventory.js';
import type { ResolvedPipelineOptions } from './options.js';
import type { InputsResult, WorkerContext } from './types.js';
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

async function cloneAt(
  location: RepoLocation,
  dir: string,
  ref: string | undefined,
  field: string,
  refField: string,
  git: (dir: string) => SimpleGit,
  signal: AbortSignal,
): Promise<{ repo: SimpleGit; sha: string }> {
  await gitStep(
    signal,
    () => git(join(dir, '..')).raw(['clone', '--quiet', '--no-checkout', '--', location.cloneArg, dir]),
    cloneFailure(field, location),
  );
  const repo = git(dir);
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
      `${refField} "${ref ?? ''}" names no branch, tag or commit of ${location.display}`,
      { code: 'INVALID_INPUT', details: { field: refField } },
    );
  }
  return { repo, sha };
}

/**
 * W1: clones the source (at `ref` or its default branch) and the site (at `base_ref`) into the run's
 * workspace, creates the launch branch, pins both SHAs and inventories the files. A workspace left by an
 * interrupted attempt is removed first, so a re-run starts from the same state as a first run.
 */
export async function cloneInputs(
  ctx: WorkerContext,
  options: ResolvedPipelineOptions,
): Promise<InputsResult> {
  const { config, signal } = ctx;
  const paths = workspacePaths(ctx.runDir);
  const source = parseRepoLocation(config.source.repo, 'source.repo');
  const site = parseRepoLocation(config.site.repo, 'site.repo');
  const git = (dir: string): SimpleGit =>
    gitClient(dir, {
      binary: options.gitBinary,
      signal,
      home: runScratchHome(ctx.runDir),
      config: { 'core.autocrlf': 'false', 'advice.detachedHead': 'false' },
    });

  throwIfCancelled(signal);
  await rm(paths.root, { recursive: true, force: true });
  await mkdir(paths.root, { recursive: true });

  const cloned = await cloneAt(
    source,
    paths.source,
    config.source.ref,
    'source.repo',
    'source.ref',
    git,
    signal,
  );
  await gitStep(
    signal,
    () => cloned.repo.raw(['checkout', '--quiet', '--detach', cloned.sha]),
    gitInternalError('checkout'),
  );
  const committedAt = (
    await gitStep(
      signal,
      () => cloned.repo.raw(['show', '-s', '--format=%cI', cloned.sha]),
      gitInternalError('show'),
    )
  ).trim();

  const siteClone = await cloneAt(
    site,
    paths.site,
    config.site.base_ref,
    'site.repo',
    'site.base_ref',
    git,
    signal,
  );
  const branch = launchBranch(ctx.runId, config.product_slug);
  await gitStep(
    signal,
    () => siteClone.repo.raw(['checkout', '--quiet', '-B', branch, siteClone.sha]),
    gitInternalError('checkout'),
  );

  const record: RepoInventory = {
    schema_version: '1.0',
    source: {
      ref: config.source.ref ?? null,
      sha: cloned.sha,
      committed_at: committedAt,
      files: await inventoryFiles(
        paths.source,
        await trackedFiles(cloned.repo),
        options.maxHashBytes,
        signal,
      ),
    },
    site: {
      base_ref: config.site.base_ref,
      sha: siteClone.sha,
      files: await inventoryFiles(
        paths.site,
        await trackedFiles(siteClone.repo),
        options.maxHashBytes,
        signal,
      ),
    },
  };
  throwIfCancelled(signal);
  await writeJsonArtifact(ctx.artifacts, 'repo_inventory.json', record);
  ctx.logger.info('W1 cloned inputs', {
    source_sha: cloned.sha,
    site_sha: siteClone.sha,
    source_files: record.source.files.length,
    site_files: record.site.files.length,
  });
  return { source_sha: cloned.sha, site_sha: siteClone.sha };
}
