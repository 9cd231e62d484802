// Opening transit.sqlite is on the start path (readiness = file open, migrations applied), so this file
// imports no drizzle query builder: server-kit's `openDatabase` is raw better-sqlite3 plus the migration reader.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import type { SavedPlaceValue } from '@switchyard/contracts/transit';
import { openDatabase } from '@switchyard/server-kit/runtime';

/** The committed drizzle-kit migrations, beside `dist/` in the published package. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));
/** ... and those for PostgreSQL (TRANSIT_DATABASE_URL or SWITCHYARD_DATABASE_URL). */
export const POSTGRES_MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle-postgres', import.meta.url));
/** The variable naming transit's own PostgreSQL database (over SWITCHYARD_DATABASE_URL). */
export const DATABASE_URL_VARIABLE = 'TRANSIT_DATABASE_URL';

/** Whether a caller has any saved place of these kinds. */
export type SavedPlaceProbe = (
  principal: string,
  types: readonly SavedPlaceValue['type'][],
) => Promise<boolean>;

/**
 * A probe over the open database in plain SQL (no drizzle): lets a tool that only might need saved places
 * (planJourney's from/to) skip loading the store when the caller has none of the kinds it could use.
 */
export function createSavedPlaceProbe(database: Database.Database): SavedPlaceProbe {
  const anyOfType = database.prepare<[string, string], unknown>(
    'SELECT 1 FROM saved_places WHERE principal = ? AND type IN (SELECT value FROM json_each(?)) LIMIT 1',
  );
  return async (principal, types) => anyOfType.get(principal, JSON.stringify(types)) !== undefined;
}

/** Opens (creating it if missing) `transit.sqlite` in the data dir, with every migration applied. */
export function openSavedPlaceDatabase(dataDir: string): Database.Database {
  return openDatabase({ file: path.join(dataDir, 'transit.sqlite'), migrationsFolder: MIGRATIONS_FOLDER });
}
