import { describe, expect, it } from 'vitest';
import { seededRandom } from '../bench/corpus.js';
import { excerpt, jsonBytes } from '../src/journeys/excerpt.js';

/** What JSON.stringify writes for `text`, in UTF-8 bytes, without the two quotes. */
const stringified = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

// Every kind of character JSON writes differently: plain ASCII, the escapes of two and six bytes, two- and
// three-byte UTF-8, astral characters (a surrogate pair) and lone surrogates.
const ALPHABET = [
  'a',
  'Z',
  '7',
  ' ',
  '"',
  '\\',
  '\n',
  '\t',
  '\u0001',
  '\u001f',
  'é',
  'ß',
  '€',
  '漢',
  '😀',
  '\ud800',
  '\udc00',
];

function randomText(length: number, seed: number): string {
  const random = seededRandom(seed);
  let text = '';
  while (text.length < length) text += ALPHABET[random(ALPHABET.length)];
  return text;
}

describe('jsonBytes', () => {
  it('is the size JSON.stringify writes, for every kind of character', () => {
    for (const character of ALPHABET)
      expect(jsonBytes(character), JSON.stringify(character)).toBe(stringified(character));
    for (let seed = 1; seed <= 50; seed++) {
      const text = randomText(500, seed);
      expect(jsonBytes(text)).toBe(stringified(text));
    }
  });
});

describe('excerpt', () => {
  it('gives a text that fits whole, not cut', () => {
    expect(excerpt('Sleep was short.', 16)).toEqual({ text: 'Sleep was short.', cut: false });
    expect(excerpt('', 16)).toEqual({ text: '', cut: false });
  });

  it('cuts a longer text to a start that JSON writes within the budget, whatever its characters', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const text = randomText(400, seed);
      const budget = 16 + (seed % 7) * 40;
      const { text: start, cut } = excerpt(text, budget);
      expect(text.startsWith(start)).toBe(true);
      expect(cut).toBe(start.length < text.length);
      expect(stringified(start)).toBeLessThanOrEqual(budget);
      // Never the first half of a surrogate pair at the end.
      const last = start.charCodeAt(start.length - 1);
      const next = text.charCodeAt(start.length);
      expect(last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff).toBe(false);
    }
  });

  it('counts a control character as the six bytes JSON writes for it', () => {
    const worst = `a${'\u0001'.repeat(65534)}b`;
    const { text, cut } = excerpt(worst, 1024);
    expect(cut).toBe(true);
    expect(text).toBe(`a${'\u0001'.repeat(170)}`);
    expect(Buffer.byteLength(JSON.stringify(text))).toBe(1 + 170 * 6 + 2);
  });

  it('never splits an astral character', () => {
    const { text } = excerpt('😀'.repeat(10), 10);
    expect(text).toBe('😀😀');
  });

  it('cuts before a word the budget would split, and inside a word longer than 32 characters', () => {
    expect(excerpt('alpha beta gamma delta', 13)).toEqual({ text: 'alpha beta ', cut: true });
    expect(excerpt('alpha beta gamma delta', 11)).toEqual({ text: 'alpha beta ', cut: true });
    expect(excerpt('alpha beta gamma delta', 10)).toEqual({ text: 'alpha beta', cut: true });
    const long = `see ${'x'.repeat(100)}`;
    expect(excerpt(long, 50)).toEqual({ text: long.slice(0, 50), cut: true });
    // A first word longer than the budget is cut inside, never to nothing.
    expect(excerpt('supercalifragilistic', 5)).toEqual({ text: 'super', cut: true });
  });
});
