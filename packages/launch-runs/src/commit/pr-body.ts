import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import type { PagePlan } from '../pipeline/artifact-schemas.js';

export interface TruthLockSummary {
  pages: number;
  markers: number;
  openIssues: number;
}

export function pullRequestTitle(productName: string): string {
  return `Launch ${productName} documentation`;
}

/** The PR body: pages by section, the gates and their outcome, and the TruthLock summary. */
export function pullRequestBody(input: {
  productName: string;
  runId: string;
  branch: string;
  plan: PagePlan;
  report: ValidationReport;
  truthLock: TruthLockSummary;
}): string {
  const { plan, report, truthLock } = input;
  const lines = [
    `Documentation launch of **${input.productName}** (run \`${input.runId}\`, branch \`${input.branch}\`).`,
    '',
    '## Pages by section',
  ];
  for (const entry of plan.sections) {
    lines.push('', `### ${entry.section}`, '');
    for (const id of entry.page_ids) {
      const page = plan.pages.find((candidate) => candidate.page_id === id);
      if (page !== undefined) lines.push(`- ${page.title}: \`${page.path}\` (${page.url_path})`);
    }
  }
  lines.push('', `## Gates (${report.profile} profile)`, '');
  for (const gate of report.gates) {
    lines.push(
      `- ${gate.name}: ${gate.skipped === true ? `skipped (${gate.reason ?? 'not in this profile'})` : gate.ok ? 'passed' : 'failed'}`,
    );
  }
  lines.push(
    '',
    '## TruthLock',
    '',
    `${truthLock.markers} claim markers on ${truthLock.pages} pages, each resolving to evidence in the source repository; ${truthLock.openIssues} open TruthLock issues.`,
    '',
  );
  return lines.join('\n');
}
