import { applyLintFix, lintErrorCode, lintMarkdown } from '../gates/markdown-lint.js';
import type { FixInput, FixOutcome } from './types.js';

/** MarkdownLint fix: markdownlint's own fix for the violation the issue names (same rule, same line). */
export async function fixLint(input: FixInput): Promise<FixOutcome> {
  const { issue, page } = input;
  const errors = await lintMarkdown(page.path, page.text);
  const error = errors.find(
    (candidate) =>
      lintErrorCode(candidate) === issue.error_code &&
      candidate.lineNumber === issue.location.line &&
      candidate.fixInfo !== null,
  );
  if (error === undefined)
    return { kind: 'none', text: page.text, description: 'markdownlint has no fix for this violation' };
  return {
    kind: 'markdownlint_fix',
    text: applyLintFix(page.text, error),
    description: `Applied markdownlint's fix for ${error.ruleNames.join('/')}`,
  };
}
