// Saved places on PostgreSQL: the pool (checked and migrated as the operator says) and the probe. Loaded only
// when TRANSIT_DATABASE_URL or SWITCHYARD_DATABASE_URL is set.
import { openPostgres } from '@switchyard/server-kit/postgres';
import { replaceUnreachable, type Logger, type PostgresSettings } from '@switchyard/server-kit/runtime';
import type pg from 'pg';
import { POSTGRES_MIGRATIONS_FOLDER, type SavedPlaceProbe } from './database.js';
import { savedPlacesUnreachable } from './store.js';

export function openSavedPlacePool(settings: PostgresSettings, logger: Logger): Promise<pg.Pool> {
  return openPostgres(settings, {
    domain: 'transit',
    migrationsFolder: POSTGRES_MIGRATIONS_FOLDER,
    logger,
  });
}

export function createPostgresSavedPlaceProbe(pool: pg.Pool): SavedPlaceProbe {
  return async (principal, types) => {
    const found = await pool
      .query('SELECT 1 FROM saved_places WHERE principal = $1 AND type = ANY($2) LIMIT 1', [principal, types])
      .catch((error: unknown) => {
        throw replaceUnreachable(error, savedPlacesUnreachable);
      });
    return (found.rowCount ?? 0) > 0;
  };
}
