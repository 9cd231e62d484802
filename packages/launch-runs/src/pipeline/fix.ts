import { SwitchyardError } from '@switchyard/contracts/errors';
import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import { applyFix, selectNextIssue } from '../fixes/index.js';
import { parsePage } from '../gates/page-doc.js';
import { writeJsonArtifact } from './artifact-io.js';
import { throwIfCancelled } from './errors.js';
import { patchId, sha256Hex } from './hashing.js';
import { assertAllowed, readSiteFile, UnsafeSitePathError, writeSiteFile } from './site-files.js';
import type { FixResult, WorkerContext } from './types.js';
import { loadGateContext } from './validate.js';
import { readWorkerArtifact } from './worker-artifacts.js';

/**
 * W8: fixes exactly the next issue of `report` (first open blocker/error in report order) with the smallest
 * change, a pure function of the issue and the files. Writes only inside allowed_paths (else
 * ALLOWED_PATHS_VIOLATION, nothing written) and records `fix_<issue_id>.json`. `changed: false` tells the
 * runtime the fix was a no-op.
 */
export async function fixNext(ctx: WorkerContext, report: ValidationReport): Promise<FixResult> {
  const issue = selectNextIssue(report);
  if (issue === undefined) {
    throw new SwitchyardError('conflict', 'The validation report has no open blocker or error to fix', {
      code: 'ILLEGAL_STATE',
      details: { report_ok: report.ok },
    });
  }
  // The id names the fix artifact: it must be a plain token, never a path.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(issue.issue_id)) {
    throw new SwitchyardError('validation', 'The issue id must be a plain identifier', {
      code: 'INVALID_INPUT',
      details: { issue_id: issue.issue_id.slice(0, 80) },
    });
  }
  const plan = await readWorkerArtifact(ctx.artifacts, 'page_plan.json');
  const inventory = await readWorkerArtifact(ctx.artifacts, 'repo_inventory.json');
  const gates = await loadGateContext(ctx);
  const path = issue.location.path;

  let before: string | undefined;
  try {
    before = path === '' ? undefined : await readSiteFile(gates.siteRoot, path);
  } catch (error) {
    if (!(error instanceof UnsafeSitePathError)) throw error;
    throw new SwitchyardError('validation', `Issue ${issue.issue_id} names an unsafe path`, {
      code: 'INVALID_INPUT',
      details: { path },
    });
  }
  const outcome =
    before === undefined
      ? { kind: 'none', text: '', description: 'The file the issue names does not exist' }
      : await applyFix(
          {
            issue,
            page: gates.site.page(path) ?? parsePage(path, before),
            config: ctx.config,
            contentRoot: gates.contentRoot,
            siteRoot: gates.siteRoot,
            site: gates.site,
            plan,
            facts: gates.facts,
            evidence: gates.evidence,
            catalog: gates.catalog,
          },
          inventory.source.committed_at,
        );
  const changed = before !== undefined && outcome.text !== before;
  const patches: {
    patch_id: string;
    op: 'update';
    path: string;
    before_sha256: string;
    after_sha256: string;
  }[] = [];
  if (changed && before !== undefined) {
    assertAllowed([path], ctx.config.allowed_paths);
    throwIfCancelled(ctx.signal);
    await writeSiteFile(gates.siteRoot, path, outcome.text);
    patches.push({
      patch_id: patchId('update', path, outcome.text),
      op: 'update',
      path,
      before_sha256: sha256Hex(before),
      after_sha256: sha256Hex(outcome.text),
    });
  }
  await writeJsonArtifact(ctx.artifacts, `fix_${issue.issue_id}.json`, {
    schema_version: '1.0',
    issue_id: issue.issue_id,
    gate: issue.gate,
    error_code: issue.error_code,
    location: issue.location,
    fix_kind: outcome.kind,
    description: outcome.description,
    changed,
    patches,
  });
  ctx.logger.info('W8 fixed issue', { issue_id: issue.issue_id, fix_kind: outcome.kind, changed });
  return {
    fixed_issue_id: issue.issue_id,
    applied_patch_ids: patches.map((patch) => patch.patch_id),
    changed,
  };
}
