// query_journey_history in pages (issue #34): a search whose matches pass `limit`, or pass the answer limit
// (SWITCHYARD_MAX_ANSWER_BYTES) before `limit`, answers a next_cursor; passed back with the same search it
// gives the next page, until every match came exactly once and next_cursor is null. A cursor of another
// search is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, history, newJourney, record, startHarness, storageFor, type Harness } from './helpers.js';

const ANSWER_LIMIT = 64 * 1024;

/** Every page of a search, following next_cursor. */
async function allPages(h: Harness, args: Record<string, unknown>) {
  const pages = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await history(h, { ...args, ...(cursor === undefined ? {} : { cursor }) });
    pages.push(page);
    if (page.next_cursor === null || page.next_cursor === undefined) return pages;
    cursor = page.next_cursor;
    expect(pages.length).toBeLessThan(100);
  }
}

describe.each(DIALECTS)('query_journey_history pages (%s)', (dialect) => {
  let h: Harness;
  let journeyId: string;
  const summaries: string[] = [];
  beforeAll(async () => {
    h = await startHarness({ storage: await storageFor(dialect), maxAnswerBytes: ANSWER_LIMIT });
    journeyId = await newJourney(h);
    for (let i = 0; i < 25; i++) {
      // Sessions whose relevance differs: session i says "knee" i % 5 + 1 times.
      const summary = `session ${i}: ${'knee '.repeat((i % 5) + 1)}pain ${'\u0001'.repeat(300)}`;
      summaries.push(summary);
      await record(h, journeyId, summary, { created_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() });
    }
    for (let i = 0; i < 13; i++) {
      await h.ok('add_document_to_journey', {
        journey_id: journeyId,
        document_type: 'note',
        title: `knee note ${i}`,
        content: `about the knee ${i}`,
      });
    }
  });
  afterAll(async () => {
    await h.stop();
  });

  it('pages of limit sessions, newest first, each once; the last page says none are left', async () => {
    const pages = await allPages(h, { journey_id: journeyId, limit: 10 });
    expect(pages.map((page) => page.sessions.length)).toEqual([10, 10, 5]);
    expect(pages.every((page) => page.total_results === 25)).toBe(true);
    const times = pages.flatMap((page) => page.sessions.map((session) => session.created_at));
    expect(times).toEqual([...times].sort().reverse());
    expect(new Set(times).size).toBe(25);
    expect(pages.at(-1)?.next_cursor).toBeNull();
  });

  it('ranked pages keep each score relative to the best match of the whole search', async () => {
    const pages = await allPages(h, { journey_id: journeyId, query: 'knee', limit: 10 });
    const scores = pages.flatMap((page) => page.sessions.map((session) => session.relevance_score ?? 0));
    expect(scores).toHaveLength(25);
    expect(scores[0]).toBe(1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The second page's best is not 1: it is scaled to the first page's best, not its own.
    expect(pages[1]?.sessions[0]?.relevance_score).toBeLessThan(1);
  });

  it('sessions and documents page on together, documents continuing after the sessions ran out', async () => {
    const pages = await allPages(h, {
      journey_id: journeyId,
      query: 'knee',
      limit: 12,
      include_documents: true,
    });
    expect(pages.map((page) => [page.sessions.length, page.documents?.length])).toEqual([
      [12, 12],
      [12, 1],
      [1, 0],
    ]);
    const documents = pages.flatMap((page) => page.documents ?? []).map((d) => d.document_id);
    expect(new Set(documents).size).toBe(13);
    expect(pages.every((page) => page.total_results === 25)).toBe(true);
  });

  it('an answer that would pass the answer limit is cut before limit, and the cursor goes on from there', async () => {
    // 80 sessions whose excerpts are control characters: more than 64 KiB with the text mirror, at limit 100.
    const crowded = await newJourney(h);
    for (let i = 0; i < 80; i++) await record(h, crowded, `${i} ${'\u0001'.repeat(2000)}`);
    const pages = await allPages(h, { journey_id: crowded, limit: 100 });
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]?.sessions.length).toBeLessThan(80);
    const sessions = pages.flatMap((page) => page.sessions.map((session) => session.session_id));
    expect(sessions).toHaveLength(80);
    expect(new Set(sessions).size).toBe(80);
  });

  it("refuses another search's cursor and one that is not a cursor, saying what to pass", async () => {
    const first = await history(h, { journey_id: journeyId, limit: 5 });
    const other = await h.fails('query_journey_history', {
      journey_id: journeyId,
      query: 'knee',
      limit: 5,
      cursor: first.next_cursor,
    });
    expect(other).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(other.message).toMatch(/cursor must be the next_cursor of an earlier answer to this same search/);
    const junk = await h.fails('query_journey_history', { journey_id: journeyId, cursor: 'not-a-cursor' });
    expect(junk.code).toBe('VALIDATION_ERROR');
    // The page size is not part of the search: a cursor works with another limit.
    const next = await history(h, { journey_id: journeyId, limit: 7, cursor: first.next_cursor });
    expect(next.sessions).toHaveLength(7);
  });
});
