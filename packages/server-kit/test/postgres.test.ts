import { fileURLToPath } from 'node:url';
import { redactText } from '@switchyard/resilience/context';
import { startTestPostgres, type TestPostgres } from '@switchyard/test-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPostgresMigrations, openPostgres } from '../src/postgres/index.js';
import { createLogger, resolvePostgresSettings } from '../src/runtime/index.js';

const MIGRATIONS = fileURLToPath(new URL('./fixtures/pg-migrations', import.meta.url));

describe('PostgreSQL settings', () => {
  it('takes the domain’s own URL over SWITCHYARD_DATABASE_URL, and none means SQLite', () => {
    const shared = 'postgres://app:secret@db.example.com:5432/switchyard';
    const own = 'postgresql://app:secret@other.example.com/transit';
    expect(resolvePostgresSettings({}, 'TRANSIT_DATABASE_URL')).toBeUndefined();
    expect(
      resolvePostgresSettings({ SWITCHYARD_DATABASE_URL: shared }, 'TRANSIT_DATABASE_URL'),
    ).toMatchObject({
      url: shared,
      variable: 'SWITCHYARD_DATABASE_URL',
      poolMax: 10,
      statementTimeoutMs: 5000,
      migrateOnStart: false,
    });
    expect(
      resolvePostgresSettings(
        { SWITCHYARD_DATABASE_URL: shared, TRANSIT_DATABASE_URL: own, SWITCHYARD_MIGRATE_ON_START: '1' },
        'TRANSIT_DATABASE_URL',
      ),
    ).toMatchObject({ url: own, variable: 'TRANSIT_DATABASE_URL', migrateOnStart: true });
  });

  it('registers the password as a secret, so that no log line or error shows it', () => {
    const url = 'postgres://app:Zq7%40pw-Kt9xLm@db.example.com/switchyard';
    expect(redactText('driver said: Zq7@pw-Kt9xLm')).toContain('Zq7@pw-Kt9xLm');
    resolvePostgresSettings({ SWITCHYARD_DATABASE_URL: url }, 'NOTES_DATABASE_URL');
    expect(redactText('driver said: Zq7@pw-Kt9xLm')).not.toContain('Kt9xLm');
  });

  it.each([
    [{ SWITCHYARD_DATABASE_URL: 'mysql://db/x' }, /SWITCHYARD_DATABASE_URL: must be a postgres:\/\/ URL/],
    [{ SWITCHYARD_DATABASE_URL: 'not a url' }, /SWITCHYARD_DATABASE_URL: must be a URL/],
    [
      { SWITCHYARD_DATABASE_URL: 'postgres://db/x', SWITCHYARD_DATABASE_POOL_MAX: '0' },
      /SWITCHYARD_DATABASE_POOL_MAX: must be a whole number of at least 1/,
    ],
    [
      { SWITCHYARD_DATABASE_URL: 'postgres://db/x', SWITCHYARD_MIGRATE_ON_START: 'yes' },
      /SWITCHYARD_MIGRATE_ON_START: must be 1 or 0/,
    ],
  ])('refuses %o, naming the variable', (env, message) => {
    expect(() => resolvePostgresSettings(env, 'TRANSIT_DATABASE_URL')).toThrow(message);
  });
});

describe('opening a domain’s PostgreSQL database', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startTestPostgres();
  });
  afterAll(async () => server?.stop());

  const settingsFor = (url: string, env: Record<string, string> = {}) =>
    resolvePostgresSettings({ SWITCHYARD_DATABASE_URL: url, ...env }, 'NOTES_DATABASE_URL')!;
  const options = { domain: 'notes', migrationsFolder: MIGRATIONS, logger: createLogger({ level: 'error' }) };

  it('refuses to start on an unreachable server, naming the variable and never the password', async () => {
    const url = 'postgres://app:hunter2-secret@127.0.0.1:1/switchyard';
    const error = await openPostgres(
      settingsFor(url, { SWITCHYARD_DATABASE_CONNECT_TIMEOUT_MS: '2000' }),
      options,
    ).then(
      () => new Error('opened'),
      (caught: unknown) => caught as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(
      /^SWITCHYARD_DATABASE_URL: cannot reach PostgreSQL at 127\.0\.0\.1:1\/switchyard: /,
    );
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('app:');
  });

  it('refuses a database older than the code, and says how to migrate', async () => {
    const url = await server.createDatabase();
    await expect(openPostgres(settingsFor(url), options)).rejects.toThrow(
      /the notes tables at .* are older than this version \(2 migration\(s\) pending\): run `switchyard migrate`/,
    );
  });

  it('migrates at start when told to, and then opens without migrating again', async () => {
    const url = await server.createDatabase();
    const pool = await openPostgres(settingsFor(url, { SWITCHYARD_MIGRATE_ON_START: '1' }), options);
    await pool.query("INSERT INTO notes (text, owner) VALUES ('kept', 'a')");
    await pool.end();
    const again = await openPostgres(settingsFor(url), options);
    expect((await again.query('SELECT text, owner FROM notes')).rows).toEqual([{ text: 'kept', owner: 'a' }]);
    await again.end();
  });

  it('applies each migration once when several replicas migrate together', async () => {
    const url = await server.createDatabase();
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 2 }));
    const applied = await Promise.all(pools.map((pool) => applyPostgresMigrations(pool, options)));
    expect(applied.sort()).toEqual([0, 0, 0, 2]);
    // The records sit beside the tables, in the first schema of the search_path: no other schema is made.
    const recorded = await pools[0]!.query(
      'SELECT domain, created_at FROM public.switchyard_migrations ORDER BY created_at',
    );
    expect(recorded.rows).toEqual([
      { domain: 'notes', created_at: '1795313741960' },
      { domain: 'notes', created_at: '1795313800000' },
    ]);
    const schemas = await pools[0]!.query("SELECT nspname FROM pg_namespace WHERE nspname = 'switchyard'");
    expect(schemas.rows).toEqual([]);
    await Promise.all(pools.map((pool) => pool.end()));
  });

  it('keeps the records where a database migrated by earlier code has them, in schema switchyard', async () => {
    const url = await server.createDatabase();
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      // What earlier code left after applying the first migration.
      await pool.query(`CREATE SCHEMA switchyard;
        CREATE TABLE switchyard.migrations (
          domain text NOT NULL, hash text NOT NULL, created_at bigint NOT NULL, PRIMARY KEY (domain, created_at));
        INSERT INTO switchyard.migrations VALUES ('notes', 'earlier', 1795313741960);
        CREATE TABLE notes (id serial PRIMARY KEY NOT NULL, text text NOT NULL)`);
      await expect(openPostgres(settingsFor(url), options)).rejects.toThrow(/\(1 migration\(s\) pending\)/);
      expect(await applyPostgresMigrations(pool, options)).toBe(1);
      const recorded = await pool.query('SELECT created_at FROM switchyard.migrations ORDER BY created_at');
      expect(recorded.rows).toEqual([{ created_at: '1795313741960' }, { created_at: '1795313800000' }]);
      expect((await pool.query("SELECT to_regclass('switchyard_migrations') AS t")).rows).toEqual([
        { t: null },
      ]);
      await (await openPostgres(settingsFor(url), options)).end();
    } finally {
      await pool.end();
    }
  });
});
