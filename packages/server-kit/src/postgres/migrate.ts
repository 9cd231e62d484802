import type { Domain } from '../domain.js';
import { ConfigError } from '../runtime/config-error.js';
import { resolveLogFormat, resolveLogLevel } from '../runtime/logger.js';
import { describeDatabase, resolvePostgresSettings } from '../runtime/postgres-settings.js';
import { applyPostgresMigrations, withMigrationPool } from './open.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What `switchyard migrate` did for one domain. */
export interface DomainMigration {
  domain: string;
  /** host:port/database, without credentials. */
  database: string;
  applied: number;
}

/**
 * Applies the pending PostgreSQL migrations of every domain configured for PostgreSQL (its own variable or
 * SWITCHYARD_DATABASE_URL), one domain after another; domains on SQLite are left alone (they migrate when
 * they open). The first failure stops and is thrown; a SWITCHYARD_LOG_LEVEL or SWITCHYARD_LOG_FORMAT the servers would refuse stops
 * it before any domain, as it stops a server's start.
 */
export async function migrateDomains(
  domains: readonly Pick<Domain, 'name' | 'postgres'>[],
  env: Env,
): Promise<DomainMigration[]> {
  resolveLogLevel(env);
  resolveLogFormat(env);
  const done: DomainMigration[] = [];
  for (const domain of domains) {
    if (domain.postgres === undefined) continue;
    const settings = resolvePostgresSettings(env, domain.postgres.variable);
    if (settings === undefined) continue;
    const database = describeDatabase(settings.url);
    const { migrationsFolder } = domain.postgres;
    try {
      const applied = await withMigrationPool(settings, domain.name, (pool) =>
        applyPostgresMigrations(pool, { domain: domain.name, migrationsFolder }),
      );
      done.push({ domain: domain.name, database, applied });
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      throw new ConfigError(settings.variable, `could not migrate ${domain.name} at ${database}: ${cause}`);
    }
  }
  return done;
}
