import fs from 'node:fs/promises';
import path from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  ValidationReportSchema,
  type LaunchFixNextOutput,
  type ValidationReport,
} from '@switchyard/contracts/launch-runs';
import type { RunRow } from '../db/schema.js';
import { sha256OfFile } from '../pipeline/file-reads.js';
import { countBlocking } from '../store/issue-store.js';
import { recorded, transitioned } from '../store/run-writes.js';
import type { Execution } from './executor.js';
import { fixHistoryOf } from './fix-history.js';
import type { FixIntent } from './model/events.js';
import { illegalState, TOOL_RULES } from './tool-rules.js';

// launch_fix_next (W8 then W7) and what a fix leaves in the event log: FIX_APPLYING before the file is written,
// FIX_APPLIED once it counts. Workspace rebuilds replay the applied fixes; launch_resume settles one a dead
// process left between the two.

export type FixOutcome = Omit<LaunchFixNextOutput, 'ok'>;

/**
 * One fix (W8) for the next issue of the last report, then re-validation (W7). Applied fixes count against
 * max_fix_attempts: at the limit the run FAILS with FIX_EXHAUSTED; a fix that changes nothing FAILS it with
 * details.reason = fix_no_op. A call whose request goes away before its fix is written leaves the run as it
 * was (see applyNextFix).
 */
export async function fixNext(execution: Execution, row: RunRow): Promise<FixOutcome> {
  const { fixAttempts } = row;
  const max = execution.config.max_fix_attempts;
  // FIX_EXHAUSTED fails the run (Execution.settleFailure) and the caller gets the same error.
  if (fixAttempts >= max) {
    const message = `max_fix_attempts (${max}) reached with blocking issues left; the run has FAILED`;
    const details = { fix_attempts: fixAttempts, max_fix_attempts: max };
    throw new SwitchyardError('conflict', message, { code: 'FIX_EXHAUSTED', details });
  }
  const fix = await applyNextFix(execution, await lastReport(execution), fixAttempts + 1);
  if (fix.patch_id === undefined) {
    const message = `The fix for issue ${fix.issue_id} changed nothing; the run has FAILED`;
    const details = { reason: 'fix_no_op', issue_id: fix.issue_id, fix_attempts: fixAttempts };
    throw new SwitchyardError('conflict', message, { code: 'FIX_EXHAUSTED', details });
  }
  const { report: next } = await execution.validate();
  return {
    run_id: execution.runId,
    fixed_issue_id: fix.issue_id,
    applied_patch_ids: [fix.patch_id],
    remaining_blockers: countBlocking(next),
    validation_report: next,
  };
}

async function lastReport({ runId, deps }: Execution): Promise<ValidationReport> {
  const content = await deps.artifacts.read(runId, 'validation_report.json');
  if (content === undefined) {
    throw illegalState({
      message: `Run ${runId} has no validation_report.json`,
      current: 'VALIDATING',
      rule: TOOL_RULES.launch_fix_next,
      details: { reason: 'no_validation_report' },
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(content.bytes).toString('utf8'));
  } catch {
    // Not JSON: it breaks the schema below.
  }
  const parsed = ValidationReportSchema.safeParse(json);
  if (!parsed.success) {
    throw new SwitchyardError('validation', 'validation_report.json breaks its schema', {
      code: 'SCHEMA_VALIDATION_FAILED',
      details: { artifact: 'validation_report.json' },
    });
  }
  return parsed.data;
}

/**
 * W8 around its commit point. VALIDATING → FIXING, then the fix is planned, writing nothing: when the request
 * goes away meanwhile (its client disconnects, times out or cancels) the run goes back to VALIDATING as it was
 * and the attempt does not count. Then FIX_APPLYING records what is about to be written, the file is written
 * and FIX_APPLIED counts the attempt (`fix_attempts`). From FIX_APPLYING on, only launch_cancel or a lost
 * lease stops it; a process that dies in between leaves FIX_APPLYING for launch_resume to settle
 * (settleInterruptedFix). A fix that changes nothing has no `patch_id` and is not counted.
 */
async function applyNextFix(
  execution: Execution,
  report: ValidationReport,
  attempt: number,
): Promise<{ issue_id: string; patch_id?: string }> {
  const { pipeline, logger } = execution.deps;
  const { lease } = execution;
  await lease.append(
    transitioned('VALIDATING', 'FIXING', { attempt, max_fix_attempts: execution.config.max_fix_attempts }),
  );
  let applying = false;
  try {
    return await execution.runWorker('W8', async (ctx) => {
      const plan = await pipeline.planFix(ctx, report);
      if (plan.change === null) {
        await pipeline.applyFix(ctx, plan);
        return { issue_id: plan.issue_id };
      }
      execution.throwIfAborted();
      const { patch_id, path, before_sha256, after_sha256 } = plan.change;
      const intent = { issue_id: plan.issue_id, attempt, patch_id, path, before_sha256, after_sha256 };
      await lease.append(recorded({ type: 'FIX_APPLYING', payload: intent }));
      applying = true;
      await pipeline.applyFix(execution.workerContext('W8', lease.takenSignal), plan);
      await recordFixApplied(execution, intent);
      return { issue_id: plan.issue_id, patch_id };
    });
  } catch (thrown) {
    if (!applying && lease.abortReason === 'request-cancelled') {
      // Nothing was written: the run is VALIDATING again, as it was. Should that fail, the run stays FIXING
      // and reads as interrupted: launch_resume rewinds it.
      await lease
        .append(transitioned('FIXING', 'VALIDATING', { reason: 'fix_not_applied', attempt }))
        .catch((error: unknown) =>
          logger.warn('could not put back a fix that was not applied', { run_id: execution.runId, error }),
        );
    }
    throw thrown;
  }
}

async function recordFixApplied(
  execution: Execution,
  { issue_id, patch_id, attempt }: FixIntent,
  extra: { recovered?: true } = {},
): Promise<void> {
  const payload = { issue_id, applied_patch_ids: [patch_id], attempt, ...extra };
  await execution.lease.append(recorded({ type: 'FIX_APPLIED', payload }));
}

/**
 * launch_resume on a fix interrupted between FIX_APPLYING and FIX_APPLIED (the process died while writing):
 * the attempt counts when the worktree file holds the planned content, and does not otherwise.
 */
export async function settleInterruptedFix(execution: Execution): Promise<void> {
  const { runId, deps } = execution;
  const intent = (await fixHistoryOf(deps.store, runId)).pending;
  if (intent === undefined) return;
  const file = siteFile(deps.paths.siteWorktree(runId), intent.path);
  if (file === undefined) return;
  const info = await fs.lstat(file).catch(() => undefined);
  if (info?.isFile() !== true) return;
  if ((await sha256OfFile(file)) === intent.after_sha256)
    await recordFixApplied(execution, intent, { recovered: true });
}

/** The worktree file at a site path recorded by the pipeline; undefined for a path that could leave it. */
function siteFile(siteRoot: string, sitePath: string): string | undefined {
  const segments = sitePath.split('/');
  if (sitePath.startsWith('/') || segments.some((segment) => segment === '' || segment === '..'))
    return undefined;
  return path.join(siteRoot, ...segments);
}
