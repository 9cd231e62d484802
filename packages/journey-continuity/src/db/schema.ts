import { sql } from 'drizzle-orm';
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// Timestamps are milliseconds since the epoch (UTC): exact range filters and ordering, whatever offset a
// caller wrote. IDs are lowercase UUID strings.

/**
 * The token that ties a full-text row to its journey: `j<32 hex digits>0`. It ends in a digit so that the
 * porter stemmer leaves it alone. Must equal `journeyKey()` in fts.ts.
 */
const JOURNEY_KEY = (column: string) => sql.raw(`'j' || replace(lower(${column}), '-', '') || '0'`);

/**
 * Which of the session full-text shards holds a journey's sessions: the last two hex digits of the
 * journey id, modulo the shard count (64). Must equal `sessionShardOf()` in fts.ts.
 */
const SESSION_SHARD = sql.raw(
  `((instr('0123456789abcdef', substr(lower(journey_id), 35, 1)) - 1) * 16 + ` +
    `instr('0123456789abcdef', substr(lower(journey_id), 36, 1)) - 1) % 64`,
);

export const journeys = sqliteTable(
  'journeys',
  {
    id: text('id').primaryKey(),
    /**
     * The principal that created the journey (server-kit's callerPrincipal, a UUID subject in lower case:
     * tools/acting-for.ts); only it sees the journey and what belongs to it. Rows from before owners were
     * recorded ('') are the local principal's (claimed on open).
     */
    owner: text('owner').notNull().default(''),
    /**
     * At most one journey per owner and non-null user: the unique index decides between concurrent creators.
     */
    userId: text('user_id'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /** JSON object. */
    metadata: text('metadata').notNull().default('{}'),
  },
  (table) => [
    uniqueIndex('journeys_owner_user_id_unique').on(table.owner, table.userId),
    check(
      'journeys_id_is_lowercase_uuid',
      sql`length(${table.id}) = 36 AND ${table.id} = lower(${table.id}) AND substr(${table.id}, 35, 2) GLOB '[0-9a-f][0-9a-f]'`,
    ),
  ],
);

export const sessions = sqliteTable(
  'sessions',
  {
    /** The rowid: the full-text index refers to sessions by it. */
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    journeyId: text('journey_id')
      .notNull()
      .references(() => journeys.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
    summary: text('summary').notNull(),
    /** JSON array, when recorded. */
    messages: text('messages'),
    /** JSON object, when recorded; `has_diagnosis` is its presence. */
    diagnosis: text('diagnosis'),
    confidenceScore: real('confidence_score'),
    jkey: text('jkey').generatedAlwaysAs(JOURNEY_KEY('journey_id'), { mode: 'virtual' }),
    ftsShard: integer('fts_shard').generatedAlwaysAs(SESSION_SHARD, { mode: 'virtual' }),
  },
  (table) => [
    index('sessions_journey_created_idx').on(table.journeyId, table.createdAt, table.seq),
    check(
      'sessions_confidence_score_range',
      sql`${table.confidenceScore} IS NULL OR (${table.confidenceScore} >= 0 AND ${table.confidenceScore} <= 100)`,
    ),
  ],
);

export const documents = sqliteTable(
  'documents',
  {
    /** The rowid: the full-text index refers to documents by it. */
    seq: integer('seq').primaryKey(),
    id: text('id').notNull().unique(),
    journeyId: text('journey_id')
      .notNull()
      .references(() => journeys.id, { onDelete: 'cascade' }),
    documentType: text('document_type').notNull(),
    title: text('title'),
    content: text('content'),
    /** JSON object. */
    metadata: text('metadata').notNull().default('{}'),
    createdAt: integer('created_at').notNull(),
    jkey: text('jkey').generatedAlwaysAs(JOURNEY_KEY('journey_id'), { mode: 'virtual' }),
  },
  (table) => [
    index('documents_journey_created_idx').on(table.journeyId, table.createdAt, table.seq),
    check(
      'documents_document_type',
      sql`${table.documentType} IN ('woop_plan', 'file_upload', 'artifact', 'note')`,
    ),
  ],
);
