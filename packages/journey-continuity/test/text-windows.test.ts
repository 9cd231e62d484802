import { describe, expect, it } from 'vitest';
import { seededRandom } from '../bench/corpus.js';
import {
  continued,
  pieceLength,
  PROBE_OVERLAP,
  PROBE_STRIDE,
  probeWindows,
  readPiece,
  SNIPPET_WINDOW_CHARS,
  windowAt,
  type TextReader,
} from '../src/journeys/text-windows.js';

const reader =
  (text: string): TextReader =>
  (start, count) =>
    text.slice(start, start + count);

/** Words of 1..12 letters (some accented) separated by spaces or punctuation, from a seed. */
function randomText(length: number, seed: number): string {
  const random = seededRandom(seed);
  const letters = 'abcdefghijklmnopqrstuvwxyzéü';
  const separators = [' ', ' ', ' ', ', ', '. ', '\n', '-'];
  let text = '';
  while (text.length < length) {
    const size = 1 + random(12);
    for (let i = 0; i < size; i++) text += letters[random(letters.length)];
    text += separators[random(separators.length)];
  }
  return text.slice(0, length);
}

const wordsOf = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

describe('probe windows', () => {
  it('cover every whole word of a text, never a part of one, each at most stride + overlap long', () => {
    for (const seed of [1, 2, 3]) {
      const text = randomText(20_000, seed);
      const wanted = 8 * PROBE_STRIDE + PROBE_OVERLAP;
      const seen = new Set<string>();
      for (let first = 0; first * PROBE_STRIDE < text.length; first += 8) {
        const piece = readPiece(reader(text), first * PROBE_STRIDE, wanted);
        const windows = probeWindows(piece, pieceLength(piece, wanted));
        expect(windows.length).toBeLessThanOrEqual(8);
        for (const window of windows) {
          expect(window.length).toBeLessThanOrEqual(PROBE_STRIDE + PROBE_OVERLAP);
          expect(text).toContain(window);
          for (const word of wordsOf(window)) seen.add(word);
        }
      }
      // Every word of the text is whole in some window, and no window holds a piece of a word.
      expect([...seen].sort()).toEqual([...new Set(wordsOf(text))].sort());
    }
  });
});

describe('snippet windows', () => {
  const text = randomText(10_000, 7);

  it('at the start: reaches the start, at most the window size, no word cut at the end', () => {
    const window = windowAt(reader(text), 0);
    expect(window).toMatchObject({ fromStart: true, toEnd: false });
    expect(text.startsWith(window.text)).toBe(true);
    expect(window.text.length).toBeLessThanOrEqual(SNIPPET_WINDOW_CHARS);
    const next = text[window.text.length];
    expect(next === undefined || !/\p{L}/u.test(next) || !/\p{L}/u.test(window.text.at(-1)!)).toBe(true);
  });

  it('inside: drops the words its edges cut; at the end: reaches the end', () => {
    for (const start of [1, 2500, 5001, 7777]) {
      const window = windowAt(reader(text), start);
      expect(window.fromStart).toBe(false);
      const at = text.indexOf(window.text, start - 1);
      expect(at).toBeGreaterThanOrEqual(start);
      expect(/\p{L}/u.test(text[at - 1]!) && /\p{L}/u.test(text[at]!)).toBe(false);
      const end = at + window.text.length;
      expect(end).toBeLessThanOrEqual(start + SNIPPET_WINDOW_CHARS);
      expect(/\p{L}/u.test(text[end - 1]!) && /\p{L}/u.test(text[end] ?? ' ')).toBe(false);
    }
    const last = windowAt(reader(text), text.length - 100);
    expect(last.toEnd).toBe(true);
    expect(text.endsWith(last.text)).toBe(true);
  });

  it('marks where a snippet continues past its window, once', () => {
    const inside = { text: '', fromStart: false, toEnd: false };
    expect(continued('a **b** c', inside, '…')).toBe('…a **b** c…');
    expect(continued('…a **b** c…', inside, '…')).toBe('…a **b** c…');
    expect(continued('a **b**', { text: '', fromStart: true, toEnd: true }, '…')).toBe('a **b**');
  });
});
