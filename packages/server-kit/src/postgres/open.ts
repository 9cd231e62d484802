import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import pg from 'pg';
import { ConfigError } from '../runtime/config-error.js';
import { describeDatabase, type PostgresSettings } from '../runtime/postgres-settings.js';

export interface OpenPostgresOptions {
  /** The domain's name: its migrations are recorded under it (several domains may share one database). */
  domain: string;
  /** The domain's committed drizzle-kit migrations for PostgreSQL. */
  migrationsFolder: string;
  /** Told about errors of idle pooled connections (the pool replaces them). */
  onIdleError?: (error: Error) => void;
}

const BOOKKEEPING = `CREATE SCHEMA IF NOT EXISTS switchyard;
CREATE TABLE IF NOT EXISTS switchyard.migrations (
  domain text NOT NULL,
  hash text NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (domain, created_at)
)`;

/** The migrations of `domain` newer than the last one the database records. */
async function pendingMigrations(client: pg.ClientBase, domain: string, all: MigrationMeta[]) {
  const table = await client.query<{ exists: boolean }>(
    "SELECT to_regclass('switchyard.migrations') IS NOT NULL AS exists",
  );
  if (table.rows[0]?.exists !== true) return all;
  const last = await client.query<{ created_at: string | null }>(
    'SELECT max(created_at) AS created_at FROM switchyard.migrations WHERE domain = $1',
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
  try {
    await client.query('BEGIN');
    // A migration may rewrite a large table: the pool's statement timeout is for requests, not for this.
    await client.query('SET LOCAL statement_timeout = 0');
    // One lock for every domain: two domains' first migrations would both create the bookkeeping schema.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('switchyard:migrate'))");
    await client.query(BOOKKEEPING);
    const pending = await pendingMigrations(client, options.domain, all);
    for (const migration of pending) {
      for (const statement of migration.sql) {
        if (statement.trim() !== '') await client.query(statement);
      }
      await client.query('INSERT INTO switchyard.migrations (domain, hash, created_at) VALUES ($1, $2, $3)', [
        options.domain,
        migration.hash,
        migration.folderMillis,
      ]);
    }
    await client.query('COMMIT');
    return pending.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A connection pool to the domain's database, checked before the server starts: reachable (else a start-up
 * error naming the variable and the cause, never the password), and its schema as new as this code (else a
 * start-up error saying to run `switchyard migrate`, unless `migrateOnStart` applies the migrations).
 */
export async function openPostgres(
  settings: PostgresSettings,
  options: OpenPostgresOptions,
): Promise<pg.Pool> {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolMax,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    application_name: `switchyard-${options.domain}`,
  });
  pool.on('error', (error) => options.onIdleError?.(error));
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
      pending = await pendingMigrations(client, options.domain, all);
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
      await applyPostgresMigrations(pool, options, all);
    }
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
