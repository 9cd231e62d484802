import { gitInternalError, gitStep, trackedFiles } from '../git/operations.js';
import { writeJsonArtifact } from './artifact-io.js';
import type { RepoInventory } from './artifact-schemas.js';
import { cloneWorkspace } from './clone-workspace.js';
import { throwIfCancelled } from './errors.js';
import { inventoryFiles } from './inventory.js';
import type { ResolvedPipelineOptions } from './options.js';
import type { InputsResult, WorkerContext } from './types.js';
import { workspacePaths } from './workspace.js';

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
  const { source: cloned, site: siteClone } = await cloneWorkspace(ctx, options, {
    source: { ref: config.source.ref, field: 'source.ref' },
    site: { ref: config.site.base_ref, field: 'site.base_ref' },
  });
  const committedAt = (
    await gitStep(
      signal,
      () => cloned.repo.raw(['show', '-s', '--format=%cI', cloned.sha]),
      gitInternalError('show'),
    )
  ).trim();

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
