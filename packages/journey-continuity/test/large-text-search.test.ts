import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journeyKey, sessionFtsTable, sessionShardOf } from '../src/db/fts.js';
import { journeyMatch, toFtsPhrases } from '../src/journeys/fts-query.js';
import { PgDialect } from 'drizzle-orm/pg-core';
import { matchedDocumentsSql, rankedSessionsSql } from '../src/journeys/history-search.js';
import { rankedSessionsSql as postgresRankedSessionsSql } from '../src/journeys/postgres-history-search.js';
import { toMillisRange } from '../src/journeys/time.js';
import { SNIPPET_WINDOW_CHARS } from '../src/journeys/text-windows.js';
import { ConfigError, loadJourneyConfig, MAX_SUMMARY_BYTES } from '../src/index.js';
import {
  DIALECTS,
  history,
  newJourney,
  record,
  startHarness,
  storageFor,
  tempDataDir,
  type Harness,
} from './helpers.js';

const MIB = 1024 * 1024;
const FILLER = 'calm steady filler text goes on and on. ';

/** `bytes` of filler (ASCII), ending at a word boundary or mid-sentence as the length falls. */
const filler = (bytes: number) => FILLER.repeat(Math.ceil(bytes / FILLER.length)).slice(0, bytes);

/** The text a snippet shows, without its marks and ellipses. */
const plain = (snippet: string) => snippet.replaceAll('**', '').replace(/^…/, '').replace(/…$/, '');
const words = (snippet: string) => plain(snippet).split(/\s+/).filter(Boolean).length;

describe.each(DIALECTS)('large texts (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    // A scan budget that reaches the end of a 1 MiB text (the default stops at 256 KiB).
    h = await startHarness({ storage: await storageFor(dialect), config: { snippetScanBytes: 2 * MIB } });
  });
  afterAll(async () => {
    await h.stop();
  });

  async function documentSnippet(content: string, query: string): Promise<string | undefined> {
    const journeyId = await newJourney(h);
    await h.ok('add_document_to_journey', {
      journey_id: journeyId,
      document_type: 'note',
      title: 'Notes',
      content,
    });
    const page = await history(h, { journey_id: journeyId, query, include_documents: true });
    expect(page.documents).toHaveLength(1);
    return page.documents?.[0]?.snippet;
  }

  describe('snippets of large texts come from a window around the match', () => {
    it('a match deep inside a 1 MiB document: a snippet around it, cut on both sides', async () => {
      const content = `${filler(600_000)}then the zebra crossing appeared. ${filler(MIB - 600_034)}`;
      expect(Buffer.byteLength(content)).toBe(MIB);
      const snippet = await documentSnippet(content, 'zebra');
      expect(snippet).toMatch(/^….*\*\*zebra\*\* crossing appeared\..*…$/);
      expect(content).toContain(plain(snippet!));
      expect(words(snippet!)).toBeGreaterThanOrEqual(8);
      expect(words(snippet!)).toBeLessThanOrEqual(20);
    });

    it('a match at the very end of a 1 MiB document: the snippet ends with the text', async () => {
      const content = `${filler(MIB - 24)} a final ocelot sighting`;
      expect(Buffer.byteLength(content)).toBe(MIB);
      const snippet = await documentSnippet(content, 'ocelot');
      expect(snippet).toMatch(/^….*\*\*ocelot\*\* sighting$/);
      expect(content.endsWith(plain(snippet!))).toBe(true);
    });

    it('astral characters before the match, within a text’s head or past it: a snippet around the match', async () => {
      for (const [before, after] of [
        [`${'🙂 '.repeat(300)}${filler(2000)}`, filler(3000)],
        [filler(1500), `${'🙂 '.repeat(2000)}${filler(3000)}`],
        [`${filler(3000)}${'😀 '.repeat(500)}${filler(4000)}`, filler(100)],
      ]) {
        const snippet = await documentSnippet(`${before} the ocelot sighting ${after}`, 'ocelot');
        expect(snippet).toMatch(/\*\*ocelot\*\* sighting/);
        expect(`${before} the ocelot sighting ${after}`).toContain(plain(snippet!));
      }
      const journeyId = await newJourney(h);
      await record(h, journeyId, `${'🙂 '.repeat(400)}${filler(3000)} the ocelot sighting ${filler(3000)}`);
      const [session] = (await history(h, { journey_id: journeyId, query: 'ocelot' })).sessions;
      expect(session?.snippet).toMatch(/\*\*ocelot\*\* sighting/);
    });

    it('a match at the start of a long text: no ellipsis before it', async () => {
      const snippet = await documentSnippet(`Zebras first. ${filler(MIB / 2)}`, 'zebra');
      expect(snippet).toMatch(/^\*\*Zebras\*\* first\. .*…$/);
    });

    it('a document matched by its title alone shows the title', async () => {
      const journeyId = await newJourney(h);
      await h.ok('add_document_to_journey', {
        journey_id: journeyId,
        document_type: 'woop_plan',
        title: 'Marathon plan',
        content: filler(200_000),
      });
      const page = await history(h, { journey_id: journeyId, query: 'marathon', include_documents: true });
      expect(page.documents?.[0]?.snippet).toBe('**Marathon** plan');
    });

    it('many summaries of the largest size: ranked by bm25 as before, each with a snippet of its match', async () => {
      const journeyId = await newJourney(h);
      // Equal lengths (the same number of words), the word replaced 1..12 times deep in each summary.
      const base = filler(MAX_SUMMARY_BYTES - 100).split(' ');
      const created: string[] = [];
      const summaries = new Map<string, string>();
      for (let times = 1; times <= 12; times++) {
        const summary = [...base];
        for (let k = 0; k < times; k++) summary[5000 + 300 * k] = 'metronome';
        const day = String(times).padStart(2, '0');
        await record(h, journeyId, summary.join(' '), { created_at: `2025-04-${day}T10:00:00Z` });
        created.push(`2025-04-${day}T10:00:00.000Z`);
        summaries.set(`2025-04-${day}T10:00:00.000Z`, summary.join(' '));
        expect(Buffer.byteLength(summary.join(' '))).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
      }
      const page = await history(h, { journey_id: journeyId, query: 'metronome', limit: 5 });
      expect(page.total_results).toBe(12);
      expect(page.sessions.map((s) => s.created_at)).toEqual(created.slice(-5).reverse());
      expect(page.sessions[0]?.relevance_score).toBe(1);
      const scores = page.sessions.map((s) => s.relevance_score!);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      for (const session of page.sessions) {
        expect(session.snippet).toMatch(/^….*\*\*metronome\*\*.*…$/);
        const whole = summaries.get(session.created_at)!;
        expect(whole).toContain(plain(session.snippet!));
        expect(whole.startsWith(session.summary)).toBe(true);
        expect(session).toMatchObject({ summary_truncated: true, summary_bytes: Buffer.byteLength(whole) });
      }
      const all = await history(h, { journey_id: journeyId, query: 'metronome', limit: 100 });
      expect(all.sessions.map((s) => s.created_at)).toEqual([...created].reverse());
    });
  });
});

// SQLite only from here: FTS5's own snippet() and statements, and the scan budget's reads.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

describe('snippets of short texts are FTS5’s snippet() of the whole text, as before', () => {
  it(`a summary of up to ${SNIPPET_WINDOW_CHARS} characters gets exactly what snippet() makes of it`, async () => {
    const journeyId = await newJourney(h);
    const summaries = [
      'Sleep was short: late work emails again.',
      `${'Work talk. '.repeat(40)}Then sleep came up, and sleep hygiene, and the evening routine. ${'More. '.repeat(60)}`,
      `Sleep ${'x '.repeat(505)}`.slice(0, SNIPPET_WINDOW_CHARS),
    ];
    for (const summary of summaries) await record(h, journeyId, summary);
    const query = 'sleep routine';
    const page = await history(h, { journey_id: journeyId, query: 'sleep' });
    const phraseMatch = (q: string) => journeyMatch(journeyKey(journeyId), ['summary'], toFtsPhrases(q));
    const direct = new Database(h.dbFile, { readonly: true });
    try {
      const table = sessionFtsTable(sessionShardOf(journeyId));
      const ftsSnippets = (q: string) =>
        direct
          .prepare(
            `SELECT s.id AS session_id, snippet(${table}, 1, '**', '**', '…', 16) AS snippet
               FROM ${table} JOIN sessions s ON s.seq = ${table}.rowid WHERE ${table} MATCH ?`,
          )
          .all(phraseMatch(q)) as { session_id: string; snippet: string }[];
      const bySession = (rows: { session_id: string; snippet?: string }[]) =>
        Object.fromEntries(rows.map((row) => [row.session_id, row.snippet]));
      expect(page.sessions).toHaveLength(3);
      expect(bySession(page.sessions)).toEqual(bySession(ftsSnippets('sleep')));
      const both = await history(h, { journey_id: journeyId, query });
      expect(both.sessions).toHaveLength(1);
      expect(bySession(both.sessions)).toEqual(bySession(ftsSnippets(query)));
    } finally {
      direct.close();
    }
  });
});

describe('JOURNEY_SNIPPET_SCAN_BYTES bounds how far a search looks for where long texts match', () => {
  it('a match beyond the budget: the result stays, without a snippet; one within it has a snippet', async () => {
    const bounded = await startHarness({ config: { snippetScanBytes: 64 * 1024 } });
    try {
      const journeyId = await newJourney(bounded);
      const add = (content: string) =>
        bounded.ok('add_document_to_journey', { journey_id: journeyId, document_type: 'note', content });
      await add(`${filler(300_000)} the zebra ${filler(1000)}`);
      await add(`${filler(30_000)} the zebra ${filler(300_000)}`);
      const page = await history(bounded, { journey_id: journeyId, query: 'zebra', include_documents: true });
      // Newest first: the near match, then the far one (the budget went to the first).
      expect(page.documents?.map((d) => d.snippet?.includes('**zebra**'))).toEqual([true, undefined]);
    } finally {
      await bounded.stop();
    }
  });

  it('is read from the environment and checked at start', () => {
    const dataDir = tempDataDir();
    expect(
      loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir, JOURNEY_SNIPPET_SCAN_BYTES: '0' }),
    ).toMatchObject({ snippetScanBytes: 0 });
    expect(loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir }).snippetScanBytes).toBeUndefined();
    for (const value of ['-1', '1MB', String(2 ** 31)]) {
      const load = () =>
        loadJourneyConfig({ SWITCHYARD_DATA_DIR: dataDir, JOURNEY_SNIPPET_SCAN_BYTES: value });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(/^JOURNEY_SNIPPET_SCAN_BYTES: /);
    }
  });
});

describe('search cost does not grow with the square of a matched text', () => {
  it('the search statements never run snippet() or highlight() over stored text', () => {
    // Both score every match against every other match of a text: the cause of minutes-long searches.
    for (const sql of [rankedSessionsSql(sessionFtsTable(0)), matchedDocumentsSql()]) {
      expect(sql).not.toMatch(/\b(snippet|highlight)\s*\(/i);
    }
  });

  it('snippet() is given a text up to its 32nd match: a short text of 40 matches is cut before the rest', async () => {
    // snippet() compares every match of what it is given with every other: 1024 characters of one repeated
    // word are 512 matches, 256k comparisons per result. Here the match of the second word comes after the
    // 40 of the first, so snippet() never sees it (given all 41, it picks the excerpt that shows both).
    const journeyId = await newJourney(h);
    await record(h, journeyId, `${'a '.repeat(40)}b`);
    const [session] = (await history(h, { journey_id: journeyId, query: 'a b' })).sessions;
    expect(session?.snippet).toMatch(/^\*\*a\*\* .*…$/);
    expect(session?.snippet).not.toContain('**b**');
    // A text with fewer matches is given whole, as before.
    const fewer = await newJourney(h);
    await record(h, fewer, `${'a '.repeat(30)}b`);
    const [whole] = (await history(h, { journey_id: fewer, query: 'a b' })).sessions;
    expect(whole?.snippet).toContain('**b**');
  });
});

describe('PostgreSQL sends long texts whole only while the snippet scan budget lasts', () => {
  it('the page carries each summary whole until the long ones before it add up to the budget, then its head', async () => {
    // PostgreSQL sends what the snippet maker may read with the page (SQLite reads it on demand): sent whole,
    // a page of 100 summaries of 64 KiB was 6.4 MB a search, read and decompressed on every call.
    const pg = await startHarness({ storage: await storageFor('postgres') });
    try {
      const journeyId = await newJourney(pg);
      for (let i = 0; i < 5; i++) await record(pg, journeyId, `zebra ${filler(50_000)}`);
      const reads = { scanBytes: 100_000, readChars: 102_048, headChars: SNIPPET_WINDOW_CHARS + 1 };
      const query = { journeyId, range: toMillisRange(), limit: 10, includeDocuments: false };
      const { sql, params } = new PgDialect().sqlToQuery(
        postgresRankedSessionsSql(journeyId, ['zebra'], query, reads),
      );
      const rows = await pg.rows<{ summary: string }>(sql, ...params);
      expect(rows.map((row) => row.summary.length)).toEqual([50_006, 50_006, 1025, 1025, 1025]);
    } finally {
      await pg.stop();
    }
  });
});
