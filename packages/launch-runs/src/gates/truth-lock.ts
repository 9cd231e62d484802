import { factualReason, markerIds, numericTokens, statementOf } from './factual.js';
import type { Gate, IssueDraft } from './types.js';

const CLAIM_ID = /^c_[0-9a-f]{12}$/;

function excerpt(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}

/**
 * TruthLock: every claim marker resolves in evidence_map.json; no factual line lacks a marker (when
 * allow_inference is false); a cited line states no number or version its claims do not contain.
 */
export const truthLockGate: Gate = {
  name: 'TruthLock',
  run({ pages, evidence, config }) {
    const issues: IssueDraft[] = [];
    const names = [config.product_name];
    for (const page of pages) {
      page.lines.forEach((line, index) => {
        const kind = page.kinds[index];
        if (kind !== 'prose' && kind !== 'table' && kind !== 'html') return;
        const lineNumber = index + 1;
        const ids = markerIds(line);
        const statement = statementOf(line, names);
        for (const id of ids) {
          if (!CLAIM_ID.test(id) || evidence.claims[id] === undefined) {
            issues.push({
              severity: 'blocker',
              error_code: 'UNKNOWN_CLAIM_MARKER',
              message: `Claim marker "${id}" does not resolve to evidence`,
              path: page.path,
              line: lineNumber,
              suggested_fix: 'Point the marker at a claim in evidence_map.json or drop the sentence',
            });
          }
        }
        if (ids.length === 0) {
          const reason = factualReason(statement);
          if (reason !== undefined && !config.allow_inference) {
            issues.push({
              severity: 'blocker',
              error_code: 'UNCITED_CLAIM',
              message: `Factual line (${reason}) has no claim marker: "${excerpt(statement)}"`,
              path: page.path,
              line: lineNumber,
              suggested_fix: 'Replace the sentence by the text of a cited claim, or drop it',
            });
          }
          return;
        }
        const cited = ids
          .map((id) => evidence.claims[id]?.text)
          .filter((text): text is string => text !== undefined);
        if (cited.length !== ids.length) return;
        const citedTokens = new Set(cited.flatMap((text) => numericTokens(statementOf(text, names))));
        const unsupported = numericTokens(statement).filter((token) => !citedTokens.has(token));
        if (unsupported.length > 0) {
          issues.push({
            severity: 'blocker',
            error_code: 'CLAIM_TEXT_MISMATCH',
            message: `Line states ${unsupported.join(', ')}, which its cited claims do not`,
            path: page.path,
            line: lineNumber,
            suggested_fix: 'Restore the cited claim text',
          });
        }
      });
    }
    return issues;
  },
};
