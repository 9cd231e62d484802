import type Database from 'better-sqlite3';
import { DOCUMENTS_FTS_TABLE, journeyKey, sessionFtsTable, sessionShardOf } from '../db/fts.js';
import { journeyMatch, toFtsPhrases } from './fts-query.js';
import {
  nothingMatches,
  rankedResult,
  summaryHeadChars,
  FIRST_PAGE,
  pageOf,
  toDocumentHit,
  toSessionHit,
  type DocumentRow,
  type HistoryQuery,
  type HistoryResult,
  type RankedSessionRow,
  type SessionRow,
} from './history-result.js';
import { SnippetMaker } from './snippets.js';
import { utf8Bytes } from './limits.js';
import { SNIPPET_WINDOW_CHARS, type TextReader } from './text-windows.js';

export interface HistorySearchOptions {
  /** Most bytes of long texts one search reads to find where they match, for their snippets. */
  snippetScanBytes: number;
  /** Most bytes (as JSON) of each text an answer quotes: a summary, a snippet, a title. */
  excerptBytes: number;
}

/** The columns of a session a search answers: the start of its summary and the size of all of it. */
const SESSION_COLUMNS = (s: string) =>
  `${s}id, ${s}created_at AS createdAt, substr(${s}summary, 1, @headChars) AS summary,
   octet_length(${s}summary) AS summaryBytes, ${s}diagnosis IS NOT NULL AS hasDiagnosis`;

interface SeqRow {
  seq: number;
}

/** Reads part of a text column of one row (`substr` by @seq, @start, @count). */
type PartStatement = Database.Statement<unknown[], string | null>;

/**
 * How much of a matched text is read with the page: its head, its first probe window and a snippet window
 * from either of its first two (SnippetMaker's first reads).
 */
const PREFETCH_CHARS = 2 * SNIPPET_WINDOW_CHARS + 2;

/**
 * The snippet maker's reader of one row's text: from `head`, read with the page, where it can, else by a
 * read of the row, which loads all of the stored text each time (SQLite's substr reads every page of it).
 * The reads count SQLite's characters: the head serves a part of the text only when it is the whole text or
 * holds no astral character (which JavaScript counts as two).
 */
function readerOf(statement: PartStatement, seq: number, head: string, textBytes: number): TextReader {
  const whole = utf8Bytes(head) === textBytes;
  const sameCount = whole || !/[\uD800-\uDFFF]/.test(head);
  return (start, count) =>
    sameCount && (whole || start + count <= head.length)
      ? head.slice(start, start + count)
      : (statement.get({ seq, start, count }) ?? '');
}

/**
 * Searches one journey's history. With text, FTS5 matches inside the journey's own rows (its key is part
 * of the MATCH, so the index seeks straight to them) in the journey's shard, ranked by bm25 with the
 * summary weighted 1 and the journey key 0; ties go to the newest session. Snippets are cut afterwards,
 * for the returned page only, each from a bounded window of its text (SnippetMaker).
 */
export class HistorySearch {
  private readonly rankedSessions = new Map<number, Database.Statement<unknown[], RankedMatch>>();
  private readonly sessionsBySeq;
  private readonly listSessions;
  private readonly countSessions;
  private readonly listDocuments;
  private readonly matchDocuments;
  private readonly readSummary: PartStatement;
  private readonly readDocument: PartStatement;
  private readonly snippets: SnippetMaker;
  private readonly excerptBytes: number;

  constructor(
    private readonly sqlite: Database.Database,
    options: HistorySearchOptions,
  ) {
    this.snippets = new SnippetMaker(options.snippetScanBytes);
    this.excerptBytes = options.excerptBytes;
    this.listSessions = sqlite.prepare<unknown[], SessionRow>(
      `SELECT ${SESSION_COLUMNS('')}
         FROM sessions
        WHERE journey_id = @journeyId AND created_at BETWEEN @from AND @to
        ORDER BY created_at DESC, seq DESC
        LIMIT @limit OFFSET @sessionOffset`,
    );
    this.sessionsBySeq = sqlite.prepare<unknown[], SessionRow & SeqRow>(sessionsBySeqSql());
    this.countSessions = sqlite
      .prepare<unknown[], number>(
        `SELECT count(*) FROM sessions WHERE journey_id = @journeyId AND created_at BETWEEN @from AND @to`,
      )
      .pluck();
    this.listDocuments = sqlite.prepare<unknown[], DocumentRow>(
      `SELECT id, document_type AS documentType, title, created_at AS createdAt
         FROM documents
        WHERE journey_id = @journeyId AND created_at BETWEEN @from AND @to
        ORDER BY created_at DESC, seq DESC
        LIMIT @documentLimit OFFSET @documentOffset`,
    );
    this.matchDocuments = sqlite.prepare<
      unknown[],
      DocumentRow & SeqRow & { head: string | null; contentBytes: number | null }
    >(matchedDocumentsSql());
    const part = (table: string, column: string) =>
      sqlite
        .prepare<unknown[], string | null>(
          `SELECT substr(${column}, @start + 1, @count) FROM ${table} WHERE seq = @seq`,
        )
        .pluck();
    this.readSummary = part('sessions', 'summary');
    this.readDocument = part('documents', 'content');
  }

  search(query: HistoryQuery): HistoryResult {
    const journeyId = query.journeyId.toLowerCase();
    const { excerptBytes } = this;
    const base = {
      journeyId,
      from: query.range.from,
      to: query.range.to,
      limit: query.limit,
      sessionOffset: (query.offsets ?? FIRST_PAGE).sessions,
      // One more than the page: whether more documents match.
      documentLimit: query.limit + 1,
      documentOffset: (query.offsets ?? FIRST_PAGE).documents,
      headChars: summaryHeadChars(excerptBytes),
    };
    const text = query.text?.trim() ? query.text : undefined;
    if (text === undefined) {
      const sessions = this.listSessions.all(base).map((row) => toSessionHit(row, excerptBytes));
      const total = this.countSessions.get(base) ?? 0;
      if (!query.includeDocuments) return { sessions, total, moreDocuments: false };
      const documents = pageOf(this.listDocuments.all(base), query.limit);
      return {
        sessions,
        total,
        documents: documents.page.map((row) => toDocumentHit(row, excerptBytes)),
        moreDocuments: documents.more,
      };
    }
    const phrases = toFtsPhrases(text);
    // Nothing searchable (only punctuation or symbols): nothing can match.
    if (phrases.length === 0) return nothingMatches(query);
    const key = journeyKey(journeyId);
    const ranked = this.rankedSessionsIn(sessionShardOf(journeyId));
    const sessionMatch = {
      ...base,
      headChars: Math.max(base.headChars, PREFETCH_CHARS),
      match: journeyMatch(key, ['summary'], phrases),
    };
    const matches = ranked.all(sessionMatch);
    const rows = this.pageOfMatches(matches, sessionMatch);
    const total = matches.length;
    const documents = pageOf(
      query.includeDocuments
        ? this.matchDocuments.all({
            ...base,
            headChars: PREFETCH_CHARS,
            match: journeyMatch(key, ['title', 'content'], phrases),
          })
        : [],
      query.limit,
    );
    return rankedResult(
      query,
      rows.map((row) => ({
        ...row,
        read: readerOf(this.readSummary, row.seq, row.summary, row.summaryBytes),
      })),
      documents.page.map(({ head, contentBytes, ...row }) => ({
        ...row,
        read: readerOf(this.readDocument, row.seq, head ?? '', contentBytes ?? 0),
      })),
      { maker: this.snippets, excerptBytes },
      phrases,
      { total, moreDocuments: documents.more },
    );
  }

  /** Frees the scratch database the snippets are cut in. */
  close(): void {
    this.snippets.close();
  }

  /**
   * The page's sessions of the ranked matches (the journey's, at most JOURNEY_MAX_SESSIONS), in rank order,
   * with their scores, the count of all matches and the best score.
   */
  private pageOfMatches(
    matches: readonly RankedMatch[],
    { limit, sessionOffset, headChars }: { limit: number; sessionOffset: number; headChars: number },
  ): (RankedSessionRow & SeqRow)[] {
    const page = matches.slice(sessionOffset, sessionOffset + limit);
    if (page.length === 0) return [];
    const scores = new Map(page);
    const rows = this.sessionsBySeq.all({ seqs: JSON.stringify([...scores.keys()]), headChars });
    const best = matches[0]![1];
    // By seq, not by position: a session another process deleted since the ranking is simply not read.
    return rows.map((row) => ({ ...row, score: scores.get(row.seq)!, total: matches.length, best }));
  }

  private rankedSessionsIn(shard: number): Database.Statement<unknown[], RankedMatch> {
    let statement = this.rankedSessions.get(shard);
    if (statement === undefined) {
      statement = this.sqlite
        .prepare<unknown[], RankedMatch>(rankedSessionsSql(sessionFtsTable(shard)))
        .raw();
      this.rankedSessions.set(shard, statement);
    }
    return statement;
  }
}

/** A match of a ranked search as rankedSessionsSql reads it: its session's seq and its bm25 score. */
type RankedMatch = [seq: number, score: number];

/**
 * Every session of a journey matching @match, best bm25 first (ties newest first), as [seq, score]: the
 * full-text table drives the join (CROSS JOIN fixes the order; driven from the sessions index instead,
 * SQLite runs the MATCH once per session and bm25() recounts its term statistics each time). Only what ranks
 * them is read, for at most the journey's sessions; the caller counts them, and reads the page's rows by
 * sessionsBySeqSql. (Counting and paging in SQL, with window functions over a materialized CTE, three
 * temporary b-trees and a second join, cost more than the ranking itself.)
 */
export function rankedSessionsSql(f: string): string {
  return `SELECT s.seq, bm25(${f}, 0.0, 1.0) AS score
      FROM ${f} CROSS JOIN sessions s ON s.seq = ${f}.rowid
     WHERE ${f} MATCH @match AND s.journey_id = @journeyId AND s.created_at BETWEEN @from AND @to
     ORDER BY score, s.created_at DESC, s.seq DESC`;
}

/** The sessions whose seqs are the JSON array @seqs, in its order. */
export function sessionsBySeqSql(): string {
  return `SELECT s.seq, ${SESSION_COLUMNS('s.')}
      FROM json_each(@seqs) AS page CROSS JOIN sessions s ON s.seq = page.value
     ORDER BY page.key`;
}

/** A journey's documents matching @match in title or content, newest first, with their content's head. */
export function matchedDocumentsSql(): string {
  const f = DOCUMENTS_FTS_TABLE;
  return `SELECT d.seq, d.id, d.document_type AS documentType, d.title, d.created_at AS createdAt,
           substr(d.content, 1, @headChars) AS head, octet_length(d.content) AS contentBytes
      FROM ${f} CROSS JOIN documents d ON d.seq = ${f}.rowid
     WHERE ${f} MATCH @match AND d.journey_id = @journeyId AND d.created_at BETWEEN @from AND @to
     ORDER BY d.created_at DESC, d.seq DESC
     LIMIT @documentLimit OFFSET @documentOffset`;
}
