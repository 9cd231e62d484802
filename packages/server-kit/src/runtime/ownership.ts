import type Database from 'better-sqlite3';
import { localPrincipal } from '../principal.js';

/**
 * Rows written before a table recorded owners (`owner = ''`) were the one local user's: they become the local
 * principal's (the OS user running the server, as stdio callers are), so nothing saved is lost and no other
 * principal sees them. Reads first, so a start with nothing to claim (every start after the first) takes no
 * write lock.
 */
export function claimUnownedRows(sqlite: Database.Database, table: string): void {
  // `table` is a name from the domain's own code, never caller input: SQL cannot bind identifiers.
  if (sqlite.prepare(`SELECT 1 FROM ${table} WHERE owner = '' LIMIT 1`).get() === undefined) return;
  sqlite.prepare(`UPDATE ${table} SET owner = ? WHERE owner = ''`).run(localPrincipal());
}
