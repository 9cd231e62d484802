import type Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema.js';

export type LaunchDb = BetterSQLite3Database<typeof schema>;
/** A database handle or an open transaction: store functions accept either. */
export type LaunchTx = Parameters<Parameters<LaunchDb['transaction']>[0]>[0];
export type DbOrTx = LaunchDb | LaunchTx;

/** drizzle's query builder over an opened launch database (see open.ts). */
export function launchDb(sqlite: Database.Database): LaunchDb {
  return drizzle(sqlite, { schema });
}
