// Runs on PostgreSQL: the pool, checked and migrated as the operator says. Loaded only when
// LAUNCH_DATABASE_URL or SWITCHYARD_DATABASE_URL is set.
import { openPostgres } from '@switchyard/server-kit/postgres';
import type { Logger, PostgresSettings } from '@switchyard/server-kit/runtime';
import type pg from 'pg';
import { POSTGRES_MIGRATIONS_FOLDER } from './open.js';

export { POSTGRES_MIGRATIONS_FOLDER };

export function openLaunchPool(settings: PostgresSettings, logger: Logger): Promise<pg.Pool> {
  return openPostgres(settings, {
    domain: 'launch-runs',
    migrationsFolder: POSTGRES_MIGRATIONS_FOLDER,
    logger,
  });
}
