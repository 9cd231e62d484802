import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { journeyErrorPayload, SwitchyardError } from '@switchyard/contracts/errors';
import { lazyStore } from '@switchyard/server-kit/runtime';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFtsTable, sessionShardOf } from '../src/db/fts.js';
import { describeDatabaseFailure, storeUnavailable } from '../src/journeys/database-errors.js';
import {
  newJourney,
  record,
  startHarness,
  storageFor,
  tempDataDir,
  type Harness,
  type JourneyOut,
} from './helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** Another process's connection holding the write lock until released. */
function holdWriteLock(file: string): () => void {
  const other = new Database(file);
  other.exec('BEGIN IMMEDIATE');
  return () => {
    other.exec('COMMIT');
    other.close();
  };
}

function expectSafeDetail(message: string): void {
  expect(message).not.toMatch(/SELECT|INSERT|UPDATE|DELETE|sqlite|\/|\\|journey-continuity|sessions_fts/i);
}

describe('database failures', () => {
  it('a busy database is a 500 with the seed message per tool; the server keeps serving afterwards', async () => {
    h = await startHarness({ config: { busyTimeoutMs: 20 } });
    const user = randomUUID();
    const journeyId = await newJourney(h, user);
    const release = holdWriteLock(h.dbFile);
    try {
      const cases: [string, Record<string, unknown>, string][] = [
        ['get_or_create_journey', { user_id: randomUUID() }, 'Failed to access journey: database is busy'],
        ['get_or_create_journey', {}, 'Failed to access journey: database is busy'],
        [
          'add_document_to_journey',
          { journey_id: journeyId, document_type: 'note' },
          'Failed to add document: database is busy',
        ],
        [
          'record_session',
          { journey_id: journeyId, summary: 'x' },
          'Failed to record session: database is busy',
        ],
        ['delete_journey', { journey_id: journeyId }, 'Failed to delete journey: database is busy'],
      ];
      for (const [tool, args, message] of cases) {
        expect(await h.fails(tool, args)).toEqual({ status: 500, code: 'DATABASE_ERROR', message });
      }
      // Readers are not blocked by a writer (WAL): an existing user's journey and the history still answer.
      const existing = await h.ok<JourneyOut>('get_or_create_journey', { user_id: user });
      expect(existing.journey_id).toBe(journeyId);
      await h.ok('query_journey_history', { journey_id: journeyId, query: 'anything' });
    } finally {
      release();
    }
    await record(h, journeyId, 'after the lock');
    expect((await h.ok<JourneyOut>('get_or_create_journey', { user_id: user })).session_count).toBe(1);
  });

  it('a damaged index is a 500 "Failed to query history: …" without internals; other journeys still answer', async () => {
    h = await startHarness();
    const journeyId = await newJourney(h);
    await record(h, journeyId, 'text to search');
    const other = new Database(h.dbFile);
    other.exec(`DROP TABLE ${sessionFtsTable(sessionShardOf(journeyId))}`);
    other.close();
    const error = await h.fails('query_journey_history', { journey_id: journeyId, query: 'text' });
    expect(error).toEqual({
      status: 500,
      code: 'DATABASE_ERROR',
      message: 'Failed to query history: unexpected database error',
    });
    expectSafeDetail(error.message);
    await h.ok('query_journey_history', { journey_id: journeyId });
  });

  it('a closed database answers 500 instead of crashing', async () => {
    h = await startHarness();
    const journeyId = await newJourney(h);
    await h.state.close();
    for (const [tool, args, step] of [
      ['get_or_create_journey', {}, 'Failed to access journey'],
      ['query_journey_history', { journey_id: journeyId }, 'Failed to query history'],
    ] as const) {
      expect(await h.fails(tool, args)).toEqual({
        status: 500,
        code: 'DATABASE_ERROR',
        message: `${step}: database is closed`,
      });
    }
    expect(await h.state.ready?.()).toBe(false);
  });

  it('a store that cannot be set up on its first use answers each tool’s 500, not a crash', async () => {
    // Closed before any tool call: the service (loaded with the first call) fails to prepare its statements.
    h = await startHarness();
    await h.state.close();
    const journeyId = randomUUID();
    for (const [tool, args, step] of [
      ['get_or_create_journey', {}, 'Failed to access journey'],
      ['query_journey_history', { journey_id: journeyId }, 'Failed to query history'],
      ['add_document_to_journey', { journey_id: journeyId, document_type: 'note' }, 'Failed to add document'],
      ['record_session', { journey_id: journeyId, summary: 'x' }, 'Failed to record session'],
      ['delete_journey', { journey_id: journeyId }, 'Failed to delete journey'],
    ] as const) {
      expect(await h.fails(tool, args)).toEqual({
        status: 500,
        code: 'DATABASE_ERROR',
        message: `${step}: database is closed`,
      });
    }
  });

  it('store code that fails to import is a retryable 500 without the path; the next call imports again', async () => {
    const file = path.join(tempDataDir(), 'store.js');
    const store = lazyStore({
      load: () => import(pathToFileURL(file).href) as Promise<{ store: string }>,
      unavailable: storeUnavailable,
    });
    const failure = await store.get('addDocument').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SwitchyardError);
    expect(failure).toMatchObject({ retryable: true });
    expect(journeyErrorPayload(failure as SwitchyardError)).toEqual({
      error: {
        status: 500,
        code: 'DATABASE_ERROR',
        message: 'Failed to add document: journey store could not be loaded',
      },
    });
    fs.writeFileSync(file, "export const store = 'loaded';\n");
    expect((await store.get('addDocument')).store).toBe('loaded');
  });

  it('on PostgreSQL, a 1 MiB document of distinct words is "text is too large to index", not unexpected', async () => {
    h = await startHarness({ storage: await storageFor('postgres') });
    const journeyId = await newJourney(h);
    // About 120,000 distinct words: their tsvector passes PostgreSQL's 1 MiB limit (54000 program_limit_exceeded),
    // which drizzle wraps in an error of its own.
    let content = '';
    for (let n = 0; content.length < 1024 * 1024 - 16; n += 1) content += `w${n.toString(36)}x `;
    expect(
      await h.fails('add_document_to_journey', { journey_id: journeyId, document_type: 'note', content }),
    ).toEqual({
      status: 500,
      code: 'DATABASE_ERROR',
      message: 'Failed to add document: text is too large to index',
    });
  });

  it('maps SQLite result codes to short, non-internal details', () => {
    const detail = (code: string) => describeDatabaseFailure(Object.assign(new Error('x'), { code })).detail;
    expect(detail('SQLITE_BUSY')).toBe('database is busy');
    expect(detail('SQLITE_BUSY_SNAPSHOT')).toBe('database is busy');
    expect(detail('SQLITE_LOCKED')).toBe('database is busy');
    expect(detail('SQLITE_FULL')).toBe('disk is full');
    expect(detail('SQLITE_READONLY_DBMOVED')).toBe('database is read-only');
    expect(detail('SQLITE_CORRUPT')).toBe('database file is damaged');
    expect(detail('SQLITE_NOTADB')).toBe('database file is damaged');
    expect(detail('SQLITE_IOERR_WRITE')).toBe('disk I/O error');
    expect(detail('SQLITE_CANTOPEN')).toBe('database cannot be opened');
    expect(detail('SQLITE_ERROR')).toBe('unexpected database error');
  });
});
