import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claimUnownedRows, openDatabase } from '@switchyard/server-kit/runtime';
import type Database from 'better-sqlite3';

/** The committed drizzle-kit migrations: `drizzle/` beside `src/` and `dist/` (it ships in the package). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** ... and those for PostgreSQL (JOURNEY_DATABASE_URL or SWITCHYARD_DATABASE_URL). */
export const POSTGRES_MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle-postgres', import.meta.url));
/** The variable naming the journeys' own PostgreSQL database (over SWITCHYARD_DATABASE_URL). */
export const DATABASE_URL_VARIABLE = 'JOURNEY_DATABASE_URL';

export const DATABASE_FILE_NAME = 'journey-continuity.sqlite';

/**
 * The open, migrated database: raw better-sqlite3, so opening it at start does not load drizzle's query
 * builder (the store wraps it with drizzle when the first tool call needs it).
 */
export interface JourneyDatabase {
  sqlite: Database.Database;
  file: string;
}

export interface OpenJourneyDatabaseOptions {
  dataDir: string;
  /** How long a write waits for another process's lock before failing with "database is busy". */
  busyTimeoutMs?: number;
}

/** `<dataDir>/journey-continuity.sqlite`, migrated; several processes may open it at once. */
export function openJourneyDatabase(options: OpenJourneyDatabaseOptions): JourneyDatabase {
  const file = path.join(options.dataDir, DATABASE_FILE_NAME);
  const sqlite = openDatabase({
    file,
    migrationsFolder: MIGRATIONS_FOLDER,
    busyTimeoutMs: options.busyTimeoutMs,
  });
  // Freed pages are overwritten, so deleted journeys do not linger in the file.
  sqlite.pragma('secure_delete = ON');
  claimUnownedRows(sqlite, 'journeys');
  return { sqlite, file };
}
