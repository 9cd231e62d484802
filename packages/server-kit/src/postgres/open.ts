import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { ConfigError } from '../runtime/config-error.js';
import type { Logger } from '../runtime/logger.js';
import { describeDatabase, type PostgresSettings } from '../runtime/postgres-settings.js';
import { createPool } from './pool.js';

export interface OpenPostgresOptions {
  /** The domain's name: its migrations are recorded under it (several domains may share one database). */
  domain: string;
  /** The domain's committed drizzle-kit migrations for PostgreSQL. */
  migrationsFolder: string;
  /** Where a failed connection is reported (the pool replaces it; the call that used it fails). */
  logger: Logger;
}

/**
 * The table recording which migrations a database has applied, per domain. It lives beside the domains' tables,
 * in the first schema of the connection's search_path, so migrating needs no right beyond creating those
 * tables (a role confined to a schema of its own may not create another schema).
 */
const RECORDS = 'switchyard_migrations';
/** Where databases migrated by earlier code keep their records (schema `switchyard`): still used there. */
const EARLIER_RECORDS = 'switchyard.migrations';
/** The advisory lock every domain's migrations run under (replicas and `switchyard migrate` alike). */
const MIGRATION_LOCK = "hashtext('switchyard:migrate')";

/** The table holding the database's migration records, undefined when it has none yet. */
async function findRecords(client: pg.ClientBase): Promise<string | undefined> {
  const found = await client.query<{ earlier: boolean; current: boolean }>(
    `SELECT to_regclass('${EARLIER_RECORDS}') IS NOT NULL AS earlier, to_regclass('${RECORDS}') IS NOT NULL AS current`,
  );
  if (found.rows[0]?.earlier === true) return EARLIER_RECORDS;
  return found.rows[0]?.current === true ? RECORDS : undefined;
}

/** The migrations of `domain` newer than the last one `records` holds (all of them without records). */
async function pendingMigrations(
  client: pg.ClientBase,
  records: string | undefined,
  domain: string,
  all: MigrationMeta[],
) {
  if (records === undefined) return all;
  const last = await client.query<{ created_at: string | null }>(
    `SELECT max(created_at) AS created_at FROM ${records} WHERE domain = $1`,
    [domain],
  );
  const lastMillis = Number(last.rows[0]?.created_at ?? -Infinity);
  return all.filter((migration) => migration.folderMillis > lastMillis);
}

/**
 * Applies `domain`'s pending migrations in one transaction, under an advisory lock: replicas starting
 * together (or `switchyard migrate` beside a running server) apply each migration once. Returns how many.
 */
export async function applyPostgresMigrations(
  pool: pg.Pool,
  options: Pick<OpenPostgresOptions, 'domain' | 'migrationsFolder'>,
  all: MigrationMeta[] = readMigrationFiles({ migrationsFolder: options.migrationsFolder }),
): Promise<number> {
  const client = await pool.connect();
  let broken = false;
  try {
    // One lock for every domain: two domains' first migrations would both create the records table. It is a
    // session lock taken before the transaction begins, so that the transaction reads the catalog as the
    // previous holder committed it (a lock taken inside it could leave a stale view: "already exists").
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      return await migrateLocked(client, options.domain, all);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => {
        broken = true; // the session (and its lock) must end with the connection
      });
    }
  } finally {
    client.release(broken);
  }
}

/** `domain`'s pending migrations in one transaction, recorded as they are applied; the caller holds the lock. */
async function migrateLocked(client: pg.ClientBase, domain: string, all: MigrationMeta[]): Promise<number> {
  try {
    await client.query('BEGIN');
    // A migration may rewrite a large table: a statement timeout of the pool's is for requests, not for this.
    await client.query('SET LOCAL statement_timeout = 0');
    let records = await findRecords(client);
    if (records === undefined) {
      records = RECORDS;
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${records} (domain text NOT NULL, hash text NOT NULL, ` +
          'created_at bigint NOT NULL, PRIMARY KEY (domain, created_at))',
      );
    }
    const pending = await pendingMigrations(client, records, domain, all);
    for (const migration of pending) {
      for (const statement of migration.sql) {
        if (statement.trim() !== '') await client.query(statement);
      }
      await client.query(`INSERT INTO ${records} (domain, hash, created_at) VALUES ($1, $2, $3)`, [
        domain,
        migration.hash,
        migration.folderMillis,
      ]);
    }
    await client.query('COMMIT');
    return pending.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Runs `work` on a pool of one connection for migrations: no statement or query timeout (a migration may
 * rewrite a large table, or wait for another replica's), ended afterwards.
 */
export async function withMigrationPool<T>(
  settings: PostgresSettings,
  name: string,
  work: (pool: pg.Pool) => Promise<T>,
): Promise<T> {
  const pool = createPool(settings, {
    name,
    purpose: 'migrations',
    max: 1,
    onConnectionError: () => undefined, // the migration's own query fails with it
  });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

/**
 * A connection pool to the domain's database, checked before the server starts: reachable (else a start-up
 * error naming the variable and the cause, never the password), and its schema as new as this code (else a
 * start-up error saying to run `switchyard migrate`, unless `migrateOnStart` applies the migrations). Every
 * connection of the pool has the requests' bounds, and a lost one is logged and replaced, never thrown.
 */
export async function openPostgres(
  settings: PostgresSettings,
  options: OpenPostgresOptions,
): Promise<pg.Pool> {
  const pool = createPool(settings, {
    name: options.domain,
    purpose: 'requests',
    onConnectionError: (error) =>
      options.logger.warn('a PostgreSQL connection failed; the pool replaces it', { error }),
  });
  const where = describeDatabase(settings.url);
  try {
    const client = await pool.connect().catch((error: unknown) => {
      throw new ConfigError(
        settings.variable,
        `cannot reach PostgreSQL at ${where}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    const all = readMigrationFiles({ migrationsFolder: options.migrationsFolder });
    let pending: MigrationMeta[];
    try {
      pending = await pendingMigrations(client, await findRecords(client), options.domain, all);
    } finally {
      client.release();
    }
    if (pending.length > 0) {
      if (!settings.migrateOnStart) {
        throw new ConfigError(
          settings.variable,
          `the ${options.domain} tables at ${where} are older than this version (${pending.length} migration(s) ` +
            'pending): run `switchyard migrate` with the same settings, or start with SWITCHYARD_MIGRATE_ON_START=1',
        );
      }
      await withMigrationPool(settings, options.domain, (migrations) =>
        applyPostgresMigrations(migrations, options, all),
      );
    }
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
