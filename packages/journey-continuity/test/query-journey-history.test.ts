import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, history, newJourney, record, startHarness, storageFor, type Harness } from './helpers.js';

describe.each(DIALECTS)('query_journey_history (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ storage: await storageFor(dialect) });
  });
  afterAll(async () => {
    await h.stop();
  });

  const at = (day: number, time = '12:00:00.000') => `2025-03-${String(day).padStart(2, '0')}T${time}Z`;

  describe('query_journey_history: errors', () => {
    it('404 for an unknown journey, with the seed message', async () => {
      const id = randomUUID();
      expect(await h.fails('query_journey_history', { journey_id: id })).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: `Journey ${id} not found`,
      });
    });

    it('400 when from_date is after to_date, with the seed message', async () => {
      const journeyId = await newJourney(h);
      expect(
        await h.fails('query_journey_history', { journey_id: journeyId, from_date: at(2), to_date: at(1) }),
      ).toEqual({ status: 400, code: 'VALIDATION_ERROR', message: 'from_date must be before to_date' });
    });

    it('400 naming the field for a malformed UUID, date, limit or flag', async () => {
      const journeyId = await newJourney(h);
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ journey_id: 'journey-1' }, /^journey_id must be a valid UUID$/],
        [{}, /^journey_id is required$/],
        [{ journey_id: journeyId, from_date: '2025-03-01' }, /^from_date must be an ISO 8601 date-time/],
        [{ journey_id: journeyId, to_date: 'last week' }, /^to_date must be an ISO 8601 date-time/],
        [{ journey_id: journeyId, limit: 0 }, /^limit must be an integer from 1 to 100$/],
        [{ journey_id: journeyId, limit: 101 }, /^limit must be an integer from 1 to 100$/],
        [{ journey_id: journeyId, include_documents: 'yes' }, /^include_documents must be true or false$/],
        [{ journey_id: journeyId, query: 42 }, /^query/],
        [{ journey_id: journeyId, page: 2 }, /page/],
      ];
      for (const [args, message] of cases) {
        const error = await h.fails('query_journey_history', args);
        expect(error.status, JSON.stringify(args)).toBe(400);
        expect(error.code).toBe('VALIDATION_ERROR');
        expect(error.message).toMatch(message);
      }
    });
  });

  describe('query_journey_history: without a query', () => {
    it('lists newest first, limit defaults to 10, total_results counts before the limit', async () => {
      const journeyId = await newJourney(h);
      for (let day = 1; day <= 12; day++) await record(h, journeyId, `day ${day}`, { created_at: at(day) });
      const page = await history(h, { journey_id: journeyId });
      expect(page.total_results).toBe(12);
      expect(page.sessions).toHaveLength(10);
      expect(page.sessions.map((s) => s.summary)).toEqual(
        [12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((day) => `day ${day}`),
      );
      expect(page.sessions[0]).not.toHaveProperty('relevance_score');
      expect(page.documents).toBeUndefined();
      expect((await history(h, { journey_id: journeyId, limit: 1 })).sessions).toHaveLength(1);
      expect((await history(h, { journey_id: journeyId, limit: 100 })).sessions).toHaveLength(12);
    });

    it('returns each session’s fields; has_diagnosis is whether a diagnosis was recorded', async () => {
      const journeyId = await newJourney(h);
      const withDiagnosis = await record(h, journeyId, 'assessed motivation', {
        diagnosis: { stage: 'contemplation' },
        confidence_score: 80,
        created_at: at(2),
      });
      const without = await record(h, journeyId, 'small talk', { created_at: at(1) });
      const { sessions } = await history(h, { journey_id: journeyId });
      expect(sessions).toEqual([
        {
          session_id: withDiagnosis,
          created_at: '2025-03-02T12:00:00.000Z',
          summary: 'assessed motivation',
          has_diagnosis: true,
        },
        {
          session_id: without,
          created_at: '2025-03-01T12:00:00.000Z',
          summary: 'small talk',
          has_diagnosis: false,
        },
      ]);
    });

    it('only ever shows the journey’s own sessions', async () => {
      const mine = await newJourney(h);
      const theirs = await newJourney(h);
      await record(h, mine, 'my marathon plan');
      await record(h, theirs, 'their marathon plan');
      for (const args of [{ journey_id: mine }, { journey_id: mine, query: 'marathon' }]) {
        const page = await history(h, args);
        expect(page.sessions.map((s) => s.summary)).toEqual(['my marathon plan']);
        expect(page.total_results).toBe(1);
      }
    });
  });

  describe('query_journey_history: date range', () => {
    it('includes both boundaries, excludes a millisecond outside, in either direction', async () => {
      const journeyId = await newJourney(h);
      const times = ['09:59:59.999', '10:00:00.000', '10:30:00.000', '11:00:00.000', '11:00:00.001'];
      for (const time of times)
        await record(h, journeyId, `goal review at ${time}`, { created_at: at(5, time) });
      const range = { from_date: at(5, '10:00:00.000'), to_date: at(5, '11:00:00.000') };
      for (const query of [undefined, 'goal review']) {
        const page = await history(h, { journey_id: journeyId, ...range, ...(query ? { query } : {}) });
        expect(page.sessions.map((s) => s.created_at).sort()).toEqual([
          at(5, '10:00:00.000'),
          at(5, '10:30:00.000'),
          at(5, '11:00:00.000'),
        ]);
        expect(page.total_results).toBe(3);
      }
      const fromOnly = await history(h, { journey_id: journeyId, from_date: at(5, '11:00:00.000') });
      expect(fromOnly.sessions.map((s) => s.created_at)).toEqual([
        at(5, '11:00:00.001'),
        at(5, '11:00:00.000'),
      ]);
      const toOnly = await history(h, { journey_id: journeyId, to_date: at(5, '10:00:00.000') });
      expect(toOnly.sessions.map((s) => s.created_at)).toEqual([
        at(5, '10:00:00.000'),
        at(5, '09:59:59.999'),
      ]);
    });

    it('compares instants across time zone offsets; a point range finds the session at that instant', async () => {
      const journeyId = await newJourney(h);
      await record(h, journeyId, 'check-in', { created_at: '2025-03-07T08:00:00+02:00' });
      const page = await history(h, {
        journey_id: journeyId,
        from_date: '2025-03-07T06:00:00Z',
        to_date: '2025-03-07T01:00:00-05:00',
      });
      expect(page.sessions.map((s) => s.created_at)).toEqual(['2025-03-07T06:00:00.000Z']);
      const empty = await history(h, {
        journey_id: journeyId,
        from_date: '2025-03-07T06:00:00.0001Z',
        to_date: '2025-03-07T06:00:00.0009Z',
      });
      expect(empty.total_results).toBe(0);
    });
  });

  describe('query_journey_history: with a query', () => {
    it('ranks by bm25: more occurrences of a rarer word first; relevance in (0, 1], best = 1', async () => {
      const journeyId = await newJourney(h);
      await record(h, journeyId, 'Talked about sleep once and then about work and family plans', {
        created_at: at(3),
      });
      await record(h, journeyId, 'Sleep, sleep, sleep: the whole session was about sleep', {
        created_at: at(1),
      });
      await record(h, journeyId, 'Morning routine without any mention of rest', { created_at: at(2) });
      const page = await history(h, { journey_id: journeyId, query: 'sleep' });
      expect(page.total_results).toBe(2);
      expect(page.sessions.map((s) => s.created_at)).toEqual([at(1), at(3)]);
      const [best, next] = page.sessions;
      expect(best?.relevance_score).toBe(1);
      expect(next?.relevance_score).toBeGreaterThan(0);
      expect(next?.relevance_score).toBeLessThan(1);
    });

    it('breaks relevance ties by newest first', async () => {
      const journeyId = await newJourney(h);
      for (const day of [4, 9, 6])
        await record(h, journeyId, 'budget review and savings goal', { created_at: at(day) });
      const page = await history(h, { journey_id: journeyId, query: 'budget' });
      expect(page.sessions.map((s) => s.created_at)).toEqual([at(9), at(6), at(4)]);
      expect(page.sessions.every((s) => s.relevance_score === 1)).toBe(true);
    });

    it('requires every word, in any order, stemmed, case- and accent-insensitive', async () => {
      const journeyId = await newJourney(h);
      await record(h, journeyId, 'Went running before the job interview', { created_at: at(1) });
      await record(h, journeyId, 'Interview preparation only', { created_at: at(2) });
      await record(h, journeyId, 'Café visits replaced the evening run', { created_at: at(3) });
      const summaries = async (query: string) =>
        (await history(h, { journey_id: journeyId, query })).sessions.map((s) => s.summary);
      expect(await summaries('INTERVIEW runs')).toEqual(['Went running before the job interview']);
      expect(await summaries('interviews')).toHaveLength(2);
      expect(await summaries('cafe')).toEqual(['Café visits replaced the evening run']);
      expect(await summaries('interview astronaut')).toEqual([]);
    });

    it('total_results counts every match before the limit; a snippet shows where it matched', async () => {
      const journeyId = await newJourney(h);
      for (let day = 1; day <= 15; day++) {
        await record(h, journeyId, `Week ${day}: practised guitar scales for twenty minutes`, {
          created_at: at(day),
        });
      }
      await record(h, journeyId, 'Unrelated: tax forms', { created_at: at(16) });
      const page = await history(h, { journey_id: journeyId, query: 'guitar', limit: 5 });
      expect(page.total_results).toBe(15);
      expect(page.sessions).toHaveLength(5);
      for (const session of page.sessions) expect(session.snippet).toContain('**guitar**');
    });

    it('a blank query lists newest first; a query with no words matches nothing', async () => {
      const journeyId = await newJourney(h);
      await record(h, journeyId, 'first', { created_at: at(1) });
      await record(h, journeyId, 'second', { created_at: at(2) });
      const blank = await history(h, { journey_id: journeyId, query: '   ' });
      expect(blank.sessions.map((s) => s.summary)).toEqual(['second', 'first']);
      expect(blank.total_results).toBe(2);
      const symbols = await history(h, {
        journey_id: journeyId,
        query: '*** --- ()',
        include_documents: true,
      });
      expect(symbols).toEqual({
        journey_id: journeyId,
        sessions: [],
        documents: [],
        total_results: 0,
        next_cursor: null,
      });
    });
  });

  describe('query_journey_history: include_documents', () => {
    it('lists the journey’s documents newest first, under the same date range and limit', async () => {
      const journeyId = await newJourney(h);
      const titles = ['first note', 'second note', 'third note'];
      const ids: string[] = [];
      for (const title of titles) {
        const doc = await h.ok<{ document_id: string; created_at: string }>('add_document_to_journey', {
          journey_id: journeyId,
          document_type: 'note',
          title,
        });
        ids.push(doc.document_id);
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      await h.ok('add_document_to_journey', {
        journey_id: await newJourney(h),
        document_type: 'note',
        title: 'x',
      });
      const all = await history(h, { journey_id: journeyId, include_documents: true });
      expect(all.documents?.map((d) => d.document_id)).toEqual([...ids].reverse());
      expect(all.documents?.[0]).toMatchObject({ document_type: 'note', title: 'third note' });
      const limited = await history(h, { journey_id: journeyId, include_documents: true, limit: 2 });
      expect(limited.documents).toHaveLength(2);
      const future = await history(h, {
        journey_id: journeyId,
        include_documents: true,
        from_date: '2999-01-01T00:00:00Z',
      });
      expect(future.documents).toEqual([]);
    });

    it('with a query, documents match in title or content', async () => {
      const journeyId = await newJourney(h);
      const add = (args: Record<string, unknown>) =>
        h.ok<{ document_id: string }>('add_document_to_journey', { journey_id: journeyId, ...args });
      const byTitle = await add({
        document_type: 'woop_plan',
        title: 'Marathon WOOP',
        content: 'Wish: finish',
      });
      const byContent = await add({
        document_type: 'artifact',
        title: 'Plan',
        content: 'Train for the marathon in May',
      });
      await add({ document_type: 'note', title: 'Groceries', content: 'apples' });
      const page = await history(h, { journey_id: journeyId, query: 'marathon', include_documents: true });
      expect(page.documents?.map((d) => d.document_id).sort()).toEqual(
        [byTitle.document_id, byContent.document_id].sort(),
      );
      for (const doc of page.documents ?? []) expect(doc.snippet).toMatch(/\*\*marathon\*\*/i);
      expect(page.total_results).toBe(0);
    });

    it('with a query, matching documents keep to the date range and the limit, newest first', async () => {
      const journeyId = await newJourney(h);
      const ids: string[] = [];
      for (const title of ['ferry one', 'ferry two', 'ferry three']) {
        const doc = await h.ok<{ document_id: string }>('add_document_to_journey', {
          journey_id: journeyId,
          document_type: 'note',
          title,
        });
        ids.push(doc.document_id);
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      const search = { journey_id: journeyId, query: 'ferry', include_documents: true };
      const limited = await history(h, { ...search, limit: 2 });
      expect(limited.documents?.map((d) => d.document_id)).toEqual([ids[2], ids[1]]);
      expect((await history(h, { ...search, from_date: '2999-01-01T00:00:00Z' })).documents).toEqual([]);
      expect((await history(h, { ...search, to_date: '2000-01-01T00:00:00Z' })).documents).toEqual([]);
    });
  });
});
