// PostgreSQL's connection failing under the journey tools (issue #34): cut mid-query, mid-transaction and
// mid-COMMIT by a real TCP proxy, stalled, and PostgreSQL restarted while calls are in flight. Each call
// answers or says the database is unreachable; nothing ends the process (an uncaught error would fail this
// file); the pool recovers by itself and ready() follows the database.
import { randomUUID } from 'node:crypto';
import { resolvePostgresSettings } from '@switchyard/server-kit/runtime';
import { startFaultyTestPostgres, untilTrue, type FaultyTestPostgres } from '@switchyard/test-postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL_VARIABLE } from '../src/index.js';
import { newJourney, record, startHarness, type Harness, type JourneyOut } from './helpers.js';

const UNREACHABLE = /^Failed to [a-z ]+: database is unreachable$/;

let db: FaultyTestPostgres;
beforeAll(async () => {
  db = await startFaultyTestPostgres();
});
afterAll(async () => db?.stop());

let h: Harness | undefined;
afterEach(async () => {
  db.proxy.resume();
  await h?.stop();
  h = undefined;
});

/** Journeys on a new database through the proxy (bounds: `serverEnv`). */
async function start(): Promise<Harness> {
  const env = await db.serverEnv(DATABASE_URL_VARIABLE);
  h = await startHarness({ storage: { database: resolvePostgresSettings(env, DATABASE_URL_VARIABLE)! } });
  return h;
}

/** Each answer of `answers`: a success, or the 500 saying the database is unreachable. */
function expectServedOrUnreachable(answers: { isError: boolean; structured?: unknown }[]): number {
  let unreachable = 0;
  for (const answer of answers) {
    if (!answer.isError) continue;
    expect(answer.structured).toEqual({
      error: { status: 500, code: 'DATABASE_ERROR', message: expect.stringMatching(UNREACHABLE) },
    });
    unreachable += 1;
  }
  return unreachable;
}

describe('journeys when the connection to PostgreSQL fails', () => {
  it('a cut mid-query, mid-transaction or mid-COMMIT answers "database is unreachable"; the next call is served', async () => {
    const h = await start();
    const journeyId = await newJourney(h, randomUUID());
    await record(h, journeyId, 'before the faults');
    const cases = [
      {
        cut: () => db.proxy.dropOnNextAnswer(),
        tool: 'query_journey_history',
        args: { journey_id: journeyId, query: 'faults' },
        message: 'Failed to query history: database is unreachable',
      },
      {
        cut: () => db.proxy.dropAfterQuery('for update'),
        tool: 'record_session',
        args: { journey_id: journeyId, summary: 'cut while the journey is locked' },
        message: 'Failed to record session: database is unreachable',
      },
      {
        cut: () => db.proxy.dropAfterCommit(),
        tool: 'add_document_to_journey',
        args: { journey_id: journeyId, document_type: 'note', content: 'cut as it ends' },
        message: 'Failed to add document: database is unreachable',
      },
    ];
    for (const { cut, tool, args, message } of cases) {
      const cutDone = cut();
      expect(await h.fails(tool, args)).toEqual({ status: 500, code: 'DATABASE_ERROR', message });
      await cutDone;
      await record(h, journeyId, `served after ${tool}`);
    }
    // The cut mid-transaction rolled back; the COMMIT that was cut had reached PostgreSQL and holds.
    const rows = await h.rows<{ summary: string }>('SELECT summary FROM sessions ORDER BY created_at');
    expect(rows.map((row) => row.summary)).not.toContain('cut while the journey is locked');
    const documents = await h.rows<{ n: number }>('SELECT count(*)::int AS n FROM documents');
    expect(documents).toEqual([{ n: 1 }]);
  });

  it('40 searches and sessions in flight when every connection is cut: each is served or unreachable', async () => {
    const h = await start();
    const journeyId = await newJourney(h, randomUUID());
    await record(h, journeyId, 'a searchable summary');
    const locked = db.proxy.dropAfterQuery('for update');
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? h.call('record_session', { journey_id: journeyId, summary: `session ${i}` })
        : h.call('query_journey_history', { journey_id: journeyId, query: 'searchable' }),
    );
    await locked;
    db.proxy.dropAll();
    expect(expectServedOrUnreachable(await Promise.all(calls))).toBeGreaterThan(0);
    await record(h, journeyId, 'after the cut');
    expect(await h.state.ready()).toBe(true);
  });

  it('a stalled connection answers unreachable after the query timeout; not ready meanwhile, ready after', async () => {
    const h = await start();
    const journeyId = await newJourney(h, randomUUID());
    db.proxy.stall();
    expect(await h.fails('record_session', { journey_id: journeyId, summary: 'stalled' })).toEqual({
      status: 500,
      code: 'DATABASE_ERROR',
      message: 'Failed to record session: database is unreachable',
    });
    expect(await h.state.ready()).toBe(false);
    db.proxy.resume();
    await untilTrue(() => h.state.ready());
    await record(h, journeyId, 'after the stall');
  });

  it('PostgreSQL restarted under load: calls in flight and while it is down are unreachable; then served', async () => {
    const h = await start();
    const user = randomUUID();
    const journeyId = await newJourney(h, user);
    // The calls reach the proxy and wait there while PostgreSQL stops: each is in flight at the restart.
    db.proxy.stall();
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? h.call('record_session', { journey_id: journeyId, summary: `in flight ${i}` })
        : h.call('query_journey_history', { journey_id: journeyId, query: 'flight' }),
    );
    await db.halt();
    db.proxy.resume();
    try {
      expect(expectServedOrUnreachable(await Promise.all(inFlight))).toBeGreaterThan(0);
      expect(await h.state.ready()).toBe(false);
      expect(await h.fails('get_or_create_journey', { user_id: user })).toEqual({
        status: 500,
        code: 'DATABASE_ERROR',
        message: 'Failed to access journey: database is unreachable',
      });
    } finally {
      await db.start();
    }
    await untilTrue(() => h.state.ready());
    await record(h, journeyId, 'after the restart');
    expect(
      (await h.ok<JourneyOut>('get_or_create_journey', { user_id: user })).session_count,
    ).toBeGreaterThan(0);
  });
});
