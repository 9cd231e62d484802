import { factualReason, markerIds, statementOf } from '../gates/factual.js';
import { claimLine } from '../pipeline/render.js';
import { jaccard, linePrefix, replaceLine, wordTokens } from './lines.js';
import type { FixInput, FixOutcome } from './types.js';

/** Claims whose words overlap a statement's by at least half, best first (ties by claim id). */
function bestClaim(input: FixInput, statement: string): { id: string; text: string } | undefined {
  const words = wordTokens(statement);
  let best: { id: string; text: string; score: number } | undefined;
  for (const id of Object.keys(input.evidence.claims).sort()) {
    const text = input.evidence.claims[id]!.text;
    const score = jaccard(words, wordTokens(text));
    if (score >= 0.5 && (best === undefined || score > best.score)) best = { id, text, score };
  }
  return best;
}

/** The line without its factual sentences (null when nothing else is left). */
function dropFactual(line: string, names: readonly string[]): string | null {
  const { prefix, rest } = linePrefix(line);
  const kept = rest
    .split(/(?<=[.!?])\s+/)
    .filter((sentence) => factualReason(statementOf(sentence, names)) === undefined)
    .join(' ')
    .trim();
  return kept === '' || !/\p{L}/u.test(kept) ? null : `${prefix}${kept}`;
}

/**
 * TruthLock fixes: an uncited factual line becomes the text of the claim it paraphrases (with its marker)
 * or loses its factual sentences; a marker pointing nowhere is re-pointed at the claim whose text the line
 * carries (or the line is treated as uncited); a mismatching line gets its cited claim's text back.
 */
export function fixTruthLock(input: FixInput): FixOutcome {
  const { issue, page, config } = input;
  const text = page.text;
  const line = page.lines[issue.location.line - 1];
  if (line === undefined) return { kind: 'none', text, description: 'The line no longer exists' };
  const names = [config.product_name];
  const { prefix } = linePrefix(line);
  const statement = statementOf(line, names);

  if (issue.error_code === 'CLAIM_TEXT_MISMATCH') {
    const id = markerIds(line).find((candidate) => input.evidence.claims[candidate] !== undefined);
    if (id !== undefined) {
      const claim = { claim_id: id, text: input.evidence.claims[id]!.text };
      return {
        kind: 'restore_claim_text',
        text: replaceLine(text, issue.location.line, `${prefix}${claimLine(claim)}`),
        description: `Restored the text of claim ${id}`,
      };
    }
  }
  const match = bestClaim(input, statement);
  if (
    match !== undefined &&
    (issue.error_code === 'UNCITED_CLAIM' || issue.error_code === 'UNKNOWN_CLAIM_MARKER')
  ) {
    return {
      kind: 'cite_claim',
      text: replaceLine(
        text,
        issue.location.line,
        `${prefix}${claimLine({ claim_id: match.id, text: match.text })}`,
      ),
      description: `Replaced the sentence by the text of claim ${match.id}`,
    };
  }
  const withoutMarkers = line.replace(/\s*<!--\s*claim_id:[^>]*-->/g, '');
  const dropped = dropFactual(withoutMarkers, names);
  return {
    kind: 'drop_uncited',
    text: replaceLine(text, issue.location.line, dropped),
    description:
      dropped === null ? 'Removed the uncited factual line' : 'Removed the uncited factual sentences',
  };
}
