// What every saved-place store is, and the row <-> place mapping both dialects share. No database code here:
// the SQLite store (sqlite-store.ts) and the PostgreSQL one (postgres-store.ts) load only where used.
import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  canonicalSavedPlaceKey,
  SavedPlaceValueSchema,
  type SavedPlace,
  type SavedPlaceValue,
} from '@switchyard/contracts/transit';

export interface SaveResult {
  saved: SavedPlace;
  /** The value the key held before, when the save overwrote it. */
  previous?: SavedPlaceValue;
}

/** Which of a principal's places a listing reads. */
export interface PlaceFilter {
  type?: SavedPlaceValue['type'];
  /** Only keys after this one in key order (code point order): the last key of an earlier page. */
  after?: string;
}

/** The default of TRANSIT_MAX_SAVED_PLACES: far more than a person names, few enough to list at once. */
export const DEFAULT_MAX_SAVED_PLACES = 1000;

/**
 * Saved places per caller: they survive restarts and are shared by every process on one database. Keys are
 * compared in the contract's form (NFC): every method normalises the key it is given. A principal holds at
 * most `maxPlaces` (TRANSIT_MAX_SAVED_PLACES): saving one more new key is refused.
 */
export interface SavedPlaceStore {
  readonly maxPlaces: number;
  save(principal: string, key: string, value: SavedPlaceValue): Promise<SaveResult>;
  get(principal: string, key: string): Promise<SavedPlace | undefined>;
  /** The places `filter` selects in key order, at most `maxPlaces + 1` (one more than a page: are there more). */
  list(principal: string, filter?: PlaceFilter): Promise<SavedPlace[]>;
  /** Removes the key; returns what was removed, or undefined when there was nothing. */
  delete(principal: string, key: string): Promise<SavedPlace | undefined>;
}

/**
 * The saved places' database could not be reached, or the connection to it was lost: the contract's
 * `network-error` (a transport failure, retryable), as every store method and the probe answer it.
 */
export function savedPlacesUnreachable(cause: unknown): SwitchyardError {
  return new SwitchyardError('network-error', 'Saved places are unavailable: the database is unreachable', {
    hint: 'Try again in a moment.',
    cause,
  });
}

/** The refusal of a new key when the principal already holds `maxPlaces`. */
export function tooManyPlaces(maxPlaces: number): SwitchyardError {
  return new SwitchyardError(
    'validation',
    `You have ${maxPlaces} saved places, the most this server keeps for one caller ` +
      '(TRANSIT_MAX_SAVED_PLACES): delete one with delete_user_variable, or save over an existing key',
  );
}

/** How callers reach the store: it loads on first use (a failed load is an `internal` error, retried next time). */
export type LoadSavedPlaceStore = () => Promise<SavedPlaceStore>;

/** A saved place as both dialects store it: the value as JSON, times as ISO strings. */
export interface StoredPlaceRow {
  principal: string;
  key: string;
  type: SavedPlaceValue['type'];
  value: string;
  createdAt: string;
  updatedAt: string;
}

export function toSavedPlace(row: StoredPlaceRow): SavedPlace {
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

/** The row a save writes over `existing` (or a new one): the key in NFC, createdAt kept. */
export function rowToSave(
  principal: string,
  key: string,
  value: SavedPlaceValue,
  existing: StoredPlaceRow | undefined,
): StoredPlaceRow {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    principal,
    key: canonicalSavedPlaceKey(key),
    type: value.type,
    value: JSON.stringify(value),
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
}

/** What a save answers: the new place, and the previous value when it replaced a readable one. */
export function saveResult(row: StoredPlaceRow, existing: StoredPlaceRow | undefined): SaveResult {
  const saved = toSavedPlace(row);
  if (existing === undefined) return { saved };
  // An unreadable earlier value is still replaced; it is just not echoed back.
  const previous = SavedPlaceValueSchema.safeParse(safeJson(existing.value));
  return previous.success ? { saved, previous: previous.data } : { saved };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
