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
  /** The text of the sentence's links to pages of the site (a relative or site path): navigation, not a claim. */
  pageLinkTexts: string[];
}

const ONE_MARKER = new RegExp(CLAIM_MARKER.source);
const isMarker = (token: Token): boolean => token.type === 'html_inline' && ONE_MARKER.test(token.content);

/**
 * The sentences of a page's paragraphs and list items (headings, tables, HTML and code are not prose).
 * Markers cite the run of prose they end, as TruthLock reads a line: each sentence of the run (since the
 * previous marker) carries them, and each is held to what they cite.
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
  const linkTexts = pageLinkTexts(tokens);
  return parts.map((segments) => {
    const text = segmentsToPlain(segments);
    return {
      line: lineOf(text, line, lines),
      text,
      segments,
      claimIds: ids,
      pageLinkTexts: linkTexts.filter((linkText) => text.includes(linkText)),
    };
  });
}

/** A link target with a scheme (`https:`, `mailto:`) or a host (`//`) leaves the site. */
const LEAVES_SITE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** The texts of the links among `tokens` whose target is a page of the site. */
function pageLinkTexts(tokens: readonly Token[]): string[] {
  const texts: string[] = [];
  let current: string[] | undefined;
  for (const token of tokens) {
    if (token.type === 'link_open') {
      const href = String(token.attrGet('href') ?? '');
      current = LEAVES_SITE.test(href) ? undefined : [];
    } else if (token.type === 'link_close') {
      if (current !== undefined && current.join('').trim() !== '') texts.push(current.join('').trim());
      current = undefined;
    } else if (current !== undefined && (token.type === 'text' || token.type === 'code_inline')) {
      current.push(token.content);
    }
  }
  return texts;
}

/** The line a sentence starts on: the first line from the run's own that holds its opening words. */
function lineOf(text: string, from: number, lines: readonly string[]): number {
  const opening = text.split(' ').slice(0, 2).join(' ');
  for (let line = from; line <= lines.length && line < from + 50; line += 1) {
    if (lines[line - 1]?.includes(opening)) return line;
  }
  return from;
}
