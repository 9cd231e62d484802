import type { ValidationReport } from '@switchyard/contracts/launch-runs';

/** Open blockers and errors: what keeps a report from ok. */
export function countBlocking(report: ValidationReport): number {
  return report.issues.filter(
    (issue) => issue.status === 'OPEN' && (issue.severity === 'blocker' || issue.severity === 'error'),
  ).length;
}
