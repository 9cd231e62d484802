import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { and, count, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { JourneyDatabase } from '../db/database.js';
import { DOCUMENTS_FTS_TABLE, sessionFtsTable, sessionShardOf } from '../db/fts.js';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { documents, journeys, sessions } from '../db/schema.js';
import { DEFAULT_FTS_MERGE_AFTER_MS, DEFAULT_FTS_MERGE_PAGES } from '../config.js';
import { FAILED_STEP, withDatabaseErrors } from './database-errors.js';
import { FtsMaintenance } from './fts-maintenance.js';
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
  type AddedDocument,
  type Caller,
  type DeletedJourney,
  type JourneyBounds,
  type JourneyServiceOptions,
  type JourneySize,
  type JourneySummary,
  type NewDocument,
  type NewSession,
  type RecordedSession,
  type StoredSession,
} from './journey-service.js';

/** What the journey lookups read (the session count is added after). */
const JOURNEY_COLUMNS = { id: journeys.id, userId: journeys.userId, createdAt: journeys.createdAt };

/** Bytes of a text column, read from the row's header (octet_length loads no overflow page). */
const bytesOf = (column: SQLiteColumn) => sql<number>`coalesce(sum(octet_length(${column})), 0)`;

/** A session whole (StoredSession). */
const STORED_SESSION_COLUMNS = {
  id: sessions.id,
  journeyId: sessions.journeyId,
  createdAt: sessions.createdAt,
  summary: sessions.summary,
  messagesJson: sessions.messages,
  diagnosisJson: sessions.diagnosis,
  confidenceScore: sessions.confidenceScore,
};

/**
 * Journeys, their sessions and documents in SQLite (sqlite-journey-service.ts serves them). Every write that depends on what is already stored runs in one
 * IMMEDIATE transaction, so concurrent processes sharing the file cannot interleave inside it.
 */
export class SqliteJourneyStore {
  private readonly now: () => number;
  private readonly bounds: JourneyBounds;
  private readonly queries;
  /** Merges the full-text tables it writes once writes pause. */
  readonly fts: FtsMaintenance;
  /**
   * Runs its argument in a transaction (`.deferred` to read, `.immediate` to write). Made once: better-sqlite3
   * builds a transaction function of five wrappers each time, 4 µs of every call.
   */
  private readonly inTransaction: Database.Transaction<(work: () => unknown) => unknown>;

  constructor(
    private readonly database: JourneyDatabase,
    private readonly options: JourneyServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.bounds = journeyBounds(options);
    this.inTransaction = database.sqlite.transaction((work: () => unknown) => work());
    this.fts = new FtsMaintenance(database.sqlite, {
      afterMs: options.ftsMergeAfterMs ?? DEFAULT_FTS_MERGE_AFTER_MS,
      pages: options.ftsMergePages ?? DEFAULT_FTS_MERGE_PAGES,
    });
    // The store only runs the prepared statements below (no relational `db.query`), so no schema is passed.
    const db = drizzle(database.sqlite);
    const p = sql.placeholder;
    this.queries = {
      journeyById: db
        .select(JOURNEY_COLUMNS)
        .from(journeys)
        .where(and(eq(journeys.id, p('id')), eq(journeys.owner, p('owner'))))
        .prepare(),
      ownerOf: db
        .select({ owner: journeys.owner })
        .from(journeys)
        .where(eq(journeys.id, p('id')))
        .prepare(),
      journeyByUser: db
        .select(JOURNEY_COLUMNS)
        .from(journeys)
        .where(and(eq(journeys.owner, p('owner')), eq(journeys.userId, p('userId'))))
        .prepare(),
      insertJourney: db
        .insert(journeys)
        .values({
          id: p('id'),
          owner: p('owner'),
          userId: p('userId'),
          createdAt: p('now'),
          updatedAt: p('now'),
        })
        .onConflictDoNothing({ target: [journeys.owner, journeys.userId] })
        .prepare(),
      touchJourney: db
        .update(journeys)
        .set({ updatedAt: sql`max(${journeys.updatedAt}, ${p('now')})` })
        .where(eq(journeys.id, p('id')))
        .prepare(),
      userIds: db
        .select({ userId: journeys.userId })
        .from(journeys)
        .where(
          and(
            eq(journeys.owner, p('owner')),
            sql`substr(${journeys.userId}, 1, length(${p('prefix')})) = ${p('prefix')}`,
          ),
        )
        .orderBy(sql`${journeys.updatedAt} DESC`, journeys.userId)
        .limit(p('limit'))
        .prepare(),
      anyJourneyOf: db
        .select({ id: journeys.id })
        .from(journeys)
        .where(eq(journeys.owner, p('owner')))
        .limit(1)
        .prepare(),
      journeysOf: db
        .select({ id: journeys.id, userId: journeys.userId })
        .from(journeys)
        .where(eq(journeys.owner, p('owner')))
        .prepare(),
      giveJourneys: db
        .update(journeys)
        .set({ owner: sql`${p('to')}` })
        .where(eq(journeys.owner, p('from')))
        .prepare(),
      moveSessions: db
        .update(sessions)
        .set({ journeyId: sql`${p('to')}` })
        .where(eq(sessions.journeyId, p('from')))
        .prepare(),
      moveDocuments: db
        .update(documents)
        .set({ journeyId: sql`${p('to')}` })
        .where(eq(documents.journeyId, p('from')))
        .prepare(),
      deleteJourney: db
        .delete(journeys)
        .where(and(eq(journeys.id, p('id')), eq(journeys.owner, p('owner'))))
        .prepare(),
      sessionById: db
        .select(STORED_SESSION_COLUMNS)
        .from(sessions)
        .innerJoin(journeys, eq(journeys.id, sessions.journeyId))
        .where(and(eq(sessions.id, p('id')), eq(journeys.owner, p('owner'))))
        .prepare(),
      sessionOwner: db
        .select({ owner: journeys.owner })
        .from(sessions)
        .innerJoin(journeys, eq(journeys.id, sessions.journeyId))
        .where(eq(sessions.id, p('id')))
        .prepare(),
      sessionCount: db
        .select({ n: count() })
        .from(sessions)
        .where(eq(sessions.journeyId, p('id')))
        .prepare(),
      documentCount: db
        .select({ n: count() })
        .from(documents)
        .where(eq(documents.journeyId, p('id')))
        .prepare(),
      sessionsSize: db
        .select({ n: count(), bytes: bytesOf(sessions.summary) })
        .from(sessions)
        .where(eq(sessions.journeyId, p('id')))
        .prepare(),
      documentsBytes: db
        .select({ bytes: sql<number>`${bytesOf(documents.title)} + ${bytesOf(documents.content)}` })
        .from(documents)
        .where(eq(documents.journeyId, p('id')))
        .prepare(),
      insertSession: db
        .insert(sessions)
        .values({
          id: p('id'),
          journeyId: p('journeyId'),
          createdAt: p('createdAt'),
          summary: p('summary'),
          messages: p('messages'),
          diagnosis: p('diagnosis'),
          confidenceScore: p('confidenceScore'),
        })
        .prepare(),
      insertDocument: db
        .insert(documents)
        .values({
          id: p('id'),
          journeyId: p('journeyId'),
          documentType: p('documentType'),
          title: p('title'),
          content: p('content'),
          metadata: p('metadata'),
          createdAt: p('createdAt'),
        })
        .prepare(),
    };
  }

  /**
   * The caller's journey for `userId` (created if there is none), or a new anonymous journey without one.
   * Each owner has its own users: the same user_id from two principals names two journeys.
   */
  getOrCreate({ owner }: Caller, userId?: string): JourneySummary {
    return withDatabaseErrors(FAILED_STEP.getOrCreateJourney, () => {
      const user = userId?.toLowerCase();
      if (user !== undefined) {
        // Most calls find the journey: answer them without taking the write lock.
        const existing = this.read(() =>
          this.withCount(this.queries.journeyByUser.get({ owner, userId: user })),
        );
        if (existing !== undefined) return { ...existing, isNew: false };
      }
      return this.write(() => {
        const id = randomUUID();
        const inserted = this.queries.insertJourney.run({ id, owner, userId: user ?? null, now: this.now() });
        const row =
          user === undefined
            ? this.queries.journeyById.get({ id, owner })
            : this.queries.journeyByUser.get({ owner, userId: user });
        const journey = this.withCount(row);
        if (journey === undefined) throw new Error('journey vanished inside its own transaction');
        return { ...journey, isNew: inserted.changes === 1 };
      });
    });
  }

  /** Whose the journey is, if it exists (for callers that may act for other principals). */
  ownerOf(journeyId: string, step: string): string | undefined {
    return withDatabaseErrors(step, () => this.queries.ownerOf.get({ id: journeyId.toLowerCase() }))?.owner;
  }

  /** The session whole, when its journey is the caller's; else 404. */
  readSession(sessionId: string, { owner }: Caller): StoredSession {
    const session = withDatabaseErrors(FAILED_STEP.readSession, () =>
      this.queries.sessionById.get({ id: sessionId.toLowerCase(), owner }),
    );
    if (session === undefined) throw sessionNotFound(sessionId);
    return session;
  }

  /** Whose journey the session belongs to, if it exists. */
  ownerOfSession(sessionId: string): string | undefined {
    return withDatabaseErrors(FAILED_STEP.readSession, () =>
      this.queries.sessionOwner.get({ id: sessionId.toLowerCase() }),
    )?.owner;
  }

  /** JourneyService.userIds. */
  userIds({ owner }: Caller, prefix: string, limit: number): string[] {
    return withDatabaseErrors(FAILED_STEP.getOrCreateJourney, () =>
      this.queries.userIds.all({ owner, prefix: prefix.toLowerCase(), limit }),
    ).flatMap((row) => (row.userId === null ? [] : [row.userId]));
  }

  /** 404 unless the journey exists and is the caller's. */
  assertOwned(journeyId: string, { owner }: Caller): void {
    if (this.queries.journeyById.get({ id: journeyId.toLowerCase(), owner }) === undefined) {
      throw journeyNotFound(journeyId);
    }
  }

  recordSession(input: NewSession): RecordedSession {
    const checked = checkedSession(input, this.options.maxDocumentBytes);
    return withDatabaseErrors(FAILED_STEP.recordSession, () =>
      this.write(() => {
        const now = this.now();
        const row = sessionRow(input, checked, now);
        this.assertOwned(row.journeyId, input);
        assertFits(
          row.journeyId,
          this.sizeOf(row.journeyId),
          { session: true, textBytes: checked.summaryBytes },
          this.bounds,
        );
        this.queries.insertSession.run(row);
        this.queries.touchJourney.run({ id: row.journeyId, now });
        this.fts.wrote(sessionFtsTable(sessionShardOf(row.journeyId)));
        return recordedSession(row, this.sessionCount(row.journeyId));
      }),
    );
  }

  addDocument(input: NewDocument): AddedDocument {
    const { metadataJson } = checkedDocument(input, this.options.maxDocumentBytes);
    return withDatabaseErrors(FAILED_STEP.addDocument, () =>
      this.write(() => {
        const journeyId = input.journeyId.toLowerCase();
        this.assertOwned(journeyId, input);
        assertFits(
          journeyId,
          this.sizeOf(journeyId),
          { session: false, textBytes: documentTextBytes(input) },
          this.bounds,
        );
        const id = randomUUID();
        const createdAt = this.now();
        this.queries.insertDocument.run({
          id,
          journeyId,
          documentType: input.documentType,
          title: input.title ?? null,
          content: input.content ?? null,
          metadata: metadataJson,
          createdAt,
        });
        this.queries.touchJourney.run({ id: journeyId, now: createdAt });
        this.fts.wrote(DOCUMENTS_FTS_TABLE);
        return addedDocument(input, { id, journeyId, metadataJson, createdAt });
      }),
    );
  }

  /** Deletes the journey; its sessions, documents and their index entries go with it (cascade, triggers). */
  deleteJourney(journeyId: string, caller: Caller): DeletedJourney {
    return withDatabaseErrors(FAILED_STEP.deleteJourney, () =>
      this.write(() => {
        const id = journeyId.toLowerCase();
        this.assertOwned(id, caller);
        const sessionsDeleted = this.sessionCount(id);
        const documentsDeleted = this.queries.documentCount.get({ id })?.n ?? 0;
        this.queries.deleteJourney.run({ id, owner: caller.owner });
        if (sessionsDeleted > 0) this.fts.wrote(sessionFtsTable(sessionShardOf(id)));
        if (documentsDeleted > 0) this.fts.wrote(DOCUMENTS_FTS_TABLE);
        return { id, sessionsDeleted, documentsDeleted };
      }),
    );
  }

  /** JourneyService.adoptJourneys: `from`'s journeys become `to`'s, two journeys of one user_id one. */
  adoptJourneys(from: string, to: string, step: string): void {
    withDatabaseErrors(step, () => {
      if (this.queries.anyJourneyOf.get({ owner: from }) === undefined) return;
      this.write(() => {
        for (const { id, userId } of this.queries.journeysOf.all({ owner: from })) {
          const twin = userId === null ? undefined : this.queries.journeyByUser.get({ owner: to, userId });
          if (twin === undefined) continue;
          // The full-text rows follow their sessions and documents (the tables' UPDATE triggers).
          this.queries.moveSessions.run({ from: twin.id, to: id });
          this.queries.moveDocuments.run({ from: twin.id, to: id });
          this.queries.deleteJourney.run({ id: twin.id, owner: to });
          this.queries.touchJourney.run({ id, now: this.now() });
        }
        this.queries.giveJourneys.run({ from, to });
      });
    });
  }

  /** Runs `work` in one read transaction: every statement sees the same snapshot. */
  read<T>(work: () => T): T {
    return this.inTransaction.deferred(work) as T;
  }

  private write<T>(work: () => T): T {
    return this.inTransaction.immediate(work) as T;
  }

  private sizeOf(journeyId: string): JourneySize {
    const sessionsSize = this.queries.sessionsSize.get({ id: journeyId });
    const documentsBytes = this.queries.documentsBytes.get({ id: journeyId })?.bytes ?? 0;
    return { sessions: sessionsSize?.n ?? 0, textBytes: (sessionsSize?.bytes ?? 0) + documentsBytes };
  }

  private sessionCount(journeyId: string): number {
    return this.queries.sessionCount.get({ id: journeyId })?.n ?? 0;
  }

  private withCount(
    row: { id: string; userId: string | null; createdAt: number } | undefined,
  ): Omit<JourneySummary, 'isNew'> | undefined {
    if (row === undefined) return undefined;
    return { ...row, sessionCount: this.sessionCount(row.id) };
  }
}
