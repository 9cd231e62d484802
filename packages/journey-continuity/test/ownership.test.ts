// Every journey belongs to the principal that created it: another principal reaches none of it, by id, by
// user_id or by search, and gets the same answer as for a journey that never existed. Two servers share one
// data directory here, as two deployments with different tokens did when this was found (issue #17).
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  startHarness,
  storageFor,
  tempDataDir,
  type Harness,
  type HistoryOut,
  type JourneyOut,
} from './helpers.js';

const principal = (clientId: string) => ({ token: clientId, clientId, scopes: [] });

describe.each(DIALECTS)('journeys belong to their principal (%s)', (dialect) => {
  const dataDir = tempDataDir();
  let alice: Harness;
  let bob: Harness;
  const user = randomUUID();
  let aliceJourney: JourneyOut;

  beforeAll(async () => {
    const storage = await storageFor(dialect);
    alice = await startHarness({ dataDir, storage, authInfo: principal('alice') });
    bob = await startHarness({ dataDir, storage, authInfo: principal('bob') });
    aliceJourney = await alice.ok<JourneyOut>('get_or_create_journey', { user_id: user });
    await alice.ok('record_session', {
      journey_id: aliceJourney.journey_id,
      summary: 'Alice asked about the ferry to Suomenlinna',
    });
    await alice.ok('add_document_to_journey', {
      journey_id: aliceJourney.journey_id,
      document_type: 'note',
      title: 'Ferry times',
      content: 'Suomenlinna ferry every 20 minutes',
    });
  });
  afterAll(async () => {
    await alice.stop();
    await bob.stop();
  });

  /** What any call answers for a journey id that was never created, with the id made comparable. */
  async function answerForMissing(name: string, args: Record<string, unknown>) {
    const missing = randomUUID();
    const error = await bob.fails(name, { ...args, journey_id: missing });
    return { ...error, message: error.message.replace(missing, '<id>') };
  }

  it.each([
    ['query_journey_history', { query: 'ferry' }],
    ['query_journey_history', { include_documents: true }],
    ['record_session', { summary: 'Bob writes into Alice’s journey' }],
    ['add_document_to_journey', { document_type: 'note', content: 'Bob’s note' }],
    ['delete_journey', {}],
  ] as const)('%s on another principal’s journey answers as for a missing one', async (name, args) => {
    const error = await bob.fails(name, { ...args, journey_id: aliceJourney.journey_id });
    expect({ ...error, message: error.message.replace(aliceJourney.journey_id, '<id>') }).toEqual(
      await answerForMissing(name, args),
    );
    expect(error.status).toBe(404);
  });

  it('leaves the journey untouched: its owner still finds every session and document', async () => {
    const history = await alice.ok<HistoryOut>('query_journey_history', {
      journey_id: aliceJourney.journey_id,
      query: 'ferry',
      include_documents: true,
    });
    expect(history.sessions).toHaveLength(1);
    expect(history.documents).toHaveLength(1);
    const again = await alice.ok<JourneyOut>('get_or_create_journey', { user_id: user });
    expect(again).toMatchObject({ journey_id: aliceJourney.journey_id, session_count: 1, is_new: false });
  });

  it('gives the same user_id from another principal a journey of its own', async () => {
    const bobs = await bob.ok<JourneyOut>('get_or_create_journey', { user_id: user });
    expect(bobs.journey_id).not.toBe(aliceJourney.journey_id);
    expect(bobs).toMatchObject({ user_id: user, session_count: 0, is_new: true });
    const found = await bob.ok<HistoryOut>('query_journey_history', {
      journey_id: bobs.journey_id,
      query: 'ferry',
    });
    expect(found.total_results).toBe(0);
  });
});

// SQLite only: PostgreSQL databases never held journeys without an owner.
describe('journeys from before owners were recorded', () => {
  it('become the local user’s on open, and no one else’s', async () => {
    const dataDir = tempDataDir();
    const first = await startHarness({ dataDir });
    await first.stop();
    // A row as the earlier schema wrote it: no owner.
    const journeyId = randomUUID();
    const user = randomUUID();
    const db = new Database(first.dbFile);
    db.prepare(
      "INSERT INTO journeys (id, owner, user_id, created_at, updated_at) VALUES (?, '', ?, 0, 0)",
    ).run(journeyId, user);
    db.close();

    const local = await startHarness({ dataDir });
    const remote = await startHarness({ dataDir, authInfo: principal('someone-else') });
    try {
      expect(await local.ok<JourneyOut>('get_or_create_journey', { user_id: user })).toMatchObject({
        journey_id: journeyId,
        is_new: false,
      });
      expect((await remote.fails('query_journey_history', { journey_id: journeyId })).status).toBe(404);
    } finally {
      await local.stop();
      await remote.stop();
    }
  });
});
