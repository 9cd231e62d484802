import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx, LaunchDb } from '../db/drizzle.js';
import { issues, type IssueRow } from '../db/schema.js';

/** Open blockers and errors: what keeps a report from ok. */
export function countBlocking(report: ValidationReport): number {
  return report.issues.filter(
    (issue) => issue.status === 'OPEN' && (issue.severity === 'blocker' || issue.severity === 'error'),
  ).length;
}

/** Replaces a run's issues with those of its latest report (inside the caller's transaction). */
export function replaceIssues(tx: DbOrTx, runId: string, report: ValidationReport): void {
  tx.delete(issues).where(eq(issues.runId, runId)).run();
  report.issues.forEach((issue, ord) => {
    tx.insert(issues)
      .values({
        runId,
        ord,
        issueId: issue.issue_id,
        gate: issue.gate,
        severity: issue.severity,
        errorCode: issue.error_code,
        message: issue.message,
        path: issue.location.path,
        line: issue.location.line,
        status: issue.status,
        suggestedFix: issue.suggested_fix,
      })
      .run();
  });
}

const openIssuesQueries = new WeakMap<object, { all(values: { runId: string }): IssueRow[] }>();

/** The OPEN issues of a run's latest report, in report order (prepared once per database handle). */
export function openIssues(db: LaunchDb, runId: string): IssueRow[] {
  let query = openIssuesQueries.get(db);
  if (query === undefined) {
    query = db
      .select()
      .from(issues)
      .where(and(eq(issues.runId, sql.placeholder('runId')), eq(issues.status, 'OPEN')))
      .orderBy(asc(issues.ord))
      .prepare();
    openIssuesQueries.set(db, query);
  }
  return query.all({ runId });
}
