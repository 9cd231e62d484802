import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journeyMatch, MAX_QUERY_PHRASES, MAX_QUERY_WORDS, toFtsPhrases } from '../src/journeys/fts-query.js';
import { DIALECTS, history, newJourney, record, startHarness, storageFor, type Harness } from './helpers.js';

// Text that would be an FTS5 syntax error, an operator, a column filter or SQL if passed through.
const NASTY_QUERIES = [
  '"',
  '""',
  '"unbalanced quote',
  "'",
  "O'Brien's plan",
  '*',
  'run*',
  '* OR *',
  '-',
  '-sleep',
  'sleep -work',
  ':',
  'summary:sleep',
  'jkey:anything',
  '{summary jkey}: sleep',
  'NEAR',
  'NEAR(sleep work, 2)',
  'NEAR/3',
  'AND',
  'OR',
  'NOT',
  'sleep AND',
  'AND OR NOT',
  'sleep NOT',
  '(',
  ')',
  '((sleep)',
  'sleep))',
  '^sleep',
  '+sleep',
  'sleep + work',
  "'; DROP TABLE sessions; --",
  '" OR 1=1 --',
  'Robert"); DELETE FROM journeys; --',
  'SELECT * FROM sessions_fts_00',
  '\\',
  '%',
  '_',
  '🙂🙂',
  '\u202Eevil',
  'ｓｌｅｅｐ',
  'x'.repeat(10_000),
  Array.from({ length: 500 }, (_, i) => `w${i}`).join(' '),
  '(((((((((((((((((((((((((((((((((((((((((((((((((((sleep',
  'sleep\nwork\ttonight',
  '   ',
];

describe.each(DIALECTS)('FTS: any text is a valid query (%s)', (dialect) => {
  let h: Harness;
  let journeyId: string;
  beforeAll(async () => {
    h = await startHarness({ storage: await storageFor(dialect) });
    journeyId = await newJourney(h);
    await record(h, journeyId, 'Sleep was short because of late work emails', {
      created_at: '2025-01-01T00:00:00Z',
    });
    await record(h, journeyId, "Discussed O'Brien's plan for the NEAR future AND a summary", {
      created_at: '2025-01-02T00:00:00Z',
    });
    await h.ok('add_document_to_journey', {
      journey_id: journeyId,
      document_type: 'note',
      title: 'Sleep diary',
      content: 'Bed at 23:00 - up at 07:00',
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it(`answers ${NASTY_QUERIES.length} adversarial queries normally, never a syntax error or a 500`, async () => {
    expect(NASTY_QUERIES.length).toBeGreaterThanOrEqual(30);
    for (const query of NASTY_QUERIES) {
      const result = await h.call('query_journey_history', {
        journey_id: journeyId,
        query,
        include_documents: true,
      });
      expect(
        result.isError,
        `query ${JSON.stringify(query.slice(0, 60))}: ${JSON.stringify(result.structured)}`,
      ).toBe(false);
      expect(Array.isArray(result.structured.sessions)).toBe(true);
    }
  });

  it('refuses a query holding a NUL character as text no store holds, naming the field (server-kit)', async () => {
    for (const query of ['\u0000', 'sleep\u0000work']) {
      const result = await h.call('query_journey_history', { journey_id: journeyId, query });
      expect(result.isError).toBe(true);
      expect(result.structured).toMatchObject({
        error: {
          status: 400,
          code: 'VALIDATION_ERROR',
          message: expect.stringMatching(/^query .*NUL character/),
        },
      });
    }
  });

  it('searches operators, quotes and SQL as plain words', async () => {
    const found = async (query: string) =>
      (await history(h, { journey_id: journeyId, query })).sessions.map((s) => s.created_at.slice(0, 10));
    expect(await found('summary:sleep')).toEqual([]); // the words "summary" and "sleep" are never in one session
    expect(await found('-sleep')).toEqual(['2025-01-01']); // not a NOT: the word sleep
    expect(await found('sleep AND')).toEqual([]); // AND is a word here, and the sleep session lacks it
    expect(await found('NEAR AND')).toEqual(['2025-01-02']);
    expect(await found("O'Brien's")).toEqual(['2025-01-02']);
    expect(await found('"sleep late')).toEqual(['2025-01-01']); // an unbalanced quote
    expect(await found("'; DROP TABLE sessions; --")).toEqual([]);
    expect(await found('late* work*')).toEqual(['2025-01-01']);
    // Nothing was dropped.
    expect((await history(h, { journey_id: journeyId })).total_results).toBe(2);
  });

  it('finds documents by words that contain punctuation', async () => {
    const page = await history(h, { journey_id: journeyId, query: '23:00', include_documents: true });
    expect(page.documents?.map((d) => d.title)).toEqual(['Sleep diary']);
  });
});

describe('toFtsPhrases', () => {
  it('quotes each whitespace-separated chunk as a phrase of its words', () => {
    expect(toFtsPhrases('knee-injury AND "rest"')).toEqual(['"knee injury"', '"AND"', '"rest"']);
    expect(toFtsPhrases('NEAR(a b, 2)')).toEqual(['"NEAR a"', '"b"', '"2"']);
    expect(toFtsPhrases('*** -- ()')).toEqual([]);
  });

  it('never lets a double quote through, drops repeated words and caps the number of phrases', () => {
    for (const query of NASTY_QUERIES) {
      for (const phrase of toFtsPhrases(query)) expect(phrase.slice(1, -1)).not.toContain('"');
    }
    expect(toFtsPhrases('Sleep sleep SLEEP')).toEqual(['"Sleep"']);
    expect(toFtsPhrases(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '))).toHaveLength(
      MAX_QUERY_PHRASES,
    );
  });

  it('searches each word once and at most MAX_QUERY_WORDS words, also inside one chunk', () => {
    // A phrase of one word repeated reads every position of that word once per repeat: 2,000 repeats
    // of "a" held the server for seconds over one summary full of "a".
    expect(toFtsPhrases(Array(2000).fill('a').join('-'))).toEqual(['"a"']);
    expect(toFtsPhrases('knee knee-injury day-to-day Knée')).toEqual(['"knee"', '"injury"', '"day to"']);
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    expect(toFtsPhrases(words.join('-'))).toEqual([`"${words.slice(0, MAX_QUERY_WORDS).join(' ')}"`]);
    expect(toFtsPhrases(`${words.slice(0, 30).join(' ')} x-y-z`)).toEqual([
      ...words.slice(0, 30).map((word) => `"${word}"`),
      '"x y"',
    ]);
  });

  it('restricts the match to the journey key and the named columns', () => {
    expect(journeyMatch('jabc0', ['summary'], ['"a"', '"b c"'])).toBe(
      'jkey : "jabc0" AND summary : ("a" "b c")',
    );
    expect(journeyMatch('jabc0', ['title', 'content'], ['"a"'])).toBe(
      'jkey : "jabc0" AND {title content} : ("a")',
    );
  });
});
