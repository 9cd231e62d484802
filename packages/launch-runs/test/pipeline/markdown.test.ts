import { describe, expect, it } from 'vitest';
import { codeSpan } from '../../src/pipeline/markdown/inline.js';
import { splitSentences } from '../../src/pipeline/markdown/sentences.js';

const sentences = (text: string): string[] =>
  splitSentences([{ kind: 'text', value: text }]).map((parts) => parts.map((part) => part.value).join(''));

describe('Markdown helpers on untrusted text', () => {
  it('codeSpan fences any number of backtick runs (no argument spread that overflows the stack)', () => {
    const value = '` '.repeat(200_000) + '```';
    const span = codeSpan(value);
    expect(span.startsWith('```` ')).toBe(true);
    expect(span.length).toBe(value.length + 10);
  });

  it('splitSentences keeps a sentence whole across abbreviations and open parentheses', () => {
    expect(sentences('Use it, e.g. for tests. It counts (roughly. Mostly.) fine. Done here.')).toEqual([
      'Use it, e.g. for tests.',
      'It counts (roughly. Mostly.) fine.',
      'Done here.',
    ]);
    const long = `(${'Alpha beta gamma. '.repeat(2_000)}) End. Next.`;
    const split = sentences(long);
    expect(split.length).toBe(2);
    expect(split[0] === long.slice(0, -' Next.'.length)).toBe(true);
  });
});
