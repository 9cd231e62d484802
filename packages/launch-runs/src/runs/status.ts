import type { RunStatus } from '@switchyard/contracts/launch-runs';
import type { RunRow } from '../db/schema.js';
import { lastErrorOf, runState, sectionStatesOf, type RunSnapshot } from '../store/launch-store.js';
import { isInterrupted } from './model/interrupted.js';
import { isLeaseLive } from './model/lease.js';
import { isTerminal } from './model/state-machine.js';

function maxFixAttempts(row: RunRow): number | undefined {
  const value = (JSON.parse(row.config) as { max_fix_attempts?: unknown }).max_fix_attempts;
  return typeof value === 'number' ? value : undefined;
}

export function buildStatus({ run: row, artifacts, openIssues }: RunSnapshot, nowMs: number): RunStatus {
  const state = runState(row);
  const error = lastErrorOf(row);
  const details: Record<string, unknown> = {
    interrupted: isInterrupted(row, nowMs),
    busy: !isTerminal(state) && isLeaseLive(row, nowMs),
    active_worker: row.activeWorker,
    fix_attempts: row.fixAttempts,
    max_fix_attempts: maxFixAttempts(row),
    last_report_ok: row.lastReportOk,
  };
  if (error !== undefined) details.error = error;
  if (row.sourceSha !== null) details.source_sha = row.sourceSha;
  if (row.siteSha !== null) details.site_sha = row.siteSha;
  if (row.prUrl !== null) details.pr = { pr_url: row.prUrl, branch: row.branch, commit_sha: row.commitSha };
  return {
    run_id: row.runId,
    state,
    section_states: sectionStatesOf(row),
    open_issues: openIssues.map((issue) => ({
      issue_id: issue.issueId,
      severity: issue.severity as RunStatus['open_issues'][number]['severity'],
      gate: issue.gate as RunStatus['open_issues'][number]['gate'],
      title: issue.message,
    })),
    artifacts: artifacts.map((artifact) => ({ name: artifact.name, sha256: artifact.sha256 })),
    product_slug: row.productSlug,
    started_at: row.createdAt,
    updated_at: row.updatedAt,
    details,
  };
}
