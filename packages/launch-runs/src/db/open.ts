import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@switchyard/server-kit';
import type Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema.js';

export type LaunchDb = BetterSQLite3Database<typeof schema>;
/** A database handle or an open transaction: store functions accept either. */
export type LaunchTx = Parameters<Parameters<LaunchDb['transaction']>[0]>[0];
export type DbOrTx = LaunchDb | LaunchTx;

/** The committed drizzle-kit migrations, next to src/ and dist/ alike. */
export const MIGRATIONS_FOLDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'drizzle',
);

export interface LaunchDatabase {
  sqlite: Database.Database;
  db: LaunchDb;
  file: string;
}

/** `<dataDir>/launch-runs.sqlite`, migrated; several processes may open it at once. */
export function openLaunchDatabase(dataDir: string): LaunchDatabase {
  const file = path.join(dataDir, 'launch-runs.sqlite');
  const sqlite = openDatabase({ file, migrationsFolder: MIGRATIONS_FOLDER });
  return { sqlite, db: drizzle(sqlite, { schema }), file };
}
