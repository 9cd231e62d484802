import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../bench/corpus.js';
import { TOKENIZER } from '../src/db/fts.js';
import { anyPhrase, toFtsPhrases } from '../src/journeys/fts-query.js';
import { marksAtMost } from '../src/journeys/snippets.js';

// The snippet maker leaves out its highlight() pass (which cuts a text before its 33rd match) when
// marksAtMost says no shown text can reach that many marks: the count must never be below FTS5's own.

const MARKER = '\uFFFF';
const CAP = 32;

const scratch = new Database(':memory:');
scratch.exec(`CREATE VIRTUAL TABLE shown USING fts5(body, tokenize='${TOKENIZER}')`);
const insert = scratch.prepare<[string]>('INSERT INTO shown(body) VALUES (?)');
const marked = scratch
  .prepare<[string], string>(`SELECT highlight(shown, 0, char(65535), '') FROM shown WHERE shown MATCH ?`)
  .pluck();
afterAll(() => scratch.close());

/** The marks highlight() makes in `text` for a query, as the snippet maker counts them. */
function ftsMarks(text: string, query: string): number {
  scratch.exec('BEGIN');
  try {
    insert.run(text);
    const shown = marked.get(anyPhrase(toFtsPhrases(query)));
    return shown === undefined ? 0 : shown.split(MARKER).length - 1;
  } finally {
    scratch.exec('ROLLBACK');
  }
}

// Word pieces and separators of every kind the tokenizer treats apart: ASCII, accented and decomposed
// letters, stems (trams/tram), digits, CJK without spaces, astral characters, separators past ASCII (an
// ideographic full stop, a no-break space), control characters, the marker itself.
const PIECES = [
  'tram',
  'trams',
  'tramway',
  'Helsinki',
  'helsinki',
  'café',
  'cafe\u0301',
  'x',
  'a',
  '42',
  'b2b',
  '東京',
  '日本語',
  '😀',
  '𝒜',
  ' ',
  ' ',
  ', ',
  '-',
  '_',
  '。',
  '\u00a0',
  '\u0001',
  '\n',
  MARKER,
];
const QUERIES = ['tram', 'a', 'trams helsinki', 'a x 42', 'café 東京', 'b2b tram-way', '日本語 😀 a'];

const SEPARATORS = [' ', ' ', ', ', '-', '_', '。', '\u00a0', '\u0001', '\n', MARKER];

/**
 * Up to 90 pieces, half of them the query's own words (so that texts reach the cap), half any piece, most
 * followed by a separator (else glued to the next piece).
 */
function randomText(random: (n: number) => number, query: string): string {
  const words = query.split(/[\s-]+/);
  let text = '';
  const pieces = 1 + random(90);
  for (let i = 0; i < pieces; i++) {
    text += random(2) === 0 ? words[random(words.length)] : PIECES[random(PIECES.length)];
    if (random(4) > 0) text += SEPARATORS[random(SEPARATORS.length)];
  }
  return text;
}

describe('marksAtMost: the snippet maker’s count of the matches a text may hold', () => {
  it('is never below what highlight() marks, for any mix of words, separators and marker characters', () => {
    const random = seededRandom(40);
    let nearCap = 0;
    for (let i = 0; i < 3000; i++) {
      const query = QUERIES[random(QUERIES.length)]!;
      const text = randomText(random, query);
      const marks = ftsMarks(text, query);
      expect
        .soft(marksAtMost(text, toFtsPhrases(query).length), JSON.stringify({ text, query }))
        .toBeGreaterThanOrEqual(marks);
      if (marks > CAP / 2) nearCap += 1;
    }
    // The texts reach the cap's neighbourhood, where a count too low would change a snippet.
    expect(nearCap).toBeGreaterThan(50);
  });

  it('counts every match of a text made of matches alone', () => {
    for (const [text, query] of [
      ['a '.repeat(40), 'a'],
      ['東京。'.repeat(20), '東京'],
      ['日本 '.repeat(20) + '😀 '.repeat(20), '日本 😀'],
      [MARKER.repeat(33), 'a'],
      ['tram '.repeat(20) + 'helsinki '.repeat(20), 'tram helsinki'],
    ] as const) {
      expect(marksAtMost(text, toFtsPhrases(query).length)).toBeGreaterThanOrEqual(ftsMarks(text, query));
    }
  });

  it('leaves an ordinary short summary under the cap, so that it skips the pass', () => {
    const summary = 'Session 7: trams, ferries and night buses in Helsinki';
    expect(marksAtMost(summary, toFtsPhrases('helsinki trams').length)).toBeLessThanOrEqual(CAP);
  });
});
