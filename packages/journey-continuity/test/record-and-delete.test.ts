import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journeyKey, sessionFtsTable, sessionShardOf } from '../src/db/fts.js';
import {
  DIALECTS,
  history,
  newJourney,
  record,
  startHarness,
  storageFor,
  type Harness,
  type JourneyOut,
} from './helpers.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function countRows(file: string, sql: string, ...params: unknown[]): number {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(sql)
      .pluck()
      .get(...params) as number;
  } finally {
    db.close();
  }
}

describe.each(DIALECTS)('record_session and delete_journey (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ storage: await storageFor(dialect), config: { maxDocumentBytes: 4096 } });
  });
  afterAll(async () => {
    await h.stop();
  });

  /** How many of the journey's rows `table` (sessions or documents) holds, read straight from the database. */
  const rowsOf = async (table: string, journeyId: string) =>
    Number(
      (await h.rows<{ n: unknown }>(`SELECT count(*) AS n FROM ${table} WHERE journey_id = ?`, journeyId))[0]
        ?.n,
    );

  describe('record_session', () => {
    it('stores the session with its diagnosis and confidence, and counts it', async () => {
      const user = randomUUID();
      const journeyId = await newJourney(h, user);
      const recorded = await h.ok('record_session', {
        journey_id: journeyId,
        summary: 'Identified the evening slump as the main obstacle',
        messages: [{ role: 'user', content: 'I always skip the gym after work' }],
        diagnosis: { obstacle: 'fatigue' },
        confidence_score: 64.5,
        created_at: '2025-04-01T18:00:00+01:00',
      });
      expect(recorded).toMatchObject({
        journey_id: journeyId,
        created_at: '2025-04-01T17:00:00.000Z',
        has_diagnosis: true,
        confidence_score: 64.5,
        session_count: 1,
      });
      const journey = await h.ok<JourneyOut>('get_or_create_journey', { user_id: user });
      expect(journey.session_count).toBe(1);
      const [row] = await h.rows<{ messages: string; diagnosis: string; confidence_score: number }>(
        'SELECT messages, diagnosis, confidence_score FROM sessions WHERE id = ?',
        recorded.session_id,
      );
      expect(JSON.parse(row!.messages)).toEqual([
        { role: 'user', content: 'I always skip the gym after work' },
      ]);
      expect(JSON.parse(row!.diagnosis)).toEqual({ obstacle: 'fatigue' });
      expect(row!.confidence_score).toBe(64.5);
    });

    it('defaults created_at to now; 404 for an unknown journey; 400 for bad fields', async () => {
      const journeyId = await newJourney(h);
      const recorded = await h.ok<{ created_at: string; has_diagnosis: boolean }>('record_session', {
        journey_id: journeyId,
        summary: 'quick check-in',
      });
      expect(Math.abs(Date.parse(recorded.created_at) - Date.now())).toBeLessThan(60_000);
      expect(recorded.has_diagnosis).toBe(false);
      const id = randomUUID();
      expect(await h.fails('record_session', { journey_id: id, summary: 'x' })).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: `Journey ${id} not found`,
      });
      const bad: [Record<string, unknown>, string][] = [
        [{ summary: '' }, 'summary must not be empty'],
        [{ summary: 'x', confidence_score: 101 }, 'confidence_score must be a number from 0 to 100'],
        [{ summary: 'x', diagnosis: 'sad' }, 'diagnosis must be a JSON object'],
        [{ summary: 'x', created_at: 'today' }, 'created_at must be an ISO 8601 date-time'],
        [{ summary: 'x', messages: [{ text: 'm'.repeat(5000) }] }, 'messages must be at most 4096 bytes'],
      ];
      for (const [args, message] of bad) {
        const error = await h.fails('record_session', { journey_id: journeyId, ...args });
        expect(error.status).toBe(400);
        expect(error.message.startsWith(message), error.message).toBe(true);
      }
    });

    it('text with an unpaired surrogate is refused naming where, and nothing is stored; an emoji is kept exactly', async () => {
      // SQLite and PostgreSQL would store U+FFFD in its place: what the user saved would come back changed.
      const journeyId = await newJourney(h);
      const bad: [Record<string, unknown>, string][] = [
        [{ summary: 'evening \ud800slump' }, 'summary'],
        [{ summary: 'x', messages: [{ role: 'user', content: 'tired\udc00' }] }, 'messages[0].content'],
        [{ summary: 'x', diagnosis: { ['obstacle\ud83d']: 'fatigue' } }, 'a key in diagnosis'],
      ];
      for (const [args, where] of bad) {
        expect(await h.fails('record_session', { journey_id: journeyId, ...args })).toMatchObject({
          status: 400,
          code: 'VALIDATION_ERROR',
          message: expect.stringMatching(
            new RegExp(`^${escapeRegExp(where)} must be well-formed Unicode text`),
          ),
        });
      }
      expect(await rowsOf('sessions', journeyId)).toBe(0);
      const summary = 'evening slump \ud83c\udfcb\ufe0f';
      await record(h, journeyId, summary);
      expect((await history(h, { journey_id: journeyId })).sessions.map((s) => s.summary)).toEqual([summary]);
    });
  });

  describe('delete_journey', () => {
    it('removes the journey with its sessions, documents and index entries; other journeys stay', async () => {
      const user = randomUUID();
      const doomed = await newJourney(h, user);
      const kept = await newJourney(h);
      for (let i = 0; i < 3; i++) await record(h, doomed, `zebra training session ${i}`);
      await record(h, kept, 'zebra sighting at the zoo');
      for (const journey of [doomed, kept]) {
        await h.ok('add_document_to_journey', {
          journey_id: journey,
          document_type: 'note',
          content: 'zebra notes',
        });
      }
      expect(await h.ok('delete_journey', { journey_id: doomed })).toEqual({
        journey_id: doomed,
        deleted: true,
        sessions_deleted: 3,
        documents_deleted: 1,
      });
      expect(await rowsOf('sessions', doomed)).toBe(0);
      expect(await rowsOf('documents', doomed)).toBe(0);
      // On PostgreSQL the index entries are the rows' own tsvectors: gone with them.
      if (dialect === 'sqlite') {
        const shardTable = sessionFtsTable(sessionShardOf(doomed));
        const key = `jkey : "${journeyKey(doomed)}"`;
        expect(
          countRows(h.dbFile, `SELECT count(*) FROM ${shardTable} WHERE ${shardTable} MATCH ?`, key),
        ).toBe(0);
        expect(
          countRows(h.dbFile, `SELECT count(*) FROM documents_fts WHERE documents_fts MATCH ?`, key),
        ).toBe(0);
      }

      expect(await h.fails('query_journey_history', { journey_id: doomed })).toMatchObject({ status: 404 });
      const survivor = await history(h, { journey_id: kept, query: 'zebra', include_documents: true });
      expect(survivor.total_results).toBe(1);
      expect(survivor.documents).toHaveLength(1);
      // The user starts over with a new, empty journey.
      const fresh = await h.ok<JourneyOut>('get_or_create_journey', { user_id: user });
      expect(fresh).toMatchObject({ is_new: true, session_count: 0 });
      expect(fresh.journey_id).not.toBe(doomed);
    });

    it('404 for a journey that does not exist (or was already deleted)', async () => {
      const journeyId = await newJourney(h);
      await h.ok('delete_journey', { journey_id: journeyId });
      expect(await h.fails('delete_journey', { journey_id: journeyId })).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: `Journey ${journeyId} not found`,
      });
    });

    it('a plain SQL delete cascades too (the database keeps sessions, documents and the index in sync)', async () => {
      const journeyId = await newJourney(h);
      await record(h, journeyId, 'quokka habits');
      await h.ok('add_document_to_journey', {
        journey_id: journeyId,
        document_type: 'note',
        title: 'quokka',
      });
      if (dialect === 'postgres') {
        await h.rows('DELETE FROM journeys WHERE id = ?', journeyId);
        expect(await rowsOf('sessions', journeyId)).toBe(0);
        expect(await rowsOf('documents', journeyId)).toBe(0);
        return;
      }
      const db = new Database(h.dbFile);
      try {
        db.pragma('foreign_keys = ON');
        db.prepare('DELETE FROM journeys WHERE id = ?').run(journeyId);
        const table = sessionFtsTable(sessionShardOf(journeyId));
        const match = (t: string) =>
          db.prepare(`SELECT count(*) FROM ${t} WHERE ${t} MATCH ?`).pluck().get('quokka') as number;
        expect(match(table)).toBe(0);
        expect(match('documents_fts')).toBe(0);
        expect(db.prepare('SELECT count(*) FROM sessions WHERE journey_id = ?').pluck().get(journeyId)).toBe(
          0,
        );
      } finally {
        db.close();
      }
    });
  });
});
