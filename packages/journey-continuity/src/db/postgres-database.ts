// Journeys on PostgreSQL: the pool, checked and migrated as the operator says. Loaded only when
// JOURNEY_DATABASE_URL or SWITCHYARD_DATABASE_URL is set.
import { openPostgres } from '@switchyard/server-kit/postgres';
import type { Logger, PostgresSettings } from '@switchyard/server-kit/runtime';
import type pg from 'pg';
import { POSTGRES_MIGRATIONS_FOLDER } from './database.js';

export function openJourneyPool(settings: PostgresSettings, logger: Logger): Promise<pg.Pool> {
  return openPostgres(settings, {
    domain: 'journey-continuity',
    migrationsFolder: POSTGRES_MIGRATIONS_FOLDER,
    logger,
  });
}
