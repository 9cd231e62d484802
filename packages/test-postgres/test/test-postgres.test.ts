import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../src/index.js';

describe('the test PostgreSQL server', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startTestPostgres();
  });
  afterAll(async () => server?.stop());

  it('hands out separate, writable databases', async () => {
    const [one, two] = [await server.createDatabase(), await server.createDatabase()];
    expect(one).not.toBe(two);
    const client = new pg.Client({ connectionString: one });
    await client.connect();
    try {
      await client.query('CREATE TABLE probe (n int)');
      await client.query('INSERT INTO probe VALUES (1)');
      expect((await client.query('SELECT n FROM probe')).rows).toEqual([{ n: 1 }]);
      expect((await client.query('SHOW server_version_num')).rows[0].server_version_num >= '150000').toBe(
        true,
      );
    } finally {
      await client.end();
    }
    const other = new pg.Client({ connectionString: two });
    await other.connect();
    try {
      const tables = await other.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'probe'");
      expect(tables.rows[0].n).toBe(0);
    } finally {
      await other.end();
    }
  });

  it('makes login roles that connect with the password it returns', async () => {
    const url = new URL(await server.createDatabase());
    url.username = `role_${randomBytes(4).toString('hex')}`;
    url.password = await server.createRole(url.username);
    const client = new pg.Client({ connectionString: url.href });
    await client.connect();
    try {
      expect((await client.query('SELECT current_user AS name')).rows).toEqual([{ name: url.username }]);
    } finally {
      await client.end();
    }
  });
});
