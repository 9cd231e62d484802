// Opening transit.sqlite is on the start path (readiness = file open, migrations applied), so this file
// imports no drizzle query builder: server-kit's `openDatabase` is raw better-sqlite3 plus the migration reader.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { openDatabase } from '@switchyard/server-kit/runtime';

/** The committed drizzle-kit migrations, beside `dist/` in the published package. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Opens (creating it if missing) `transit.sqlite` in the data dir, with every migration applied. */
export function openSavedPlaceDatabase(dataDir: string): Database.Database {
  return openDatabase({ file: path.join(dataDir, 'transit.sqlite'), migrationsFolder: MIGRATIONS_FOLDER });
}
