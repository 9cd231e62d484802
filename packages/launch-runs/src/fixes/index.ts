import type { ValidationIssue, ValidationReport } from '@switchyard/contracts/launch-runs';
import { compareIssues, isBlocking } from '../gates/report.js';
import { fixConsistency } from './consistency-fix.js';
import { makeFrontMatterFixer } from './front-matter-fix.js';
import { fixInternalLink } from './link-fix.js';
import { fixLint } from './lint-fix.js';
import { fixSnippet } from './snippet-fix.js';
import { fixTemplateToken } from './template-token-fix.js';
import { fixTruthLock } from './truth-lock-fix.js';
import type { FixInput, FixOutcome } from './types.js';

export type { FixInput, FixOutcome } from './types.js';

/** Next issue = first open blocker/error by (severity rank, gate, path, line, issue_id) (design, binding). */
export function selectNextIssue(report: ValidationReport): ValidationIssue | undefined {
  return report.issues.filter(isBlocking).sort(compareIssues)[0];
}

/** The one fix for an issue: a pure function of (issue, files, plan, facts). */
export async function applyFix(input: FixInput, committedAt: string): Promise<FixOutcome> {
  switch (input.issue.gate) {
    case 'FrontMatter':
      return makeFrontMatterFixer(committedAt)(input);
    case 'TruthLock':
      return fixTruthLock(input);
    case 'InternalLinks':
      return fixInternalLink(input);
    case 'TemplateTokens':
      return fixTemplateToken(input);
    case 'Consistency':
      return fixConsistency(input);
    case 'Snippets':
      return fixSnippet(input);
    case 'MarkdownLint':
      return fixLint(input);
    case 'SiteBuild':
      return {
        kind: 'none',
        text: input.page.text,
        description: 'A failing site build has no automatic fix',
      };
  }
}
