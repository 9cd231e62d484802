import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyTestPostgres, type FaultyTestPostgres } from '../src/index.js';

/** A client through the proxy whose lost connection is recorded, not thrown. */
async function connect(url: string): Promise<{ client: pg.Client; errors: Error[] }> {
  const client = new pg.Client({ connectionString: url });
  const errors: Error[] = [];
  client.on('error', (error) => errors.push(error));
  await client.connect();
  return { client, errors };
}

describe('the fault proxy and the restartable server', () => {
  let db: FaultyTestPostgres;
  let url: string;
  beforeAll(async () => {
    db = await startFaultyTestPostgres();
    url = await db.createDatabase();
  });
  afterAll(async () => db?.stop());

  it('forwards both ways, and drops every connection on command', async () => {
    const { client, errors } = await connect(url);
    expect((await client.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    expect(db.proxy.connections()).toBe(1);
    db.proxy.dropAll();
    await expect(client.query('SELECT 1')).rejects.toThrow();
    expect(errors).not.toEqual([]);
    expect(db.proxy.connections()).toBe(0);
  });

  it('drops a connection at the first byte of the next answer (mid-query)', async () => {
    const { client } = await connect(url);
    const cut = db.proxy.dropOnNextAnswer();
    await expect(client.query('SELECT 1')).rejects.toThrow(/Connection terminated unexpectedly/);
    await cut;
  });

  it('lets a query through and drops its answer (mid-transaction), rolled back', async () => {
    const { client } = await connect(url);
    await client.query('CREATE TABLE IF NOT EXISTS locked (n int)');
    await client.query('BEGIN');
    await client.query('INSERT INTO locked VALUES (1)');
    const cut = db.proxy.dropAfterQuery('FOR UPDATE');
    await expect(client.query('SELECT n FROM locked FOR UPDATE')).rejects.toThrow(/Connection terminated/);
    await cut;
    const { client: check } = await connect(db.direct(url));
    expect((await check.query('SELECT count(*)::int AS n FROM locked')).rows).toEqual([{ n: 0 }]);
    await check.end();
  });

  it('lets a COMMIT through and drops its answer (mid-COMMIT); other text naming commit passes', async () => {
    const { client } = await connect(url);
    await client.query('CREATE TABLE IF NOT EXISTS t (n int, commit_sha text)');
    await client.query('BEGIN');
    await client.query('INSERT INTO t VALUES (1)');
    const cut = db.proxy.dropAfterCommit();
    expect((await client.query("SELECT 'commit' AS word, commit_sha FROM t")).rows).toEqual([
      { word: 'commit', commit_sha: null },
    ]);
    await expect(client.query('COMMIT')).rejects.toThrow(/Connection terminated unexpectedly/);
    await cut;
    // The COMMIT reached PostgreSQL: the row is there, though the client was never told.
    const { client: check } = await connect(db.direct(url));
    expect((await check.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 1 }]);
    await check.end();
  });

  it('stalls: nothing is forwarded until it resumes', async () => {
    const { client } = await connect(url);
    db.proxy.stall();
    let answered = false;
    const query = client.query('SELECT 1 AS n').then((result) => {
      answered = true;
      return result.rows;
    });
    // A round trip on a direct connection takes far less than the stalled query has been waiting.
    const { client: direct } = await connect(db.direct(url));
    await direct.query('SELECT pg_sleep(0.2)');
    await direct.end();
    expect(answered).toBe(false);
    db.proxy.resume();
    expect(await query).toEqual([{ n: 1 }]);
    await client.end();
  });

  it('halts PostgreSQL (connections end, new ones are refused) and starts it again on the same data', async () => {
    const { client } = await connect(url);
    await client.query('CREATE TABLE IF NOT EXISTS kept (n int); INSERT INTO kept VALUES (7)');
    await db.halt();
    await expect(client.query('SELECT 1')).rejects.toThrow();
    await expect(connect(db.direct(url))).rejects.toThrow(/ECONNREFUSED/);
    await db.start();
    const { client: again } = await connect(url);
    expect((await again.query('SELECT n FROM kept')).rows).toEqual([{ n: 7 }]);
    await again.end();
  });
});
