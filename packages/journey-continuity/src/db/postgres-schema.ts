import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// The journey tables on PostgreSQL: schema.ts's columns, with a tsvector per row in place of FTS5's tables.
// `search` holds the row's words (normalised as search-text.ts says) and its journey key, the way FTS5's
// `jkey` column does: one GIN index then finds a journey's matching rows. `token_count` is what bm25 needs
// as the row's length (FTS5 keeps it in its own tables).

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const journeys = pgTable(
  'journeys',
  {
    id: text('id').primaryKey(),
    /** The principal that created the journey (tools/acting-for.ts): only it sees the journey and its contents. */
    owner: text('owner').notNull(),
    /** At most one journey per owner and non-null user: the unique index decides between concurrent creators. */
    userId: text('user_id'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
    /** JSON object. */
    metadata: text('metadata').notNull().default('{}'),
  },
  (table) => [
    uniqueIndex('journeys_owner_user_id_unique').on(table.owner, table.userId),
    check(
      'journeys_id_is_lowercase_uuid',
      sql`length(${table.id}) = 36 AND ${table.id} = lower(${table.id}) AND substr(${table.id}, 35, 2) ~ '^[0-9a-f]{2}$'`,
    ),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    id: text('id').notNull().unique(),
    journeyId: text('journey_id')
      .notNull()
      .references(() => journeys.id, { onDelete: 'cascade' }),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    summary: text('summary').notNull(),
    /** JSON array, when recorded. */
    messages: text('messages'),
    /** JSON object, when recorded; `has_diagnosis` is its presence. */
    diagnosis: text('diagnosis'),
    confidenceScore: doublePrecision('confidence_score'),
    /** Words of the summary plus one (the journey key), as FTS5 counts a row's length for bm25. */
    tokenCount: integer('token_count').notNull(),
    search: tsvector('search').notNull(),
  },
  (table) => [
    index('sessions_journey_created_idx').on(table.journeyId, table.createdAt, table.seq),
    index('sessions_search_idx').using('gin', table.search),
    check(
      'sessions_confidence_score_range',
      sql`${table.confidenceScore} IS NULL OR (${table.confidenceScore} >= 0 AND ${table.confidenceScore} <= 100)`,
    ),
  ],
);

export const documents = pgTable(
  'documents',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    id: text('id').notNull().unique(),
    journeyId: text('journey_id')
      .notNull()
      .references(() => journeys.id, { onDelete: 'cascade' }),
    documentType: text('document_type').notNull(),
    title: text('title'),
    content: text('content'),
    /** JSON object. */
    metadata: text('metadata').notNull().default('{}'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    search: tsvector('search').notNull(),
  },
  (table) => [
    index('documents_journey_created_idx').on(table.journeyId, table.createdAt, table.seq),
    index('documents_search_idx').using('gin', table.search),
    check(
      'documents_document_type',
      sql`${table.documentType} IN ('woop_plan', 'file_upload', 'artifact', 'note')`,
    ),
  ],
);
