import {
  DeleteUserVariableOutputSchema,
  GetUserVariablesOutputSchema,
  SaveUserVariableOutputSchema,
  type SavedPlaceValue,
} from '@switchyard/contracts/transit';
import { startTestPostgres, type TestPostgres } from '@switchyard/test-postgres';
import { errorOf } from '@switchyard/server-kit/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSavedPlaceDatabase } from '../src/places/database.js';
import { openSavedPlacePool } from '../src/places/postgres-database.js';
import { createPostgresSavedPlaceStore } from '../src/places/postgres-store.js';
import { createSqliteSavedPlaceStore } from '../src/places/sqlite-store.js';
import type { SavedPlaceStore } from '../src/places/store.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '@switchyard/server-kit/runtime';
import { startHarness, useHarness, type Harness } from './helpers.js';

// Every saved-place rule holds on both databases: the same tests run on transit.sqlite and on a real
// PostgreSQL server (issue #18). The server starts once, for the first test that needs it.
let postgres: Promise<TestPostgres> | undefined;
const postgresDatabase = async (): Promise<string> =>
  (await (postgres ??= startTestPostgres())).createDatabase();
afterAll(async () => {
  await (await postgres)?.stop();
});

const DIALECTS = ['sqlite', 'postgres'] as const;
type Dialect = (typeof DIALECTS)[number];

/** What a harness needs to keep saved places in `dialect`. */
async function placesOn(dialect: Dialect): Promise<{ env?: Record<string, string> }> {
  if (dialect === 'sqlite') return {};
  return { env: { TRANSIT_DATABASE_URL: await postgresDatabase(), SWITCHYARD_MIGRATE_ON_START: '1' } };
}

const HOME = { type: 'location', lat: 60.1699, lon: 24.9384, name: 'Home', address: 'Mannerheimintie 1' };
const STOP = { type: 'stop', stopId: 'HSL:1040129', name: 'Arkadian puisto' };

describe.each(DIALECTS)('saved places through an MCP client (%s)', (dialect) => {
  const h = useHarness(() => placesOn(dialect));

  it('saves, lists (sorted by key), filters by type and gets one key', async () => {
    const saved = SaveUserVariableOutputSchema.parse(
      (await h.call('save_user_variable', { key: 'work', value: STOP })).structured,
    );
    expect(saved.saved).toMatchObject({ key: 'work', value: STOP });
    expect(saved.previous).toBeUndefined();
    expect(saved.warnings).toBeUndefined();
    await h.call('save_user_variable', { key: 'home', value: HOME });
    const all = GetUserVariablesOutputSchema.parse((await h.call('get_user_variables', {})).structured);
    expect(all.variables.map((v) => v.key)).toEqual(['home', 'work']);
    const stops = GetUserVariablesOutputSchema.parse(
      (await h.call('get_user_variables', { type: 'stop' })).structured,
    );
    expect(stops.variables.map((v) => v.key)).toEqual(['work']);
    const one = GetUserVariablesOutputSchema.parse(
      (await h.call('get_user_variables', { key: 'home' })).structured,
    );
    expect(one.variables).toHaveLength(1);
    expect(one.variables[0]!.value).toEqual(HOME);
    const oneOfAnotherType = GetUserVariablesOutputSchema.parse(
      (await h.call('get_user_variables', { key: 'home', type: 'stop' })).structured,
    );
    expect(oneOfAnotherType.variables).toEqual([]);
  });

  it('overwriting returns the previous value and a key-overwritten warning; createdAt is kept', async () => {
    const first = SaveUserVariableOutputSchema.parse(
      (await h.call('save_user_variable', { key: 'gym', value: HOME })).structured,
    );
    const second = SaveUserVariableOutputSchema.parse(
      (await h.call('save_user_variable', { key: 'gym', value: STOP })).structured,
    );
    expect(second.previous).toEqual(HOME);
    expect(second.warnings).toEqual([{ code: 'key-overwritten', message: expect.stringContaining('gym') }]);
    expect(second.saved.value).toEqual(STOP);
    expect(second.saved.createdAt).toBe(first.saved.createdAt);
  });

  it('deletes a key and returns it; an unknown key is not-found', async () => {
    await h.call('save_user_variable', { key: 'temp', value: STOP });
    const deleted = DeleteUserVariableOutputSchema.parse(
      (await h.call('delete_user_variable', { key: 'temp' })).structured,
    );
    expect(deleted.deleted).toMatchObject({ key: 'temp', value: STOP });
    expect(errorOf(await h.call('delete_user_variable', { key: 'temp' }))).toMatchObject({
      code: 'not-found',
    });
    expect(errorOf(await h.call('get_user_variables', { key: 'temp' }))).toMatchObject({
      code: 'not-found',
    });
  });

  it('rejects keys over 50 characters and malformed values, naming the field', async () => {
    const long = errorOf(await h.call('save_user_variable', { key: 'k'.repeat(51), value: STOP }));
    expect(long).toMatchObject({ code: 'validation-error', message: expect.stringContaining('key') });
    const badStop = errorOf(
      await h.call('save_user_variable', { key: 'x', value: { type: 'stop', stopId: '123' } }),
    );
    expect(badStop).toMatchObject({ code: 'validation-error', hint: expect.stringMatching(/find_stops/) });
  });

  it('NFC and NFD spellings of a key are one key (saved in NFC)', async () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    const first = SaveUserVariableOutputSchema.parse(
      (await h.call('save_user_variable', { key: nfd, value: HOME })).structured,
    );
    expect(first.saved.key).toBe(nfc);
    const second = SaveUserVariableOutputSchema.parse(
      (await h.call('save_user_variable', { key: nfc, value: STOP })).structured,
    );
    expect(second.previous).toEqual(HOME);
    expect(second.warnings?.[0]?.code).toBe('key-overwritten');
    const all = GetUserVariablesOutputSchema.parse((await h.call('get_user_variables', {})).structured);
    expect(all.variables.map((v) => v.key).filter((key) => key.startsWith('caf'))).toEqual([nfc]);
    const one = GetUserVariablesOutputSchema.parse(
      (await h.call('get_user_variables', { key: nfd })).structured,
    );
    expect(one.variables[0]?.value).toEqual(STOP);
    const deleted = DeleteUserVariableOutputSchema.parse(
      (await h.call('delete_user_variable', { key: nfd })).structured,
    );
    expect(deleted.deleted.key).toBe(nfc);
  });

  it('a key with an unpaired surrogate is a validation error saying what to fix, and nothing is stored', async () => {
    const list = async () =>
      GetUserVariablesOutputSchema.parse((await h.call('get_user_variables', {})).structured).variables;
    const before = await list();
    for (const tool of ['save_user_variable', 'get_user_variables', 'delete_user_variable']) {
      const args = tool === 'save_user_variable' ? { key: 'home\ud800', value: STOP } : { key: 'home\ud800' };
      expect(errorOf(await h.call(tool, args))).toMatchObject({
        code: 'validation-error',
        message: expect.stringMatching(/key must be well-formed Unicode text.*unpaired UTF-16 surrogate/),
        hint: expect.stringContaining('well-formed'),
      });
    }
    expect(await list()).toEqual(before);
  });

  it('saved places survive a restart (same database, new module)', async () => {
    const first = await startHarness(await placesOn(dialect));
    try {
      await first.call('save_user_variable', { key: 'survivor', value: HOME });
      const restarted = await first.restart();
      try {
        const one = GetUserVariablesOutputSchema.parse(
          (await restarted.call('get_user_variables', { key: 'survivor' })).structured,
        );
        expect(one.variables[0]!.value).toEqual(HOME);
      } finally {
        await restarted.close();
      }
    } finally {
      await first.close();
    }
  });
});

describe('saved places in transit.sqlite from earlier versions', () => {
  it('a key stored in NFD before keys were normalised stays listable, usable and deletable', async () => {
    const own = await startHarness();
    try {
      await legacyKeysStayReachable(own);
    } finally {
      await own.close();
    }
  });

  async function legacyKeysStayReachable(own: Harness): Promise<void> {
    // Written the way an earlier version stored it: the key exactly as the caller sent it.
    await own.call('save_user_variable', { key: 'marker', value: STOP });
    const sqlite = new Database(path.join(own.dataDir, 'transit.sqlite'));
    try {
      const { principal } = sqlite.prepare('SELECT principal FROM saved_places').get() as {
        principal: string;
      };
      const stamp = '2024-01-01T00:00:00Z';
      sqlite
        .prepare('INSERT INTO saved_places VALUES (?, ?, ?, ?, ?, ?)')
        .run(principal, 'Kamppi\u0301', 'stop', JSON.stringify(STOP), stamp, stamp);
      sqlite
        .prepare('INSERT INTO saved_places VALUES (?, ?, ?, ?, ?, ?)')
        .run(principal, 'cafe\u0301', 'location', JSON.stringify(HOME), stamp, stamp);
    } finally {
      sqlite.close();
    }
    const listed = GetUserVariablesOutputSchema.parse((await own.call('get_user_variables', {})).structured);
    const keys = listed.variables.map((v) => v.key);
    expect(keys).toEqual(['Kamppi\u0301', 'cafe\u0301', 'marker']);

    // A label names it in either form; delete takes the key exactly as listed.
    const departures = await own.call('get_departures', { stop: { type: 'label', value: 'Kampp\u00ed' } });
    expect(departures.isError, departures.text).toBe(false);
    const deleted = DeleteUserVariableOutputSchema.parse(
      (await own.call('delete_user_variable', { key: keys[0]! })).structured,
    );
    expect(deleted.deleted).toMatchObject({ key: 'Kamppi\u0301', value: STOP });

    // Saving the key again moves the place to its NFC key, keeping createdAt.
    const moved = SaveUserVariableOutputSchema.parse(
      (await own.call('save_user_variable', { key: 'caf\u00e9', value: STOP })).structured,
    );
    expect(moved).toMatchObject({
      saved: { key: 'caf\u00e9', createdAt: '2024-01-01T00:00:00Z' },
      previous: HOME,
    });
    const after = GetUserVariablesOutputSchema.parse((await own.call('get_user_variables', {})).structured);
    expect(after.variables.map((v) => v.key)).toEqual(['caf\u00e9', 'marker']);
  }
});

/**
 * Two stores on one database, each over its own connection, as two processes or replicas would have: a temp
 * dir's transit.sqlite, or a new PostgreSQL database. Closed after each test.
 */
async function twoStoresOn(
  dialect: Dialect,
  maxPlaces?: number,
  otherMaxPlaces = maxPlaces,
): Promise<[SavedPlaceStore, SavedPlaceStore]> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-store-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const open = (max: number | undefined) => {
      const database = openSavedPlaceDatabase(dir);
      cleanups.push(async () => void database.close());
      return createSqliteSavedPlaceStore(database, max);
    };
    return [open(maxPlaces), open(otherMaxPlaces)];
  }
  const { database } = loadConfig({
    TRANSIT_PROVIDERS: 'tfl',
    TFL_API_KEY: 'store-test-key-1234',
    TRANSIT_DATABASE_URL: await postgresDatabase(),
    SWITCHYARD_MIGRATE_ON_START: '1',
  });
  const logger = createLogger({ level: 'error', write: () => {} });
  const open = async (max: number | undefined) => {
    const pool = await openSavedPlacePool(database!, logger);
    cleanups.push(() => pool.end());
    return createPostgresSavedPlaceStore(pool, max);
  };
  return [await open(maxPlaces), await open(otherMaxPlaces)];
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(DIALECTS)('saved place store (%s)', (dialect) => {
  it('keeps each principal’s places apart', async () => {
    const [store] = await twoStoresOn(dialect);
    await store.save('client:alice', 'home', { type: 'location', lat: 60.1, lon: 24.9 });
    await store.save('client:bob', 'home', { type: 'stop', stopId: 'HSL:1' });
    expect((await store.get('client:alice', 'home'))?.value.type).toBe('location');
    expect((await store.get('client:bob', 'home'))?.value.type).toBe('stop');
    expect(await store.list('client:carol')).toEqual([]);
    expect(await store.delete('client:carol', 'home')).toBeUndefined();
    expect(await store.get('client:alice', 'home')).toBeDefined();
  });

  it('filters by type within the principal’s own places only', async () => {
    const [store] = await twoStoresOn(dialect);
    await store.save('client:alice', 'home', { type: 'location', lat: 60.1, lon: 24.9 });
    await store.save('client:alice', 'work', { type: 'stop', stopId: 'HSL:1' });
    await store.save('client:bob', 'gym', { type: 'location', lat: 60.2, lon: 24.8 });
    await store.save('client:bob', 'tube', { type: 'tfl-stop', naptanId: '940GZZLUOXC' });
    const keys = async (principal: string, type: SavedPlaceValue['type']) =>
      (await store.list(principal, { type })).map((place) => place.key);
    expect(await keys('client:alice', 'location')).toEqual(['home']);
    expect(await keys('client:bob', 'location')).toEqual(['gym']);
    expect(await keys('client:alice', 'stop')).toEqual(['work']);
    expect(await keys('client:alice', 'tfl-stop')).toEqual([]);
    expect(await keys('client:carol', 'location')).toEqual([]);
  });

  it('two stores on one database (two processes) see each other’s writes', async () => {
    const [a, b] = await twoStoresOn(dialect);
    await a.save('p', 'k', { type: 'stop', stopId: 'HSL:1' });
    const result = await b.save('p', 'k', { type: 'stop', stopId: 'HSL:2' });
    expect(result.previous).toEqual({ type: 'stop', stopId: 'HSL:1' });
    expect((await a.get('p', 'k'))?.value).toEqual({ type: 'stop', stopId: 'HSL:2' });
  });

  it('sorts keys by code point, whatever the database’s locale', async () => {
    const [store] = await twoStoresOn(dialect);
    for (const key of ['zoo', 'Zebra', '\u00c4iti', 'apple', 'Apple', '10', '9']) {
      await store.save('p', key, { type: 'stop', stopId: 'HSL:1' });
    }
    expect((await store.list('p')).map((place) => place.key)).toEqual([
      '10',
      '9',
      'Apple',
      'Zebra',
      'apple',
      'zoo',
      '\u00c4iti',
    ]);
  });

  it('concurrent saves of one key from two processes: one creates it, the other replaces it', async () => {
    const [a, b] = await twoStoresOn(dialect);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        (n % 2 === 0 ? a : b).save('p', 'race', { type: 'stop', stopId: `HSL:${n}` }),
      ),
    );
    expect(results.filter((result) => result.previous === undefined)).toHaveLength(1);
    const stored = await a.list('p');
    expect(stored).toHaveLength(1);
    expect(results.map((result) => result.saved.createdAt)).toEqual(results.map(() => stored[0]!.createdAt));
  });

  it('holds at most maxPlaces per principal, even when two processes save new keys at once', async () => {
    const [a, b] = await twoStoresOn(dialect, 3);
    const saves = await Promise.allSettled(
      Array.from({ length: 40 }, (_, n) =>
        (n % 2 === 0 ? a : b).save('p', `key ${n}`, { type: 'stop', stopId: 'HSL:1' }),
      ),
    );
    expect(saves.filter((save) => save.status === 'fulfilled')).toHaveLength(3);
    const refused = saves.find((save) => save.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(
      /You have 3 saved places, the most this server keeps for one caller \(TRANSIT_MAX_SAVED_PLACES\)/,
    );
    const kept = (await a.list('p')).map((place) => place.key);
    expect(kept).toHaveLength(3);
    // Saving over a key it holds is not one more; another principal has its own count.
    await a.save('p', kept[0]!, { type: 'stop', stopId: 'HSL:2' });
    await b.save('q', 'home', { type: 'stop', stopId: 'HSL:1' });
    await a.delete('p', kept[1]!);
    await b.save('p', 'new', { type: 'stop', stopId: 'HSL:3' });
    expect(await a.list('p')).toHaveLength(3);
  });

  it('lists after a key, in key order, one more than a page', async () => {
    // Saved while the operator allowed 10; listed after the limit went down to 2.
    const [store, other] = await twoStoresOn(dialect, 2, 10);
    for (const key of ['b', 'a', 'd', 'c', 'e'])
      await other.save('p', key, { type: 'stop', stopId: 'HSL:1' });
    const keys = async (after?: string) => (await store.list('p', { after })).map((place) => place.key);
    expect(await keys()).toEqual(['a', 'b', 'c']);
    expect(await keys('b')).toEqual(['c', 'd', 'e']);
    expect(await keys('d')).toEqual(['e']);
  });
});

describe.each(DIALECTS)('get_user_variables in pages (%s)', (dialect) => {
  it('a list longer than one answer comes in pages through next_cursor, each place once', async () => {
    const h = await startHarness({
      ...(await placesOn(dialect)),
      maxAnswerBytes: 64 * 1024,
      env: { ...(await placesOn(dialect)).env, TRANSIT_MAX_SAVED_PLACES: '200' },
    });
    try {
      // Names JSON escapes: each quote is two bytes, and four in the text mirror.
      for (let i = 0; i < 120; i++) {
        const saved = await h.call('save_user_variable', {
          key: `place ${String(i).padStart(3, '0')}`,
          value: { type: 'stop', stopId: 'HSL:1040129', name: '"'.repeat(200) },
        });
        expect(saved.isError, saved.text).toBe(false);
      }
      const keys: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      for (;;) {
        const page = GetUserVariablesOutputSchema.parse(
          (await h.call('get_user_variables', cursor === undefined ? {} : { cursor })).structured,
        );
        keys.push(...page.variables.map((place) => place.key));
        pages++;
        if (page.next_cursor === null || page.next_cursor === undefined) break;
        cursor = page.next_cursor;
      }
      expect(pages).toBeGreaterThan(1);
      expect(keys).toEqual(Array.from({ length: 120 }, (_, i) => `place ${String(i).padStart(3, '0')}`));
    } finally {
      await h.close();
    }
  });

  it('saving a new key past TRANSIT_MAX_SAVED_PLACES is a validation-error naming it', async () => {
    const h = await startHarness({
      env: { ...(await placesOn(dialect)).env, TRANSIT_MAX_SAVED_PLACES: '1' },
    });
    try {
      await h.call('save_user_variable', { key: 'home', value: { type: 'stop', stopId: 'HSL:1' } });
      const refused = await h.call('save_user_variable', {
        key: 'work',
        value: { type: 'stop', stopId: 'HSL:2' },
      });
      expect(errorOf(refused)).toMatchObject({
        code: 'validation-error',
        message: expect.stringContaining('(TRANSIT_MAX_SAVED_PLACES)'),
      });
    } finally {
      await h.close();
    }
  });
});
