import { applyFixes, type Configuration, type LintError } from 'markdownlint';
import { lint } from 'markdownlint/promise';
import type { Gate, IssueDraft } from './types.js';

/**
 * The pinned rule set (markdownlint ~0.42): everything on, except rules that fight evidence-grounded pages.
 * - MD013 (line length): a claim sentence is one line by design.
 * - MD010 in code, MD014 ($ prompts): code blocks are catalog snippets and must stay byte-identical.
 * - MD024 only among siblings: API sections repeat sub-headings such as "options" under different parents.
 * - MD033 allows no element but comments, which carry the claim and snippet markers (comments are never flagged).
 */
export const MARKDOWNLINT_CONFIG: Configuration = {
  default: true,
  MD010: { code_blocks: false },
  MD013: false,
  MD014: false,
  MD024: { siblings_only: true },
  MD033: { allowed_elements: [] },
};

export async function lintMarkdown(path: string, text: string): Promise<LintError[]> {
  const results = await lint({ strings: { [path]: text }, config: MARKDOWNLINT_CONFIG });
  return results[path] ?? [];
}

/** `MD009` + `no-trailing-spaces` -> `MD009_NO_TRAILING_SPACES`. */
export function lintErrorCode(error: LintError): string {
  return error.ruleNames
    .slice(0, 2)
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_');
}

export function lintMessage(error: LintError): string {
  return `${error.ruleNames[0] ?? ''} ${error.ruleDescription}${error.errorDetail === null ? '' : ` (${error.errorDetail})`}`;
}

/** Applies one lint error's fix to the text (markdownlint's own fixer). */
export function applyLintFix(text: string, error: LintError): string {
  return applyFixes(text, [error]);
}

/**
 * MarkdownLint: the pinned rule set on every page. A violation markdownlint can fix is an error (W8 applies
 * the fix); one it cannot fix is a warning, so the run is never stuck on a rule no fixer can satisfy.
 */
export const markdownLintGate: Gate = {
  name: 'MarkdownLint',
  async run({ pages }) {
    const issues: IssueDraft[] = [];
    for (const page of pages) {
      for (const error of await lintMarkdown(page.path, page.text)) {
        issues.push({
          severity: error.fixInfo === null ? 'warn' : 'error',
          error_code: lintErrorCode(error),
          message: lintMessage(error),
          path: page.path,
          line: error.lineNumber,
          suggested_fix: error.fixInfo === null ? null : "Apply markdownlint's fix for this rule",
        });
      }
    }
    return issues;
  },
};
