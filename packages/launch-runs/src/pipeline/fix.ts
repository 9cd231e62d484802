import { SwitchyardError } from '@switchyard/contracts/errors';
import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import { applyFix as fixedText, selectNextIssue } from '../fixes/index.js';
import { parsePage } from '../gates/page-doc.js';
import { writeJsonArtifact } from './artifact-io.js';
import type { FixPatch } from './artifact-schemas.js';
import { throwIfCancelled } from './errors.js';
import { patchId, sha256Hex } from './hashing.js';
import { assertAllowed, readSiteFile, UnsafeSitePathError, writeSiteFile } from './site-files.js';
import type { FixChange, FixPlan, WorkerContext } from './types.js';
import { loadGateContext } from './validate.js';
import { readWorkerArtifact } from './worker-artifacts.js';
import { workspacePaths } from './workspace.js';

/**
 * W8, first half: the fix for the next issue of `report` (first open blocker/error in report order), the
 * smallest change, a pure function of the issue and the files. Writes nothing; a change outside
 * allowed_paths is ALLOWED_PATHS_VIOLATION here, before anything could be written.
 */
export async function planFix(ctx: WorkerContext, report: ValidationReport): Promise<FixPlan> {
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
      : await fixedText(
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
  const record = {
    gate: issue.gate,
    error_code: issue.error_code,
    location: issue.location,
    fix_kind: outcome.kind,
    description: outcome.description,
  };
  if (before === undefined || outcome.text === before)
    return { issue_id: issue.issue_id, change: null, record };
  assertAllowed([path], ctx.config.allowed_paths);
  return {
    issue_id: issue.issue_id,
    change: {
      patch_id: patchId('update', path, outcome.text),
      path,
      before_sha256: sha256Hex(before),
      after_sha256: sha256Hex(outcome.text),
      content: outcome.text,
    },
    record,
  };
}

/** The name of the artifact that records the fix of `issueId`. */
export function fixArtifactName(issueId: string): string {
  return `fix_${issueId}.json`;
}

/** The record of a fix's change: the content too, so a workspace can be rebuilt without this disk. */
function fixPatch(change: FixChange): FixPatch {
  return {
    patch_id: change.patch_id,
    op: 'update',
    path: change.path,
    before_sha256: change.before_sha256,
    after_sha256: change.after_sha256,
    content: change.content,
  };
}

/**
 * W8, second half: writes the planned change (inside allowed_paths only) and records
 * `fix_<issue_id>.json`; `changed: false` there tells a reader the fix was a no-op.
 */
export async function applyFix(ctx: WorkerContext, fix: FixPlan): Promise<void> {
  const { change } = fix;
  if (change !== null) {
    assertAllowed([change.path], ctx.config.allowed_paths);
    throwIfCancelled(ctx.signal);
    await writeSiteFile(workspacePaths(ctx.runDir).site, change.path, change.content);
  }
  await writeJsonArtifact(ctx.artifacts, fixArtifactName(fix.issue_id), {
    schema_version: '1.0',
    issue_id: fix.issue_id,
    ...fix.record,
    changed: change !== null,
    patches: change === null ? [] : [fixPatch(change)],
  });
  ctx.logger.info('W8 fixed issue', {
    issue_id: fix.issue_id,
    fix_kind: fix.record.fix_kind,
    changed: change !== null,
  });
}
