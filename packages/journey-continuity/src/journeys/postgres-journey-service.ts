// The journey service on PostgreSQL (JOURNEY_DATABASE_URL or SWITCHYARD_DATABASE_URL), for several servers
// sharing one database. Loaded only then, with the first tool call that needs it.
import { randomUUID } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { DEFAULT_EXCERPT_BYTES, DEFAULT_SNIPPET_SCAN_BYTES } from '../config.js';
import { journeyKey } from '../db/fts.js';
import { documents, journeys, sessions } from '../db/postgres-schema.js';
import { FAILED_STEP, withDatabaseErrorsAsync } from './database-errors.js';
import {
  addedDocument,
  assertFits,
  checkedDocument,
  documentTextBytes,
  journeyBounds,
  checkedSession,
  recordedSession,
  sessionNotFound,
  sessionRow,
  journeyNotFound,
  type Caller,
  type JourneyService,
  type JourneyBounds,
  type JourneyServiceOptions,
  type JourneySize,
  type JourneySummary,
} from './journey-service.js';
import type { HistoryTexts } from './history-result.js';
import { searchPostgresHistory, searchVector } from './postgres-history-search.js';
import { searchText } from './search-text.js';
import { SnippetMaker } from './snippets.js';

type Queryable = Pick<NodePgDatabase, 'select' | 'execute'>;

// Qualified by hand: inside the subquery drizzle's bare "id" would name the session's id.
const SESSION_COUNT = sql<number>`(SELECT count(*)::int FROM sessions s WHERE s.journey_id = journeys.id)`;
const SUMMARY = {
  id: journeys.id,
  userId: journeys.userId,
  createdAt: journeys.createdAt,
  sessionCount: SESSION_COUNT,
};

/**
 * Every write that depends on what is stored runs in one transaction that first locks the journey's row
 * (`FOR UPDATE`): a delete and a session recorded at once by two replicas are serialised as SQLite's
 * IMMEDIATE transactions serialise them. A user's journey is unique by the index on (owner, user_id):
 * concurrent creators insert with ON CONFLICT DO NOTHING and all answer the one row.
 */
export class PostgresJourneyService implements JourneyService {
  private readonly db: NodePgDatabase;
  private readonly now: () => number;
  private readonly texts: HistoryTexts;
  private readonly bounds: JourneyBounds;

  constructor(
    pool: pg.Pool,
    private readonly options: JourneyServiceOptions,
  ) {
    this.db = drizzle(pool);
    this.now = options.now ?? Date.now;
    this.bounds = journeyBounds(options);
    const scanBytes = options.snippetScanBytes ?? DEFAULT_SNIPPET_SCAN_BYTES;
    const excerptBytes = options.excerptBytes ?? DEFAULT_EXCERPT_BYTES;
    this.texts = { maker: new SnippetMaker(scanBytes), scanBytes, excerptBytes };
  }

  close(): void {
    this.texts.maker.close();
  }

  getOrCreateJourney({ owner }: Caller, userId?: string): Promise<JourneySummary> {
    return withDatabaseErrorsAsync(FAILED_STEP.getOrCreateJourney, async () => {
      const user = userId?.toLowerCase();
      const byUser = (userIdOf: string) =>
        this.db
          .select(SUMMARY)
          .from(journeys)
          .where(and(eq(journeys.owner, owner), eq(journeys.userId, userIdOf)));
      if (user !== undefined) {
        const [existing] = await byUser(user);
        if (existing !== undefined) return { ...existing, isNew: false };
      }
      const now = this.now();
      const id = randomUUID();
      const inserted = await this.db
        .insert(journeys)
        .values({ id, owner, userId: user ?? null, createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: [journeys.owner, journeys.userId] })
        .returning({ id: journeys.id });
      if (inserted.length === 1)
        return { id, userId: user ?? null, createdAt: now, sessionCount: 0, isNew: true };
      // Another creator's row won: it is committed (ON CONFLICT waited for it), so this statement sees it.
      const [winner] = user === undefined ? [] : await byUser(user);
      if (winner === undefined) throw new Error('journey vanished after a conflicting insert');
      return { ...winner, isNew: false };
    });
  }

  userIds(...[{ owner }, prefix, limit]: Parameters<JourneyService['userIds']>) {
    return withDatabaseErrorsAsync(FAILED_STEP.getOrCreateJourney, async () => {
      const typed = prefix.toLowerCase();
      const rows = await this.db
        .select({ userId: journeys.userId })
        .from(journeys)
        .where(and(eq(journeys.owner, owner), sql`substr(${journeys.userId}, 1, ${typed.length}) = ${typed}`))
        .orderBy(sql`${journeys.updatedAt} DESC`, journeys.userId)
        .limit(limit);
      return rows.flatMap((row) => (row.userId === null ? [] : [row.userId]));
    });
  }

  async ownerOf(journeyId: string, operation: keyof typeof FAILED_STEP) {
    return withDatabaseErrorsAsync(FAILED_STEP[operation], async () => {
      const [row] = await this.db
        .select({ owner: journeys.owner })
        .from(journeys)
        .where(eq(journeys.id, journeyId.toLowerCase()));
      return row?.owner;
    });
  }

  adoptJourneys(...[from, to, operation]: Parameters<JourneyService['adoptJourneys']>) {
    return withDatabaseErrorsAsync(FAILED_STEP[operation], async () => {
      const [any] = await this.db
        .select({ id: journeys.id })
        .from(journeys)
        .where(eq(journeys.owner, from))
        .limit(1);
      if (any === undefined) return;
      await this.db.transaction(async (tx) => {
        const adopted = await tx
          .select({ id: journeys.id, userId: journeys.userId })
          .from(journeys)
          .where(eq(journeys.owner, from))
          .for('update');
        for (const { id, userId } of adopted) {
          if (userId === null) continue;
          const [twin] = await tx
            .select({ id: journeys.id })
            .from(journeys)
            .where(and(eq(journeys.owner, to), eq(journeys.userId, userId)))
            .for('update');
          if (twin === undefined) continue;
          for (const table of [sessions, documents]) {
            await tx
              .update(table)
              .set({ journeyId: id, search: rekeyedVector(table.search, twin.id, id) })
              .where(eq(table.journeyId, twin.id));
          }
          await tx.delete(journeys).where(eq(journeys.id, twin.id));
          await touch(tx, id, this.now());
        }
        await tx.update(journeys).set({ owner: to }).where(eq(journeys.owner, from));
      });
    });
  }

  readSession(...[sessionId, caller]: Parameters<JourneyService['readSession']>) {
    return withDatabaseErrorsAsync(FAILED_STEP.readSession, async () => {
      const [session] = await this.db
        .select({
          id: sessions.id,
          journeyId: sessions.journeyId,
          createdAt: sessions.createdAt,
          summary: sessions.summary,
          messagesJson: sessions.messages,
          diagnosisJson: sessions.diagnosis,
          confidenceScore: sessions.confidenceScore,
        })
        .from(sessions)
        .innerJoin(journeys, eq(journeys.id, sessions.journeyId))
        .where(and(eq(sessions.id, sessionId.toLowerCase()), eq(journeys.owner, caller.owner)));
      if (session === undefined) throw sessionNotFound(sessionId);
      return session;
    });
  }

  ownerOfSession(...[sessionId]: Parameters<JourneyService['ownerOfSession']>) {
    return withDatabaseErrorsAsync(FAILED_STEP.readSession, async () => {
      const [row] = await this.db
        .select({ owner: journeys.owner })
        .from(sessions)
        .innerJoin(journeys, eq(journeys.id, sessions.journeyId))
        .where(eq(sessions.id, sessionId.toLowerCase()));
      return row?.owner;
    });
  }

  queryHistory(...[query, caller]: Parameters<JourneyService['queryHistory']>) {
    return withDatabaseErrorsAsync(FAILED_STEP.queryHistory, () =>
      this.db.transaction(
        async (tx) => {
          await assertOwned(tx, query.journeyId, caller);
          return searchPostgresHistory(tx, query, this.texts);
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      ),
    );
  }

  recordSession(...[input]: Parameters<JourneyService['recordSession']>) {
    const checked = checkedSession(input, this.options.maxDocumentBytes);
    const search = searchText(input.summary);
    return withDatabaseErrorsAsync(FAILED_STEP.recordSession, () =>
      this.db.transaction(async (tx) => {
        const now = this.now();
        const row = sessionRow(input, checked, now);
        await assertOwned(tx, row.journeyId, input, 'lock');
        const size = await sizeOf(tx, row.journeyId);
        assertFits(row.journeyId, size, { session: true, textBytes: checked.summaryBytes }, this.bounds);
        await tx.insert(sessions).values({
          ...row,
          tokenCount: search.tokens,
          search: searchVector(row.journeyId, search.text),
        });
        await touch(tx, row.journeyId, now);
        return recordedSession(row, await countIn(tx, sessions, row.journeyId));
      }),
    );
  }

  addDocument(...[input]: Parameters<JourneyService['addDocument']>) {
    const { metadataJson } = checkedDocument(input, this.options.maxDocumentBytes);
    const journeyId = input.journeyId.toLowerCase();
    const search = searchText(`${input.title ?? ''}\n${input.content ?? ''}`);
    return withDatabaseErrorsAsync(FAILED_STEP.addDocument, () =>
      this.db.transaction(async (tx) => {
        await assertOwned(tx, journeyId, input, 'lock');
        const size = await sizeOf(tx, journeyId);
        assertFits(journeyId, size, { session: false, textBytes: documentTextBytes(input) }, this.bounds);
        const id = randomUUID();
        const createdAt = this.now();
        await tx.insert(documents).values({
          id,
          journeyId,
          documentType: input.documentType,
          title: input.title ?? null,
          content: input.content ?? null,
          metadata: metadataJson,
          createdAt,
          search: searchVector(journeyId, search.text),
        });
        await touch(tx, journeyId, createdAt);
        return addedDocument(input, { id, journeyId, metadataJson, createdAt });
      }),
    );
  }

  deleteJourney(...[journeyId, caller]: Parameters<JourneyService['deleteJourney']>) {
    const id = journeyId.toLowerCase();
    return withDatabaseErrorsAsync(FAILED_STEP.deleteJourney, () =>
      this.db.transaction(async (tx) => {
        await assertOwned(tx, id, caller, 'lock');
        const sessionsDeleted = await countIn(tx, sessions, id);
        const documentsDeleted = await countIn(tx, documents, id);
        // Sessions and documents go with it (ON DELETE CASCADE), and so do their tsvectors.
        await tx.delete(journeys).where(and(eq(journeys.id, id), eq(journeys.owner, caller.owner)));
        return { id, sessionsDeleted, documentsDeleted };
      }),
    );
  }
}

/**
 * A row's search vector moved from journey `from` to journey `to`: its words stay, its journey key changes
 * (a vector is its words and its journey's key: searchVector in postgres-history-search.ts).
 */
function rekeyedVector(vector: AnyPgColumn, from: string, to: string): SQL {
  return sql`ts_delete(${vector}, ${journeyKey(from)}) || array_to_tsvector(ARRAY[${journeyKey(to)}]::text[])`;
}

/** 404 unless the journey exists and is the caller's; with 'lock', holds its row until the transaction ends. */
async function assertOwned(
  db: Queryable,
  journeyId: string,
  { owner }: Caller,
  lock?: 'lock',
): Promise<void> {
  const query = db
    .select({ id: journeys.id })
    .from(journeys)
    .where(and(eq(journeys.id, journeyId.toLowerCase()), eq(journeys.owner, owner)));
  const [row] = await (lock === undefined ? query : query.for('update'));
  if (row === undefined) throw journeyNotFound(journeyId);
}

/** How many sessions (or documents) the journey has. */
async function countIn(
  db: Queryable,
  table: typeof sessions | typeof documents,
  journeyId: string,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(eq(table.journeyId, journeyId));
  return row?.n ?? 0;
}

/**
 * What the journey holds, as its bounds count it. octet_length of a stored text reads its size from the
 * TOAST pointer, without fetching the text.
 */
async function sizeOf(db: Queryable, journeyId: string): Promise<JourneySize> {
  const [size] = await db
    .select({
      sessions: sql<number>`(SELECT count(*)::int FROM sessions WHERE journey_id = ${journeyId})`,
      textBytes: sql<number>`(
        (SELECT coalesce(sum(octet_length(summary)), 0) FROM sessions WHERE journey_id = ${journeyId}) +
        (SELECT coalesce(sum(coalesce(octet_length(title), 0) + coalesce(octet_length(content), 0)), 0)
           FROM documents WHERE journey_id = ${journeyId}))::float8`,
    })
    .from(journeys)
    .where(eq(journeys.id, journeyId));
  return size ?? { sessions: 0, textBytes: 0 };
}

async function touch(db: Pick<NodePgDatabase, 'update'>, journeyId: string, now: number): Promise<void> {
  await db
    .update(journeys)
    .set({ updatedAt: sql`greatest(${journeys.updatedAt}, ${now})` })
    .where(eq(journeys.id, journeyId));
}
