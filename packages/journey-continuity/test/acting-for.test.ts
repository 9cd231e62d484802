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
