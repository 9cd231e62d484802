// The drizzle-backed store. Loaded with the first tool call that touches saved places (see open.ts), so
// drizzle's query builder stays off the start path.
import type Database from 'better-sqlite3';
import { and, asc, eq } from 'drizzle-orm';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  canonicalSavedPlaceKey,
  SavedPlaceValueSchema,
  type SavedPlace,
  type SavedPlaceValue,
} from '@switchyard/contracts/transit';
import { savedPlaces, type SavedPlaceRow } from '../db/schema.js';

export interface SaveResult {
  saved: SavedPlace;
  /** The value the key held before, when the save overwrote it. */
  previous?: SavedPlaceValue;
}

/**
 * Saved places per caller, in SQLite: they survive restarts and are shared by processes on one data dir.
 * Keys are compared in the contract's form (NFC): every method normalises the key it is given.
 */
export interface SavedPlaceStore {
  save(principal: string, key: string, value: SavedPlaceValue): SaveResult;
  get(principal: string, key: string): SavedPlace | undefined;
  list(principal: string, type?: SavedPlaceValue['type']): SavedPlace[];
  /** Removes the key; returns what was removed, or undefined when there was nothing. */
  delete(principal: string, key: string): SavedPlace | undefined;
}

/** How callers reach the store: it loads on first use (a failed load is an `internal` error, retried next time). */
export type LoadSavedPlaceStore = () => Promise<SavedPlaceStore>;

function toSavedPlace(row: SavedPlaceRow): SavedPlace {
  let json: unknown;
  try {
    json = JSON.parse(row.value);
  } catch (cause) {
    throw new SwitchyardError('internal', `The saved place "${row.key}" could not be read`, { cause });
  }
  const value = SavedPlaceValueSchema.safeParse(json);
  if (!value.success) {
    throw new SwitchyardError('internal', `The saved place "${row.key}" has an unreadable value`, {
      details: { cause_class: 'CorruptSavedPlace' },
    });
  }
  return { key: row.key, value: value.data, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

function nowIso(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The store over an open, migrated transit.sqlite (`openSavedPlaceDatabase`); closing it is the opener's job. */
export function createSavedPlaceStore(sqlite: Database.Database): SavedPlaceStore {
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

  const get = (principal: string, key: string): SavedPlace | undefined => {
    const row = storedRow(principal, key);
    return row === undefined ? undefined : toSavedPlace(row);
  };

  // Read-then-write under one IMMEDIATE transaction: another process cannot slip a write in between.
  const saveTransaction = sqlite.transaction(
    (principal: string, key: string, value: SavedPlaceValue): SaveResult => {
      const existing = storedRow(principal, key);
      const now = nowIso();
      const row: SavedPlaceRow = {
        principal,
        key: canonicalSavedPlaceKey(key),
        type: value.type,
        value: JSON.stringify(value),
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      // Saving over a key stored in another form moves the place to the NFC key.
      if (existing === undefined) db.insert(savedPlaces).values(row).run();
      else db.update(savedPlaces).set(row).where(byKey(principal, existing.key)).run();
      const saved = toSavedPlace(row);
      if (existing === undefined) return { saved };
      // An unreadable earlier value is still replaced; it is just not echoed back.
      const previous = SavedPlaceValueSchema.safeParse(safeJson(existing.value));
      return previous.success ? { saved, previous: previous.data } : { saved };
    },
  );

  return {
    save: (principal, key, value) => saveTransaction.immediate(principal, key, value),
    get,
    list(principal, type) {
      const where =
        type === undefined
          ? eq(savedPlaces.principal, principal)
          : and(eq(savedPlaces.principal, principal), eq(savedPlaces.type, type));
      return db.select().from(savedPlaces).where(where).orderBy(asc(savedPlaces.key)).all().map(toSavedPlace);
    },
    delete(principal, key) {
      const stored = storedRow(principal, key);
      if (stored === undefined) return undefined;
      const [row] = db.delete(savedPlaces).where(byKey(principal, stored.key)).returning().all();
      return row === undefined ? undefined : toSavedPlace(row);
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
