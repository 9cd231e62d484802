import { SAVED_PLACE_TYPES } from '@switchyard/contracts/transit';
import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Saved places ("user variables") of each caller, keyed by principal and the caller's own key. */
export const savedPlaces = sqliteTable(
  'saved_places',
  {
    principal: text('principal').notNull(),
    key: text('key').notNull(),
    type: text('type', { enum: SAVED_PLACE_TYPES }).notNull(),
    /** The SavedPlaceValue as JSON. */
    value: text('value').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.principal, table.key] })],
);

export type SavedPlaceRow = typeof savedPlaces.$inferSelect;
