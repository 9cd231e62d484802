import {
  GATES,
  SEVERITIES,
  type GateName,
  type GateResult,
  type ValidationIssue,
  type ValidationReport,
} from '@switchyard/contracts/launch-runs';
import { compareCodePoints } from '../canonical-json.js';
import { issueId } from '../pipeline/hashing.js';
import type { IssueDraft } from './types.js';

export function severityRank(severity: ValidationIssue['severity']): number {
  return SEVERITIES.indexOf(severity);
}

/** (severity rank, gate, path, line, issue_id): the order of issues in a report and of W8's selection. */
export function compareIssues(a: ValidationIssue, b: ValidationIssue): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    compareCodePoints(a.gate, b.gate) ||
    compareCodePoints(a.location.path, b.location.path) ||
    a.location.line - b.location.line ||
    compareCodePoints(a.issue_id, b.issue_id)
  );
}

export function toIssue(gate: GateName, draft: IssueDraft): ValidationIssue {
  return {
    issue_id: issueId(gate, draft.error_code, draft.path, draft.line, draft.message),
    gate,
    severity: draft.severity,
    error_code: draft.error_code,
    message: draft.message,
    location: { path: draft.path, line: draft.line },
    status: 'OPEN',
    suggested_fix: draft.suggested_fix,
  };
}

export function isBlocking(issue: ValidationIssue): boolean {
  return issue.status === 'OPEN' && (issue.severity === 'blocker' || issue.severity === 'error');
}

/**
 * The report: open issues found now (deduplicated), then issues of the previous report that are gone,
 * as RESOLVED; each group sorted by (severity, gate, path, line, id). ok = no open blocker or error.
 */
export function buildReport(
  profile: ValidationReport['profile'],
  gates: GateResult[],
  found: ValidationIssue[],
  previous: ValidationReport | undefined,
): ValidationReport {
  const open = new Map<string, ValidationIssue>();
  for (const issue of found) if (!open.has(issue.issue_id)) open.set(issue.issue_id, issue);
  const resolved = new Map<string, ValidationIssue>();
  for (const issue of previous?.issues ?? []) {
    if (!open.has(issue.issue_id) && !resolved.has(issue.issue_id))
      resolved.set(issue.issue_id, { ...issue, status: 'RESOLVED' });
  }
  const issues = [...[...open.values()].sort(compareIssues), ...[...resolved.values()].sort(compareIssues)];
  const ordered = GATES.flatMap((name) => gates.filter((gate) => gate.name === name));
  return { schema_version: '1.0', ok: !issues.some(isBlocking), profile, gates: ordered, issues };
}
