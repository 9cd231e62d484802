import type { InlineSegment } from './inline.js';

const ABBREVIATION_END = /\b(e\.g|i\.e|etc|vs|cf|approx|incl|no|mr|mrs|ms|dr|st|fig|al)\.\s*$/i;
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

function unbalanced(text: string): boolean {
  return (text.match(/\(/g)?.length ?? 0) > (text.match(/\)/g)?.length ?? 0);
}

/**
 * Splits inline segments into sentences (Intl.Segmenter, with code spans protected so `z.string()` never
 * splits, and splits after abbreviations or inside parentheses undone).
 */
export function splitSentences(segments: readonly InlineSegment[]): InlineSegment[][] {
  const placeholders: string[] = [];
  const protectedText = segments
    .map((segment) => {
      if (segment.kind === 'text') return segment.value.replace(/\s+/g, ' ');
      placeholders.push(segment.value);
      return `\uE000${placeholders.length - 1}\uE001`;
    })
    .join('');
  const raw = [...segmenter.segment(protectedText)].map((part) => part.segment);
  const merged: string[] = [];
  for (const part of raw) {
    const last = merged.at(-1);
    if (last !== undefined && (ABBREVIATION_END.test(last) || unbalanced(last)))
      merged[merged.length - 1] = last + part;
    else merged.push(part);
  }
  return merged
    .map((sentence) => restore(sentence.trim(), placeholders))
    .filter((sentence) => sentence.length > 0);
}

function restore(text: string, placeholders: readonly string[]): InlineSegment[] {
  const out: InlineSegment[] = [];
  const pattern = /\uE000(\d+)\uE001/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push({ kind: 'text', value: text.slice(last, match.index) });
    out.push({ kind: 'code', value: placeholders[Number(match[1])] ?? '' });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', value: text.slice(last) });
  return out;
}
