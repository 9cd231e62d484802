import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claimUnownedRows, openDatabase } from '@switchyard/server-kit/runtime';
import type Database from 'better-sqlite3';

/** The committed drizzle-kit migrations, next to src/ and dist/ alike. */
export const MIGRATIONS_FOLDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'drizzle',
);

/** The PostgreSQL migrations (drizzle.postgres.config.ts), used when LAUNCH_DATABASE_URL is set. */
export const POSTGRES_MIGRATIONS_FOLDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'drizzle-postgres',
);

/** Runs move to PostgreSQL with this (or SWITCHYARD_DATABASE_URL). */
export const DATABASE_URL_VARIABLE = 'LAUNCH_DATABASE_URL';

export interface LaunchDatabase {
  sqlite: Database.Database;
  file: string;
}

/**
 * `<dataDir>/launch-runs.sqlite`, migrated; several processes may open it at once. Raw better-sqlite3 (no
 * drizzle query builder: that loads with the run store, on the first call that needs it; see db/drizzle.ts).
 */
export function openLaunchDatabase(dataDir: string): LaunchDatabase {
  const file = path.join(dataDir, 'launch-runs.sqlite');
  const sqlite = openDatabase({ file, migrationsFolder: MIGRATIONS_FOLDER });
  claimUnownedRows(sqlite, 'runs');
  return { sqlite, file };
}
