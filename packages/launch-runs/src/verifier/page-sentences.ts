import type { Token } from 'markdown-it';
import { CLAIM_MARKER } from '../gates/factual.js';
import type { PageDoc } from '../gates/page-doc.js';
import { inlineSegments, segmentsToPlain, type InlineSegment } from '../pipeline/markdown/inline.js';
import { splitSentences } from '../pipeline/markdown/sentences.js';

/** A sentence of a page's prose with the claim markers that follow it. */
export interface PageSentence {
  line: number;
  text: string;
  segments: InlineSegment[];
  claimIds: string[];
}

const ONE_MARKER = new RegExp(CLAIM_MARKER.source);
const isMarker = (token: Token): boolean => token.type === 'html_inline' && ONE_MARKER.test(token.content);

/**
 * The sentences of a page's paragraphs and list items (headings, tables, HTML and code are not prose).
 * Markers cite the sentence they follow: a run of prose ended by markers is split into sentences, the
 * last of which carries the markers; the others carry none.
 */
export function pageSentences(page: PageDoc): PageSentence[] {
  const sentences: PageSentence[] = [];
  for (const block of page.doc.blocks) {
    if (block.type !== 'paragraph' || block.inline === null) continue;
    let line = block.startLine;
    let run: { tokens: Token[]; line: number; ids: string[] } = { tokens: [], line, ids: [] };
    const close = (): void => {
      sentences.push(...runSentences(run.tokens, run.line, run.ids, page.lines));
      run = { tokens: [], line, ids: [] };
    };
    for (const token of block.inline.children ?? []) {
      if (isMarker(token)) {
        run.ids.push(...[...token.content.matchAll(CLAIM_MARKER)].map((match) => match[1] ?? ''));
        continue;
      }
      const blank = token.type === 'text' && token.content.trim() === '';
      if (run.ids.length > 0 && !blank && token.type !== 'softbreak' && token.type !== 'hardbreak') close();
      if (token.type === 'softbreak' || token.type === 'hardbreak') line += 1;
      if (run.tokens.length === 0 && run.ids.length === 0) run.line = line;
      run.tokens.push(token);
    }
    close();
  }
  return sentences;
}

function runSentences(
  tokens: readonly Token[],
  line: number,
  ids: string[],
  lines: readonly string[],
): PageSentence[] {
  const parts = splitSentences(inlineSegments(tokens));
  return parts.map((segments, index) => {
    const text = segmentsToPlain(segments);
    return {
      line: lineOf(text, line, lines),
      text,
      segments,
      claimIds: index === parts.length - 1 ? ids : [],
    };
  });
}

/** The line a sentence starts on: the first line from the run's own that holds its opening words. */
function lineOf(text: string, from: number, lines: readonly string[]): number {
  const opening = text.split(' ').slice(0, 2).join(' ');
  for (let line = from; line <= lines.length && line < from + 50; line += 1) {
    if (lines[line - 1]?.includes(opening)) return line;
  }
  return from;
}
