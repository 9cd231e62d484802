// The PostgreSQL store (TRANSIT_DATABASE_URL or SWITCHYARD_DATABASE_URL). A PostgreSQL database never held
// keys from before they were normalised, so unlike SQLite's store it looks keys up by their NFC form only.
import { and, asc, eq, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { canonicalSavedPlaceKey } from '@switchyard/contracts/transit';
import type pg from 'pg';
import { savedPlaces } from '../db/postgres-schema.js';
import { rowToSave, saveResult, toSavedPlace, type SavedPlaceStore } from './store.js';

type Db = Pick<NodePgDatabase, 'select'>;

const byKey = (principal: string, key: string) =>
  and(eq(savedPlaces.principal, principal), eq(savedPlaces.key, canonicalSavedPlaceKey(key)));

async function rowAt(db: Db, principal: string, key: string) {
  const [row] = await db.select().from(savedPlaces).where(byKey(principal, key)).limit(1);
  return row;
}

/** Keys sort as SQLite sorts them (by code point), not by the database's locale. */
const KEY_ORDER = asc(sql`${savedPlaces.key} COLLATE "C"`);

/** The store over a pool on a migrated database (`openPostgres`); ending the pool is the opener's job. */
export function createPostgresSavedPlaceStore(pool: pg.Pool): SavedPlaceStore {
  const db = drizzle(pool);
  return {
    // Read-then-write in one transaction, serialised per key by an advisory lock: two replicas saving the
    // same key at once cannot both insert, and each answers with the value it replaced.
    save: (principal, key, value) =>
      db.transaction(async (tx) => {
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(hashtext(${principal}), hashtext(${canonicalSavedPlaceKey(key)}))`,
        );
        const existing = await rowAt(tx, principal, key);
        const row = rowToSave(principal, key, value, existing);
        if (existing === undefined) await tx.insert(savedPlaces).values(row);
        else await tx.update(savedPlaces).set(row).where(byKey(principal, key));
        return saveResult(row, existing);
      }),
    async get(principal, key) {
      const row = await rowAt(db, principal, key);
      return row === undefined ? undefined : toSavedPlace(row);
    },
    async list(principal, type) {
      const where =
        type === undefined
          ? eq(savedPlaces.principal, principal)
          : and(eq(savedPlaces.principal, principal), eq(savedPlaces.type, type));
      return (await db.select().from(savedPlaces).where(where).orderBy(KEY_ORDER)).map(toSavedPlace);
    },
    async delete(principal, key) {
      const [row] = await db.delete(savedPlaces).where(byKey(principal, key)).returning();
      return row === undefined ? undefined : toSavedPlace(row);
    },
  };
}
