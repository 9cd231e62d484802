// The PostgreSQL store (TRANSIT_DATABASE_URL or SWITCHYARD_DATABASE_URL). A PostgreSQL database never held
// keys from before they were normalised, so unlike SQLite's store it looks keys up by their NFC form only.
import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { canonicalSavedPlaceKey } from '@switchyard/contracts/transit';
import type pg from 'pg';
import { savedPlaces } from '../db/postgres-schema.js';
import {
  DEFAULT_MAX_SAVED_PLACES,
  rowToSave,
  saveResult,
  toSavedPlace,
  tooManyPlaces,
  type SavedPlaceStore,
} from './store.js';

type Db = Pick<NodePgDatabase, 'select'>;

const byKey = (principal: string, key: string) =>
  and(eq(savedPlaces.principal, principal), eq(savedPlaces.key, canonicalSavedPlaceKey(key)));

async function rowAt(db: Db, principal: string, key: string) {
  const [row] = await db.select().from(savedPlaces).where(byKey(principal, key)).limit(1);
  return row;
}

/** Keys sort as SQLite sorts them (by code point), not by the database's locale. */
const KEY_IN_ORDER = sql`${savedPlaces.key} COLLATE "C"`;
const KEY_ORDER = asc(KEY_IN_ORDER);
/** The advisory lock a principal's saves take: its key count is checked and changed by one save at a time. */
const SAVES_OF = (principal: string) =>
  sql`SELECT pg_advisory_xact_lock(hashtext('transit.saved_places'), hashtext(${principal}))`;

/** The store over a pool on a migrated database (`openPostgres`); ending the pool is the opener's job. */
export function createPostgresSavedPlaceStore(
  pool: pg.Pool,
  maxPlaces = DEFAULT_MAX_SAVED_PLACES,
): SavedPlaceStore {
  const db = drizzle(pool);
  return {
    maxPlaces,
    // Read-then-write in one transaction, serialised per principal by an advisory lock: two replicas saving
    // the same key at once cannot both insert (each answers with the value it replaced), nor two new keys
    // both pass the count.
    save: (principal, key, value) =>
      db.transaction(async (tx) => {
        await tx.execute(SAVES_OF(principal));
        const existing = await rowAt(tx, principal, key);
        if (existing === undefined) {
          const [held] = await tx
            .select({ n: count() })
            .from(savedPlaces)
            .where(eq(savedPlaces.principal, principal));
          if ((held?.n ?? 0) >= maxPlaces) throw tooManyPlaces(maxPlaces);
        }
        const row = rowToSave(principal, key, value, existing);
        if (existing === undefined) await tx.insert(savedPlaces).values(row);
        else await tx.update(savedPlaces).set(row).where(byKey(principal, key));
        return saveResult(row, existing);
      }),
    async get(principal, key) {
      const row = await rowAt(db, principal, key);
      return row === undefined ? undefined : toSavedPlace(row);
    },
    async list(principal, filter = {}) {
      const where = and(
        eq(savedPlaces.principal, principal),
        filter.type === undefined ? undefined : eq(savedPlaces.type, filter.type),
        filter.after === undefined ? undefined : gt(KEY_IN_ORDER, filter.after),
      );
      const rows = await db
        .select()
        .from(savedPlaces)
        .where(where)
        .orderBy(KEY_ORDER)
        .limit(maxPlaces + 1);
      return rows.map(toSavedPlace);
    },
    async delete(principal, key) {
      const [row] = await db.delete(savedPlaces).where(byKey(principal, key)).returning();
      return row === undefined ? undefined : toSavedPlace(row);
    },
  };
}
