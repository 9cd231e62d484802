import type { InlineSegment } from './inline.js';

const ABBREVIATION_END = /\b(e\.g|i\.e|etc|vs|cf|approx|incl|no|mr|mrs|ms|dr|st|fig|al)\.\s*$/i;
/** Enough of a sentence's end for ABBREVIATION_END (whitespace is collapsed before splitting). */
const TAIL_LENGTH = 16;
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * Splits inline segments into sentences (Intl.Segmenter, code spans protected so `z.string()` never splits,
 * splits after abbreviations or inside parentheses undone), in linear time: only a sentence's tail is read.
 */
export function splitSentences(segments: readonly InlineSegment[]): InlineSegment[][] {
  const codeSpans: string[] = [];
  const protectedText = segments
    .map((segment) => {
      if (segment.kind === 'text') return segment.value.replace(/\s+/g, ' ');
      codeSpans.push(segment.value);
      return `\uE000${codeSpans.length - 1}\uE001`;
    })
    .join('');
  const sentences: string[][] = [];
  let openParentheses = 0;
  let tail = '';
  for (const { segment } of segmenter.segment(protectedText)) {
    if (sentences.length === 0 || (openParentheses <= 0 && !ABBREVIATION_END.test(tail))) {
      sentences.push([]);
      openParentheses = 0;
      tail = '';
    }
    sentences.at(-1)!.push(segment);
    openParentheses += segment.split('(').length - segment.split(')').length;
    tail = (tail + segment).slice(-TAIL_LENGTH);
  }
  return sentences
    .map((parts) => restore(parts.join('').trim(), codeSpans))
    .filter((sentence) => sentence.length > 0);
}

function restore(text: string, codeSpans: readonly string[]): InlineSegment[] {
  return text
    .split(/\uE000(\d+)\uE001/)
    .map((part, index): InlineSegment =>
      index % 2 === 1 ? { kind: 'code', value: codeSpans[Number(part)]! } : { kind: 'text', value: part },
    )
    .filter((segment) => segment.kind === 'code' || segment.value !== '');
}
