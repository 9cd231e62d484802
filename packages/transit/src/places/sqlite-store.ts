// The SQLite store. Loaded with the first tool call that touches saved places (see open.ts), so drizzle's
// query builder stays off the start path.
import type Database from 'better-sqlite3';
import { and, asc, eq, sql, type Placeholder } from 'drizzle-orm';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { canonicalSavedPlaceKey, type SavedPlaceValue } from '@switchyard/contracts/transit';
import { savedPlaces, type SavedPlaceRow } from '../db/schema.js';
import {
  DEFAULT_MAX_SAVED_PLACES,
  rowToSave,
  saveResult,
  toSavedPlace,
  tooManyPlaces,
  type SavedPlaceStore,
  type SaveResult,
} from './store.js';

/** The store over an open, migrated transit.sqlite (`openSavedPlaceDatabase`); closing it is the opener's job. */
export function createSqliteSavedPlaceStore(
  sqlite: Database.Database,
  maxPlaces = DEFAULT_MAX_SAVED_PLACES,
): SavedPlaceStore {
  const db: BetterSQLite3Database = drizzle(sqlite);
  const byKey = (principal: string | Placeholder, key: string | Placeholder) =>
    and(eq(savedPlaces.principal, principal), eq(savedPlaces.key, key));

  // The reads are prepared once: building and preparing a query on every call cost more than the lookup
  // itself (a plan_trip between two names looks up both).
  const rowAtQuery = db
    .select()
    .from(savedPlaces)
    .where(byKey(sql.placeholder('principal'), sql.placeholder('key')))
    .prepare();
  const keysQuery = db
    .select({ key: savedPlaces.key })
    .from(savedPlaces)
    .where(eq(savedPlaces.principal, sql.placeholder('principal')))
    .prepare();
  // One statement for every filter: a null @type or @after selects everything. SQLite compares text by its
  // bytes, so `key > @after` follows the listing's order (code points).
  const listQuery = db
    .select()
    .from(savedPlaces)
    .where(
      and(
        eq(savedPlaces.principal, sql.placeholder('principal')),
        sql`(${sql.placeholder('type')} IS NULL OR ${savedPlaces.type} = ${sql.placeholder('type')})`,
        sql`(${sql.placeholder('after')} IS NULL OR ${savedPlaces.key} > ${sql.placeholder('after')})`,
      ),
    )
    .orderBy(asc(savedPlaces.key))
    .limit(sql.placeholder('limit'))
    .prepare();
  const countQuery = db
    .select({ count: sql<number>`count(*)` })
    .from(savedPlaces)
    .where(eq(savedPlaces.principal, sql.placeholder('principal')))
    .prepare();
  const rowAt = (principal: string, key: string): SavedPlaceRow | undefined =>
    rowAtQuery.get({ principal, key });

  /**
   * The row `key` names: the one under its NFC form, else one saved in another form (NFD...) before keys
   * were normalised, which stays reachable (and deletable) by its NFC form until it is saved again.
   */
  const storedRow = (principal: string, key: string): SavedPlaceRow | undefined => {
    const canonical = canonicalSavedPlaceKey(key);
    const exact = rowAt(principal, canonical);
    if (exact !== undefined) return exact;
    const legacy = keysQuery.all({ principal }).find((row) => canonicalSavedPlaceKey(row.key) === canonical);
    return legacy === undefined ? undefined : rowAt(principal, legacy.key);
  };

  // Read-then-write under one IMMEDIATE transaction: another process cannot slip a write in between.
  const saveTransaction = sqlite.transaction(
    (principal: string, key: string, value: SavedPlaceValue): SaveResult => {
      const existing = storedRow(principal, key);
      if (existing === undefined && (countQuery.get({ principal })?.count ?? 0) >= maxPlaces) {
        throw tooManyPlaces(maxPlaces);
      }
      const row = rowToSave(principal, key, value, existing);
      // Saving over a key stored in another form moves the place to the NFC key.
      if (existing === undefined) db.insert(savedPlaces).values(row).run();
      else db.update(savedPlaces).set(row).where(byKey(principal, existing.key)).run();
      return saveResult(row, existing);
    },
  );

  return {
    maxPlaces,
    save: async (principal, key, value) => saveTransaction.immediate(principal, key, value),
    async get(principal, key) {
      const row = storedRow(principal, key);
      return row === undefined ? undefined : toSavedPlace(row);
    },
    async list(principal, filter = {}) {
      const rows = listQuery.all({
        principal,
        type: filter.type ?? null,
        after: filter.after ?? null,
        limit: maxPlaces + 1,
      });
      return rows.map(toSavedPlace);
    },
    async delete(principal, key) {
      const stored = storedRow(principal, key);
      if (stored === undefined) return undefined;
      const [row] = db.delete(savedPlaces).where(byKey(principal, stored.key)).returning().all();
      return row === undefined ? undefined : toSavedPlace(row);
    },
  };
}
