// get_or_create_journey's user_id under OAuth (issue #17): a caller may only name its own subject, unless it
// holds journey:admin (a trusted backend acting for many users), whose journeys then belong to the user it
// named, and every such use is audited. Callers here are what the HTTP layer makes of a verified OAuth token
// (server-kit's http-auth); the real provider flow is in the hardening suite's isolation matrix.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNEY_ADMIN_SCOPE } from '../src/tools/acting-for.js';
import {
  DIALECTS,
  logLines,
  oauthCaller,
  startHarness,
  storageFor,
  tempDataDir,
  type Harness,
  type HistoryOut,
  type JourneyOut,
  USER_SCOPES,
} from './helpers.js';

describe.each(DIALECTS)('user_id under OAuth (%s)', (dialect) => {
  const dataDir = tempDataDir();
  const userSubject = randomUUID();
  const otherUser = randomUUID();
  let user: Harness;
  let backend: Harness;
  let plainBackend: Harness;
  let localCaller: Harness;
  let storage: Awaited<ReturnType<typeof storageFor>>;

  beforeAll(async () => {
    storage = await storageFor(dialect);
    [user, backend, plainBackend, localCaller] = await Promise.all([
      startHarness({ dataDir, storage, authInfo: oauthCaller(userSubject, USER_SCOPES) }),
      startHarness({
        dataDir,
        storage,
        authInfo: oauthCaller('origin-backend', [...USER_SCOPES, JOURNEY_ADMIN_SCOPE]),
        logLevel: 'info',
      }),
      startHarness({ dataDir, storage, authInfo: oauthCaller('plain-backend', USER_SCOPES) }),
      startHarness({ dataDir, storage }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([user, backend, plainBackend, localCaller].map((h) => h.stop()));
  });

  it('lets a caller use its own subject as user_id, in any letter case', async () => {
    const first = await user.ok<JourneyOut>('get_or_create_journey', { user_id: userSubject.toUpperCase() });
    const again = await user.ok<JourneyOut>('get_or_create_journey', { user_id: userSubject });
    expect(first.user_id).toBe(userSubject);
    expect(again).toMatchObject({ journey_id: first.journey_id, is_new: false });
  });

  it('refuses another user_id without the admin scope, naming the rule and the scope', async () => {
    const error = await user.fails('get_or_create_journey', { user_id: otherUser });
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(error.message).toContain('your own user id');
    expect(error.message).toContain(JOURNEY_ADMIN_SCOPE);
    await expect(
      plainBackend.fails('get_or_create_journey', { user_id: userSubject }),
    ).resolves.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('still creates an anonymous journey, a new one each time, without user_id', async () => {
    const one = await user.ok<JourneyOut>('get_or_create_journey', {});
    const two = await user.ok<JourneyOut>('get_or_create_journey', {});
    expect(one.user_id).toBeNull();
    expect(two.journey_id).not.toBe(one.journey_id);
  });

  it('gives the admin backend the user’s own journey, and the user sees what the backend recorded', async () => {
    const own = await user.ok<JourneyOut>('get_or_create_journey', { user_id: userSubject });
    const forUser = await backend.ok<JourneyOut>('get_or_create_journey', { user_id: userSubject });
    expect(forUser).toMatchObject({ journey_id: own.journey_id, is_new: false });
    await backend.ok('record_session', {
      journey_id: forUser.journey_id,
      summary: 'The backend recorded a tram question for the user',
    });
    const seen = await user.ok<HistoryOut>('query_journey_history', {
      journey_id: own.journey_id,
      query: 'tram',
    });
    expect(seen.sessions.map((session) => session.summary)).toEqual([
      'The backend recorded a tram question for the user',
    ]);
  });

  it('creates a journey for a user who has none yet, owned by that user', async () => {
    const newUser = randomUUID();
    const created = await backend.ok<JourneyOut>('get_or_create_journey', { user_id: newUser });
    expect(created.is_new).toBe(true);
    const asUser = await startHarness({ dataDir, storage, authInfo: oauthCaller(newUser, USER_SCOPES) });
    try {
      const mine = await asUser.ok<JourneyOut>('get_or_create_journey', { user_id: newUser });
      expect(mine).toMatchObject({ journey_id: created.journey_id, is_new: false });
    } finally {
      await asUser.stop();
    }
  });

  it('audits every use of the admin scope for another principal, and never logs the token', async () => {
    const before = logLines.length;
    const journey = await backend.ok<JourneyOut>('get_or_create_journey', { user_id: userSubject });
    await backend.ok('query_journey_history', { journey_id: journey.journey_id });
    const audits = logLines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.audit === true);
    expect(audits).toEqual([
      expect.objectContaining({
        msg: 'acting for another principal',
        tool: 'get_or_create_journey',
        principal: 'oauth:origin-backend',
        owner: `oauth:${userSubject}`,
        scope: JOURNEY_ADMIN_SCOPE,
      }),
      expect.objectContaining({
        tool: 'query_journey_history',
        owner: `oauth:${userSubject}`,
        journeyId: journey.journey_id,
      }),
    ]);
    expect(logLines.slice(before).join('\n')).not.toContain('oauth-fingerprint-');
  });

  it('keeps journeys of non-OAuth principals out of the admin backend’s reach', async () => {
    const local = await localCaller.ok<JourneyOut>('get_or_create_journey', { user_id: otherUser });
    const error = await backend.fails('query_journey_history', { journey_id: local.journey_id });
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    await expect(backend.fails('delete_journey', { journey_id: local.journey_id })).resolves.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('keeps a user’s journey out of reach of an OAuth caller without the admin scope', async () => {
    const own = await user.ok<JourneyOut>('get_or_create_journey', { user_id: userSubject });
    for (const [name, args] of [
      ['query_journey_history', {}],
      ['record_session', { summary: 'not mine to write' }],
      ['add_document_to_journey', { document_type: 'note', content: 'not mine' }],
      ['delete_journey', {}],
    ] as const) {
      const error = await plainBackend.fails(name, { ...args, journey_id: own.journey_id });
      expect(error, name).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
  });
});

describe.each(DIALECTS)('user_id under OAuth with several trusted issuers (%s)', (dialect) => {
  const dataDir = tempDataDir();
  const subject = randomUUID();
  let harnesses: Harness[] = [];
  afterAll(async () => Promise.all(harnesses.map((h) => h.stop())));

  it('keeps an admin of one issuer to the users of that issuer', async () => {
    const ours = 'https://login.example.com/';
    const theirs = 'https://other.example.net/';
    const storage = await storageFor(dialect);
    const [userOfTheirs, ourBackend] = (harnesses = await Promise.all([
      startHarness({ dataDir, storage, authInfo: oauthCaller(subject, USER_SCOPES, theirs) }),
      startHarness({
        dataDir,
        storage,
        authInfo: oauthCaller('backend', [...USER_SCOPES, JOURNEY_ADMIN_SCOPE], ours),
      }),
    ])) as [Harness, Harness];
    const theirJourney = await userOfTheirs.ok<JourneyOut>('get_or_create_journey', { user_id: subject });
    const ourUsersJourney = await ourBackend.ok<JourneyOut>('get_or_create_journey', { user_id: subject });
    expect(ourUsersJourney.journey_id).not.toBe(theirJourney.journey_id);
    await expect(
      ourBackend.fails('query_journey_history', { journey_id: theirJourney.journey_id }),
    ).resolves.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe.each(DIALECTS)('a user whose subject is a UUID in capitals (%s)', (dialect) => {
  const dataDir = tempDataDir();
  let storage: Awaited<ReturnType<typeof storageFor>>;
  const harnesses: Harness[] = [];
  beforeAll(async () => {
    storage = await storageFor(dialect);
  });
  afterAll(async () => Promise.all(harnesses.map((h) => h.stop())));

  /** A harness whose caller is the OAuth subject `subject`, with the admin scope when `admin`. */
  async function as(subject: string, admin = false): Promise<Harness> {
    const scopes = admin ? [...USER_SCOPES, JOURNEY_ADMIN_SCOPE] : USER_SCOPES;
    const harness = await startHarness({ dataDir, storage, authInfo: oauthCaller(subject, scopes) });
    harnesses.push(harness);
    return harness;
  }

  const summaries = (history: HistoryOut) => history.sessions.map((session) => session.summary).sort();

  it('sees the journey the admin backend wrote for them, and the backend what they wrote', async () => {
    const subject = randomUUID().toUpperCase();
    const [user, backend] = [await as(subject), await as('origin-backend', true)];
    const forUser = await backend.ok<JourneyOut>('get_or_create_journey', { user_id: subject });
    await backend.ok('record_session', {
      journey_id: forUser.journey_id,
      summary: 'Backend: tram pass renewed',
    });
    const own = await user.ok<JourneyOut>('get_or_create_journey', { user_id: subject });
    expect(own).toMatchObject({
      journey_id: forUser.journey_id,
      user_id: subject.toLowerCase(),
      is_new: false,
    });
    await user.ok('record_session', { journey_id: own.journey_id, summary: 'User: asked about the ferry' });
    const seen = await backend.ok<HistoryOut>('query_journey_history', { journey_id: forUser.journey_id });
    expect(summaries(seen)).toEqual(['Backend: tram pass renewed', 'User: asked about the ferry']);
    // The owner is the one principal both paths name: the subject in lower case.
    const owners = await user.rows<{ owner: string }>(
      'SELECT owner FROM journeys WHERE id = ?',
      own.journey_id,
    );
    expect(owners).toEqual([{ owner: `oauth:${subject.toLowerCase()}` }]);
  });

  it('keeps what it stored under its capitals before, merged with what the backend wrote for it meanwhile', async () => {
    const subject = randomUUID().toUpperCase();
    const user = await as(subject);
    // Stored as the tools stored it before owners were keyed by the lower-case subject.
    const legacy = await user.state.service('getOrCreateJourney');
    const stored = { owner: `oauth:${subject}` };
    const before = await legacy.getOrCreateJourney(stored, subject);
    await legacy.recordSession({ ...stored, journeyId: before.id, summary: 'Before: a tram question' });
    await legacy.addDocument({
      ...stored,
      journeyId: before.id,
      documentType: 'note',
      content: 'Tram every 7 minutes',
    });
    const anonymous = await legacy.getOrCreateJourney(stored);
    await legacy.recordSession({ ...stored, journeyId: anonymous.id, summary: 'Before: an anonymous walk' });
    // The backend, meanwhile, wrote to the journey it found for the user: another one.
    const backend = await as('origin-backend', true);
    const meanwhile = await backend.ok<JourneyOut>('get_or_create_journey', { user_id: subject });
    expect(meanwhile.journey_id).not.toBe(before.id);
    await backend.ok('record_session', {
      journey_id: meanwhile.journey_id,
      summary: 'Meanwhile: a ferry booking',
    });
    await backend.ok('add_document_to_journey', {
      journey_id: meanwhile.journey_id,
      document_type: 'note',
      title: 'Ferry timetable',
      content: 'Every 20 minutes',
    });

    const own = await user.ok<JourneyOut>('get_or_create_journey', { user_id: subject });
    expect(own).toMatchObject({ journey_id: before.id, is_new: false, session_count: 2 });
    const history = await user.ok<HistoryOut>('query_journey_history', {
      journey_id: before.id,
      include_documents: true,
    });
    expect(summaries(history)).toEqual(['Before: a tram question', 'Meanwhile: a ferry booking']);
    expect(history.documents).toHaveLength(2);
    // What moved is found by its words in its new journey.
    const found = await user.ok<HistoryOut>('query_journey_history', {
      journey_id: before.id,
      query: 'ferry',
      include_documents: true,
    });
    expect(summaries(found)).toEqual(['Meanwhile: a ferry booking']);
    expect(found.documents?.map((document) => document.title)).toEqual(['Ferry timetable']);
    const walk = await user.ok<HistoryOut>('query_journey_history', {
      journey_id: anonymous.id,
      query: 'walk',
    });
    expect(summaries(walk)).toEqual(['Before: an anonymous walk']);
    // The backend's journey id is gone into the user's one journey, which the backend now finds.
    await expect(
      backend.fails('query_journey_history', { journey_id: meanwhile.journey_id }),
    ).resolves.toMatchObject({ code: 'NOT_FOUND' });
    const again = await backend.ok<JourneyOut>('get_or_create_journey', { user_id: subject });
    expect(again).toMatchObject({ journey_id: before.id, session_count: 2 });
    expect(await user.rows('SELECT id FROM journeys WHERE owner = ?', stored.owner)).toEqual([]);
  });

  it('keeps the letter case of a subject that is not a UUID: Alice and alice are two callers', async () => {
    const [upper, lower] = [await as('Alice'), await as('alice')];
    const journey = await upper.ok<JourneyOut>('get_or_create_journey', {});
    await expect(
      lower.fails('query_journey_history', { journey_id: journey.journey_id }),
    ).resolves.toMatchObject({ code: 'NOT_FOUND' });
  });
});
