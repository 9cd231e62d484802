// The SQLite store. Loaded with the first tool call that touches saved places (see open.ts), so drizzle's
// query builder stays off the start path.
import type Database from 'better-sqlite3';
import { and, asc, eq } from 'drizzle-orm';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { canonicalSavedPlaceKey, type SavedPlaceValue } from '@switchyard/contracts/transit';
import { savedPlaces, type SavedPlaceRow } from '../db/schema.js';
import { rowToSave, saveResult, toSavedPlace, type SavedPlaceStore, type SaveResult } from './store.js';

/** The store over an open, migrated transit.sqlite (`openSavedPlaceDatabase`); closing it is the opener's job. */
export function createSqliteSavedPlaceStore(sqlite: Database.Database): SavedPlaceStore {
  const db: BetterSQLite3Database = drizzle(sqlite);
  const byKey = (principal: string, key: string) =>
    and(eq(savedPlaces.principal, principal), eq(savedPlaces.key, key));

  const rowAt = (principal: string, key: string): SavedPlaceRow | undefined =>
    db.select().from(savedPlaces).where(byKey(principal, key)).get();

  /**
   * The row `key` names: the one under its NFC form, else one saved in another form (NFD...) before keys
   * were normalised, which stays reachable (and deletable) by its NFC form until it is saved again.
   */
  const storedRow = (principal: string, key: string): SavedPlaceRow | undefined => {
    const canonical = canonicalSavedPlaceKey(key);
    const exact = rowAt(principal, canonical);
    if (exact !== undefined) return exact;
    const legacy = db
      .select({ key: savedPlaces.key })
      .from(savedPlaces)
      .where(eq(savedPlaces.principal, principal))
      .all()
      .find((row) => canonicalSavedPlaceKey(row.key) === canonical);
    return legacy === undefined ? undefined : rowAt(principal, legacy.key);
  };

  // Read-then-write under one IMMEDIATE transaction: another process cannot slip a write in between.
  const saveTransaction = sqlite.transaction(
    (principal: string, key: string, value: SavedPlaceValue): SaveResult => {
      const existing = storedRow(principal, key);
      const row = rowToSave(principal, key, value, existing);
      // Saving over a key stored in another form moves the place to the NFC key.
      if (existing === undefined) db.insert(savedPlaces).values(row).run();
      else db.update(savedPlaces).set(row).where(byKey(principal, existing.key)).run();
      return saveResult(row, existing);
    },
  );

  return {
    save: async (principal, key, value) => saveTransaction.immediate(principal, key, value),
    async get(principal, key) {
      const row = storedRow(principal, key);
      return row === undefined ? undefined : toSavedPlace(row);
    },
    async list(principal, type) {
      const where =
        type === undefined
          ? eq(savedPlaces.principal, principal)
          : and(eq(savedPlaces.principal, principal), eq(savedPlaces.type, type));
      return db.select().from(savedPlaces).where(where).orderBy(asc(savedPlaces.key)).all().map(toSavedPlace);
    },
    async delete(principal, key) {
      const stored = storedRow(principal, key);
      if (stored === undefined) return undefined;
      const [row] = db.delete(savedPlaces).where(byKey(principal, stored.key)).returning().all();
      return row === undefined ? undefined : toSavedPlace(row);
    },
  };
}
