import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe.each(DIALECTS)('get_or_create_journey (%s)', (dialect) => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ storage: await storageFor(dialect) });
  });
  afterEach(async () => {
    await h.stop();
  });

  it('creates a journey for a new user, then returns the same one (is_new false)', async () => {
    const user = randomUUID();
    const first = await h.ok<JourneyOut>('get_or_create_journey', { user_id: user });
    expect(first).toMatchObject({ user_id: user, session_count: 0, is_new: true });
    expect(Date.parse(first.created_at)).not.toBeNaN();
    const again = await h.ok<JourneyOut>('get_or_create_journey', { user_id: user });
    expect(again).toEqual({ ...first, is_new: false });
  });

  it('treats a user id case-insensitively (one journey per user)', async () => {
    const user = randomUUID();
    const lower = await h.ok<JourneyOut>('get_or_create_journey', { user_id: user });
    const upper = await h.ok<JourneyOut>('get_or_create_journey', { user_id: user.toUpperCase() });
    expect(upper.journey_id).toBe(lower.journey_id);
    expect(upper.is_new).toBe(false);
  });

  it('without user_id creates a new anonymous journey every time', async () => {
    const a = await h.ok<JourneyOut>('get_or_create_journey', {});
    const b = await h.ok<JourneyOut>('get_or_create_journey', {});
    expect(a.is_new && b.is_new).toBe(true);
    expect(a.journey_id).not.toBe(b.journey_id);
    expect(a.user_id).toBeNull();
  });

  it('reports the exact session count', async () => {
    const user = randomUUID();
    const journeyId = await newJourney(h, user);
    for (let i = 0; i < 7; i++) await record(h, journeyId, `session ${i}`);
    await record(h, await newJourney(h), 'another journey’s session');
    const journey = await h.ok<JourneyOut>('get_or_create_journey', { user_id: user });
    expect(journey.session_count).toBe(7);
    expect((await history(h, { journey_id: journeyId })).total_results).toBe(7);
  });

  it('keeps different users apart', async () => {
    const a = await newJourney(h, randomUUID());
    const b = await newJourney(h, randomUUID());
    expect(a).not.toBe(b);
  });

  it('the database itself refuses a second journey for a user', async () => {
    const user = randomUUID();
    const insert = () =>
      h.rows(
        "INSERT INTO journeys (id, owner, user_id, created_at, updated_at) VALUES (?, 'someone', ?, 0, 0)",
        randomUUID(),
        user,
      );
    await insert();
    await expect(insert()).rejects.toThrow(/unique/i);
  });

  it('rejects a malformed user_id and unknown fields with 400', async () => {
    const bad = await h.fails('get_or_create_journey', { user_id: 'user-42' });
    expect(bad).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'user_id must be a valid UUID (omit it for an anonymous journey)',
    });
    const unknown = await h.fails('get_or_create_journey', { userId: randomUUID() });
    expect(unknown.status).toBe(400);
    expect(unknown.message).toContain('userId');
  });
});
