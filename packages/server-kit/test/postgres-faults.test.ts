import { fileURLToPath } from 'node:url';
import { startFaultyTestPostgres, untilTrue, type FaultyTestPostgres } from '@switchyard/test-postgres';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, postgresReachability } from '../src/postgres/index.js';
import { createLogger, isDatabaseUnreachable, resolvePostgresSettings } from '../src/runtime/index.js';

const MIGRATIONS = fileURLToPath(new URL('./fixtures/pg-migrations', import.meta.url));

describe('a domain’s pool when the connection to PostgreSQL fails', () => {
  let db: FaultyTestPostgres;
  const logLines: string[] = [];
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    db = await startFaultyTestPostgres();
  });
  afterEach(async () => {
    db.proxy.resume();
    for (const pool of pools.splice(0)) await pool.end();
  });
  afterAll(async () => db?.stop());

  /** A pool through the proxy (bounds: `serverEnv`). */
  const open = async (extra: Record<string, string> = {}) => {
    const env = { ...(await db.serverEnv('SWITCHYARD_DATABASE_URL')), ...extra };
    const settings = resolvePostgresSettings(env, 'NOTES_DATABASE_URL')!;
    const logger = createLogger({ level: 'warn', write: (line) => logLines.push(line) });
    const pool = await openPostgres(settings, { domain: 'notes', migrationsFolder: MIGRATIONS, logger });
    pools.push(pool);
    return { pool, reachable: postgresReachability(pool, settings.connectTimeoutMs) };
  };

  it('a connection lost while checked out (in a transaction) fails its query, is logged and replaced; nothing is thrown', async () => {
    const { pool } = await open();
    const client = await pool.connect();
    await client.query('BEGIN');
    await client.query("INSERT INTO notes (text) VALUES ('in flight')");
    db.proxy.dropAll();
    const failed = await client.query('COMMIT').catch((error: unknown) => error);
    expect(isDatabaseUnreachable(failed)).toBe(true);
    client.release();
    expect((await pool.query('SELECT count(*)::int AS n FROM notes')).rows).toEqual([{ n: 0 }]);
    expect(logLines.some((line) => line.includes('a PostgreSQL connection failed'))).toBe(true);
  });

  it('a connection cut mid-query or after COMMIT was sent fails as unreachable; the pool serves on', async () => {
    const { pool } = await open();
    const midQuery = db.proxy.dropOnNextAnswer();
    expect(isDatabaseUnreachable(await pool.query('SELECT 1').catch((error: unknown) => error))).toBe(true);
    await midQuery;
    const client = await pool.connect();
    await client.query('BEGIN');
    await client.query("INSERT INTO notes (text) VALUES ('committed unseen')");
    const midCommit = db.proxy.dropAfterCommit();
    expect(isDatabaseUnreachable(await client.query('COMMIT').catch((error: unknown) => error))).toBe(true);
    await midCommit;
    client.release();
    // The COMMIT reached PostgreSQL before the cut: the row is there though the caller heard a failure.
    expect((await pool.query('SELECT text FROM notes')).rows).toEqual([{ text: 'committed unseen' }]);
  });

  it('a transaction whose BEGIN is cut gives its connection back (drizzle never releases it then)', async () => {
    const { pool } = await open({ SWITCHYARD_DATABASE_POOL_MAX: '1' });
    const cut = db.proxy.dropOnNextAnswer();
    const failed = await drizzle(pool)
      .transaction(async (tx) => tx.execute(sql`SELECT 1`))
      .catch((error: unknown) => error);
    await cut;
    expect(isDatabaseUnreachable(failed)).toBe(true);
    // The pool's one connection is free again: without that, this would wait for a slot and time out.
    expect((await pool.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
  });

  it('a stalled answer ends its connection after the query timeout, in or out of a transaction', async () => {
    const { pool } = await open();
    const client = await pool.connect();
    await client.query('BEGIN');
    db.proxy.stall();
    const stalled = await client.query('SELECT 1').catch((error: unknown) => error);
    expect(stalled).toMatchObject({
      code: 'ETIMEDOUT',
      message: expect.stringMatching(/did not answer within 2500 ms/),
    });
    expect(isDatabaseUnreachable(stalled)).toBe(true);
    client.release();
    const pooled = await pool.query('SELECT 1').catch((error: unknown) => error);
    expect(isDatabaseUnreachable(pooled)).toBe(true);
    db.proxy.resume();
    expect((await pool.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
  });

  it('readiness is false while PostgreSQL is stalled or down, and true again once it is back', async () => {
    const { reachable } = await open();
    expect(await reachable()).toBe(true);
    db.proxy.stall();
    expect(await reachable()).toBe(false);
    db.proxy.resume();
    await untilTrue(reachable);
    await db.halt();
    try {
      expect(await reachable()).toBe(false);
    } finally {
      await db.start();
    }
    await untilTrue(reachable);
  });
});

describe('the query timeout setting', () => {
  const url = { SWITCHYARD_DATABASE_URL: 'postgres://db/x' };
  it('is the statement timeout plus 5 s by default, and must be longer than it', () => {
    expect(resolvePostgresSettings(url, 'NOTES_DATABASE_URL')?.queryTimeoutMs).toBe(10_000);
    expect(
      resolvePostgresSettings(
        { ...url, SWITCHYARD_DATABASE_STATEMENT_TIMEOUT_MS: '30000' },
        'NOTES_DATABASE_URL',
      )?.queryTimeoutMs,
    ).toBe(35_000);
    expect(() =>
      resolvePostgresSettings({ ...url, SWITCHYARD_DATABASE_QUERY_TIMEOUT_MS: '5000' }, 'NOTES_DATABASE_URL'),
    ).toThrow(
      'SWITCHYARD_DATABASE_QUERY_TIMEOUT_MS: must be longer than SWITCHYARD_DATABASE_STATEMENT_TIMEOUT_MS (5000), got "5000"',
    );
  });
});
