// Each session stays readable whole as the resource journey://sessions/{session_id} (issue #34, section 1),
// now that query_journey_history quotes only the start of a long summary: for its owner (and a journey:admin
// backend of the same issuer) only, as the tools are.
import { randomUUID } from 'node:crypto';
import { NEXT_PART_META } from '@switchyard/server-kit/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SUMMARY_BYTES } from '../src/index.js';
import { JOURNEY_ADMIN_SCOPE } from '../src/tools/acting-for.js';
import {
  DIALECTS,
  history,
  logLines,
  newJourney,
  oauthCaller,
  record,
  startHarness,
  storageFor,
  tempDataDir,
  type Harness,
  USER_SCOPES,
} from './helpers.js';

const WORST_SUMMARY = `a${'\u0001'.repeat(MAX_SUMMARY_BYTES - 2)}b`;

async function readSession(h: Harness, sessionId: string): Promise<Record<string, unknown>> {
  const { contents } = await h.client.readResource({ uri: `journey://sessions/${sessionId}` });
  expect(contents).toHaveLength(1);
  expect(contents[0]).toMatchObject({ uri: `journey://sessions/${sessionId}`, mimeType: 'application/json' });
  return JSON.parse((contents[0] as { text: string }).text) as Record<string, unknown>;
}

describe.each(DIALECTS)('journey://sessions/{session_id} (%s)', (dialect) => {
  const dataDir = tempDataDir();
  const userSubject = randomUUID();
  let storage: Awaited<ReturnType<typeof storageFor>>;
  let owner: Harness;
  let stranger: Harness;
  let user: Harness;
  let backend: Harness;
  beforeAll(async () => {
    storage = await storageFor(dialect);
    [owner, stranger, user, backend] = await Promise.all([
      startHarness({ dataDir, storage }),
      startHarness({ dataDir, storage, authInfo: oauthCaller('stranger', USER_SCOPES) }),
      startHarness({ dataDir, storage, authInfo: oauthCaller(userSubject, USER_SCOPES) }),
      startHarness({
        dataDir,
        storage,
        authInfo: oauthCaller('backend', [...USER_SCOPES, JOURNEY_ADMIN_SCOPE]),
        logLevel: 'info',
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([owner, stranger, user, backend].map((h) => h.stop()));
  });

  it('is listed as a resource template', async () => {
    const { resourceTemplates } = await owner.client.listResourceTemplates();
    expect(resourceTemplates).toContainEqual(
      expect.objectContaining({
        uriTemplate: 'journey://sessions/{session_id}',
        mimeType: 'application/json',
      }),
    );
  });

  it('reads a session whole, the summary the history answer cut included', async () => {
    const journeyId = await newJourney(owner);
    const messages = [
      { role: 'user', content: 'I slept "badly"\u0001' },
      { role: 'assistant', content: 'Why?' },
    ];
    const diagnosis = { sleep: { hours: 5, quality: 'poor' } };
    const sessionId = await record(owner, journeyId, WORST_SUMMARY, {
      messages,
      diagnosis,
      confidence_score: 72.5,
      created_at: '2025-05-01T08:30:00Z',
    });
    const [listed] = (await history(owner, { journey_id: journeyId })).sessions;
    expect(listed).toMatchObject({ session_id: sessionId, summary_truncated: true });
    expect(await readSession(owner, sessionId)).toEqual({
      session_id: sessionId,
      journey_id: journeyId,
      created_at: '2025-05-01T08:30:00.000Z',
      summary: WORST_SUMMARY,
      messages,
      diagnosis,
      confidence_score: 72.5,
    });
    const plain = await record(owner, journeyId, 'Short one.');
    expect(await readSession(owner, plain.toUpperCase())).toEqual({
      session_id: plain,
      journey_id: journeyId,
      created_at: expect.any(String),
      summary: 'Short one.',
    });
  });

  it('answers another principal’s session as NOT_FOUND, like a session that never existed', async () => {
    const sessionId = await record(owner, await newJourney(owner), 'Private.');
    await expect(readSession(stranger, sessionId)).rejects.toThrow(
      `NOT_FOUND: Session ${sessionId} not found`,
    );
    const missing = randomUUID();
    await expect(readSession(owner, missing)).rejects.toThrow(`NOT_FOUND: Session ${missing} not found`);
  });

  it('refuses a session_id that is not a UUID', async () => {
    for (const id of ['not-a-uuid', '..%2F..', `${randomUUID()}x`]) {
      await expect(readSession(owner, id)).rejects.toThrow(
        'VALIDATION_ERROR: session_id must be a valid UUID',
      );
    }
  });

  it('lets a journey:admin backend read its issuer’s user’s session, audited, and no one else’s', async () => {
    const journey = await backend.ok<{ journey_id: string }>('get_or_create_journey', {
      user_id: userSubject,
    });
    const sessionId = await record(backend, journey.journey_id, 'Recorded by the backend for the user.');
    expect(await readSession(user, sessionId)).toMatchObject({
      summary: 'Recorded by the backend for the user.',
    });
    const byUser = await record(user, journey.journey_id, 'Recorded by the user.');
    expect(await readSession(backend, byUser)).toMatchObject({ summary: 'Recorded by the user.' });
    expect(
      logLines.some((line) => line.includes('acting for another principal') && line.includes(byUser)),
    ).toBe(true);
    // The local principal is not of the backend's issuer.
    const local = await record(owner, await newJourney(owner), 'Local.');
    await expect(readSession(backend, local)).rejects.toThrow('NOT_FOUND');
  });
});

describe.each(DIALECTS)('a session larger than one answer (%s)', (dialect) => {
  it('comes in parts, each within the answer limit and naming the next, that join up to its JSON', async () => {
    const limit = 64 * 1024;
    const h = await startHarness({ storage: await storageFor(dialect), maxAnswerBytes: limit });
    try {
      const journeyId = await newJourney(h);
      const messages = Array.from({ length: 40 }, (_, i) => ({
        role: 'user',
        text: `${i} ${'"é😀\u0001'.repeat(500)}`,
      }));
      const sessionId = await record(h, journeyId, WORST_SUMMARY, { messages, diagnosis: { note: 'x' } });
      let uri: string | undefined = `journey://sessions/${sessionId}`;
      let json = '';
      let parts = 0;
      while (uri !== undefined) {
        const { contents } = await h.client.readResource({ uri });
        expect(Buffer.byteLength(JSON.stringify(contents))).toBeLessThanOrEqual(limit);
        const content = contents[0] as { text: string; _meta?: Record<string, string> };
        json += content.text;
        uri = content._meta?.[NEXT_PART_META];
        parts++;
      }
      expect(parts).toBeGreaterThan(3);
      expect(JSON.parse(json)).toMatchObject({ session_id: sessionId, summary: WORST_SUMMARY, messages });
      const inside = await h.client
        .readResource({
          uri: `journey://sessions/${sessionId}?offset=${Buffer.byteLength(json.slice(0, json.indexOf('é'))) + 1}`,
        })
        .catch((error: unknown) => error);
      expect(String(inside)).toMatch(/VALIDATION_ERROR: offset \d+ is inside a character of the session/);
    } finally {
      await h.stop();
    }
  });
});
