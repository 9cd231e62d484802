import { SAVED_PLACE_TYPES } from '@switchyard/contracts/transit';
import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** Saved places on PostgreSQL: the same table as transit.sqlite's (schema.ts), column for column. */
export const savedPlaces = pgTable(
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
