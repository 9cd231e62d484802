import type { PageDoc } from '../gates/page-doc.js';
import { citedSnippet } from '../gates/snippets-gate.js';
import type { PageSentence } from './page-sentences.js';
import { ruleMessage, type VerifierCode } from './rules.js';
import type { VerifierBrief, VerifierIssue } from './types.js';

// The house rules about a page's arrangement rather than its facts: say each thing once, show each snippet
// once, and keep a lead-in directly above the snippet it introduces (issue #37's defects of the extractive
// drafter, which a writer can make as well).

/** A sentence this long or longer is a statement; shorter ones ("For example:") may recur. */
const REPEAT_MIN_WORDS = 4;

const issueAt = (line: number, sentence: string, code: VerifierCode, detail: string): VerifierIssue => ({
  line,
  sentence,
  code,
  message: ruleMessage(code, detail),
});

/**
 * The second and later sayings of a sentence, case and spacing aside. A lead-in (it ends with a colon) may
 * recur before another snippet, as READMEs do ("Modifying the request URL:" above two hooks in ky's).
 */
export function repetitionIssues(sentences: readonly PageSentence[]): VerifierIssue[] {
  const firstLines = new Map<string, number>();
  return sentences.flatMap((sentence) => {
    const said = sentence.text.toLowerCase().replace(/\s+/g, ' ').trim();
    if (said.split(' ').length < REPEAT_MIN_WORDS || said.endsWith(':')) return [];
    const first = firstLines.get(said);
    if (first === undefined) {
      firstLines.set(said, sentence.line);
      return [];
    }
    return [issueAt(sentence.line, sentence.text, 'REPEATED_SENTENCE', String(first))];
  });
}

/** The marker line of each snippet the page shows (its first showing), and the issues of later showings. */
export function shownSnippets(page: PageDoc): { shown: Map<string, number>; issues: VerifierIssue[] } {
  const shown = new Map<string, number>();
  const issues: VerifierIssue[] = [];
  for (const block of page.doc.blocks) {
    if (block.type !== 'fence' && block.type !== 'code') continue;
    const cited = citedSnippet(page, block.startLine);
    if (cited === undefined) continue;
    const first = shown.get(cited.id);
    if (first === undefined) shown.set(cited.id, cited.line);
    else {
      const detail = `Snippet ${cited.id} is already shown below line ${first}`;
      issues.push(issueAt(cited.line, page.lines[cited.line - 1] ?? '', 'REPEATED_SNIPPET', detail));
    }
  }
  return { shown, issues };
}

/**
 * Lead-ins: for each evidence item that introduces snippets of the brief, some sentence citing it must stand
 * directly above one of them (the last prose before its marker, no heading or other block between). A cited
 * lead-in whose snippets the page does not show is refused only when it reads as one (it ends with a colon).
 */
export function leadInIssues(
  page: PageDoc,
  sentences: readonly PageSentence[],
  brief: VerifierBrief,
  shown: ReadonlyMap<string, number>,
): VerifierIssue[] {
  const introduces = new Map<string, string[]>();
  for (const snippet of brief.snippets) {
    if (snippet.lead_in_claim_id == null) continue;
    introduces.set(snippet.lead_in_claim_id, [
      ...(introduces.get(snippet.lead_in_claim_id) ?? []),
      snippet.snippet_id,
    ]);
  }
  const issues: VerifierIssue[] = [];
  for (const [claimId, snippetIds] of introduces) {
    const citing = sentences.filter((sentence) => sentence.claimIds.includes(claimId));
    const last = citing.at(-1);
    if (last === undefined) continue;
    const markerLines = snippetIds.flatMap((id) => shown.get(id) ?? []);
    if (markerLines.length === 0) {
      if (last.text.trimEnd().endsWith(':')) {
        const detail = `The sentence introduces snippet ${snippetIds.join(', ')}, which the page does not show`;
        issues.push(issueAt(last.line, last.text, 'LEAD_IN_AWAY_FROM_SNIPPET', detail));
      }
      continue;
    }
    const above = markerLines.map((line) => sentenceDirectlyAbove(page, sentences, line));
    if (citing.some((sentence) => above.includes(sentence))) continue;
    const detail = `The sentence introduces snippet ${snippetIds.join(', ')}, but other text stands between them`;
    issues.push(issueAt(last.line, last.text, 'LEAD_IN_AWAY_FROM_SNIPPET', detail));
  }
  return issues;
}

/** The last sentence before a snippet's marker line, when only its own paragraph's lines lie between. */
function sentenceDirectlyAbove(
  page: PageDoc,
  sentences: readonly PageSentence[],
  markerLine: number,
): PageSentence | undefined {
  let line = markerLine - 1;
  while (line >= 1 && (page.lines[line - 1] ?? '').trim() === '') line -= 1;
  const before = sentences.filter((sentence) => sentence.line <= line);
  const candidate = before.at(-1);
  if (candidate === undefined) return undefined;
  for (let between = candidate.line; between <= line; between += 1) {
    const text = (page.lines[between - 1] ?? '').trim();
    if (text === '' || text.startsWith('#') || text.startsWith('```') || text.startsWith('~~~'))
      return undefined;
  }
  return candidate;
}
