import { lstat } from 'node:fs/promises';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { readJsonArtifact } from './artifact-io.js';
import { FixRecordSchema } from './artifact-schemas.js';
import { cloneWorkspace } from './clone-workspace.js';
import { throwIfCancelled } from './errors.js';
import { fixArtifactName } from './fix.js';
import { sha256Hex } from './hashing.js';
import type { ResolvedPipelineOptions } from './options.js';
import { assertAllowed, readSiteFile, writeSiteFiles, type SiteFileWrite } from './site-files.js';
import type { AppliedFix, WorkerContext, WorkspaceRestore } from './types.js';
import { readWorkerArtifact } from './worker-artifacts.js';
import { workspacePaths } from './workspace.js';

/** A site file to restore and the sha256 it must have; `issue_id` names the fix that wrote it. */
interface RestoredFile extends SiteFileWrite {
  sha256: string;
  issue_id?: string;
}

function cannotRebuild(reason: string, file: { path: string; issue_id?: string }): SwitchyardError {
  return new SwitchyardError('internal', `The run's workspace cannot be rebuilt on this replica: ${reason}`, {
    code: 'INTERNAL',
    retryable: false,
    details: { cause_class: 'WorkspaceRestoreError', issue_id: file.issue_id, path: file.path },
  });
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** The content `fix` wrote, from its record; a record a later attempt at the issue replaced cannot give it. */
async function fixedFile(ctx: WorkerContext, fix: AppliedFix): Promise<RestoredFile> {
  const name = fixArtifactName(fix.issue_id);
  const record = await readJsonArtifact(ctx.artifacts, name, FixRecordSchema, 'W8 (applyFix)');
  const patch = record.patches.find((candidate) => candidate.path === fix.path);
  if (patch === undefined)
    throw cannotRebuild(
      `${name} no longer records a change to ${fix.path} (a later attempt replaced it)`,
      fix,
    );
  if (patch.content === undefined)
    throw cannotRebuild(`${name} was recorded without the fixed content of ${fix.path}`, fix);
  if (sha256Hex(patch.content) !== fix.after_sha256)
    throw cannotRebuild(
      `${name} records a later fix of ${fix.path} than the one applied (its sha256 differs)`,
      fix,
    );
  return { path: fix.path, content: patch.content, sha256: fix.after_sha256, issue_id: fix.issue_id };
}

/** Every restored file has the sha256 of the last write to its path. */
async function verifyRestoredFiles(siteRoot: string, files: readonly RestoredFile[]): Promise<void> {
  const lastWrites = new Map(files.map((file) => [file.path, file]));
  for (const file of lastWrites.values()) {
    const content = await readSiteFile(siteRoot, file.path);
    if (content === undefined || sha256Hex(content) !== file.sha256)
      throw cannotRebuild(`${file.path} does not have the recorded sha256 after restoring it`, file);
  }
}

/**
 * Rebuilds the run's workspace on a replica that does not have it: fresh clones at the pinned SHAs (as W1
 * makes them), then the site files W6 and W8 wrote, from their artifacts. Everything is read and checked
 * before anything is cloned. Writes no artifact; a workspace that is already there is left alone.
 */
export async function restoreWorkspace(
  ctx: WorkerContext,
  restore: WorkspaceRestore,
  options: ResolvedPipelineOptions,
): Promise<void> {
  const paths = workspacePaths(ctx.runDir);
  if ((await exists(paths.source)) && (await exists(paths.site))) return;

  const files: RestoredFile[] = restore.linked
    ? [...(await readWorkerArtifact(ctx.artifacts, 'patch_bundle.json')).patches]
    : [];
  // A fix writes a whole file, so only the last fix of a path decides it; its record is its issue's latest.
  for (const fix of new Map(restore.fixes.map((applied) => [applied.path, applied])).values()) {
    throwIfCancelled(ctx.signal);
    files.push(await fixedFile(ctx, fix));
  }
  assertAllowed(
    files.map((file) => file.path),
    ctx.config.allowed_paths,
  );

  await cloneWorkspace(ctx, options, {
    source: { ref: restore.inputs.source_sha, field: 'source_sha' },
    site: { ref: restore.inputs.site_sha, field: 'site_sha' },
  });
  await writeSiteFiles(paths.site, files, ctx);
  throwIfCancelled(ctx.signal);
  await verifyRestoredFiles(paths.site, files);
  ctx.logger.info('Restored the workspace', {
    source_sha: restore.inputs.source_sha,
    site_sha: restore.inputs.site_sha,
    linked: restore.linked,
    fixes: restore.fixes.length,
  });
}
