import type Database from 'better-sqlite3';
import { DOCUMENTS_FTS_TABLE, journeyKey, sessionFtsTable, sessionShardOf } from '../db/fts.js';
import { anyPhrase, journeyMatch, toFtsPhrases } from './fts-query.js';
import {
  nothingMatches,
  rankedResult,
  toDocumentHit,
  toSessionHit,
  type DocumentRow,
  type HistoryQuery,
  type HistoryResult,
  type RankedSessionRow,
  type SessionRow,
} from './history-result.js';
import { SnippetMaker } from './snippets.js';

export interface HistorySearchOptions {
  /** Most bytes of long texts one search reads to find where they match, for their snippets. */
  snippetScanBytes: number;
}

interface MatchedDocumentRow extends DocumentRow {
  seq: number;
}

/**
 * Searches one journey's history. With text, FTS5 matches inside the journey's own rows (its key is part
 * of the MATCH, so the index seeks straight to them) in the journey's shard, ranked by bm25 with the
 * summary weighted 1 and the journey key 0; ties go to the newest session. Snippets are cut afterwards,
 * for the returned page only, each from a bounded window of its text (SnippetMaker).
 */
export class HistorySearch {
  private readonly rankedSessions = new Map<number, Database.Statement<unknown[], RankedSessionRow>>();
  private readonly listSessions;
  private readonly countSessions;
  private readonly listDocuments;
  private readonly matchDocuments;
  private readonly readDocument;
  private readonly snippets: SnippetMaker;

  constructor(
    private readonly sqlite: Database.Database,
    options: HistorySearchOptions,
  ) {
    this.snippets = new SnippetMaker(options.snippetScanBytes);
    this.listSessions = sqlite.prepare<unknown[], SessionRow>(
      `SELECT id, created_at AS createdAt, summary, diagnosis IS NOT NULL AS hasDiagnosis
         FROM sessions
        WHERE journey_id = @journeyId AND created_at BETWEEN @from AND @to
        ORDER BY created_at DESC, seq DESC
        LIMIT @limit`,
    );
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
        LIMIT @limit`,
    );
    this.matchDocuments = sqlite.prepare<unknown[], MatchedDocumentRow>(matchedDocumentsSql());
    this.readDocument = sqlite
      .prepare<unknown[], string | null>(
        'SELECT substr(content, @start + 1, @count) FROM documents WHERE seq = @seq',
      )
      .pluck();
  }

  search(query: HistoryQuery): HistoryResult {
    const journeyId = query.journeyId.toLowerCase();
    const base = { journeyId, from: query.range.from, to: query.range.to, limit: query.limit };
    const text = query.text?.trim() ? query.text : undefined;
    if (text === undefined) {
      const sessions = this.listSessions.all(base).map(toSessionHit);
      const total = this.countSessions.get(base) ?? 0;
      return {
        sessions,
        total,
        ...(query.includeDocuments ? { documents: this.listDocuments.all(base).map(toDocumentHit) } : {}),
      };
    }
    const phrases = toFtsPhrases(text);
    // Nothing searchable (only punctuation or symbols): nothing can match.
    if (phrases.length === 0) return nothingMatches(query);
    const key = journeyKey(journeyId);
    const rows = this.rankedSessionsIn(sessionShardOf(journeyId)).all({
      ...base,
      match: journeyMatch(key, ['summary'], phrases),
    });
    const documents = query.includeDocuments
      ? this.matchDocuments.all({ ...base, match: journeyMatch(key, ['title', 'content'], phrases) })
      : [];
    const matched = documents.map((row) => ({
      ...row,
      read: (start: number, count: number) => this.readDocument.get({ seq: row.seq, start, count }) ?? '',
    }));
    return rankedResult(query, rows, matched, this.snippets, anyPhrase(phrases));
  }

  /** Frees the scratch database the snippets are cut in. */
  close(): void {
    this.snippets.close();
  }

  private rankedSessionsIn(shard: number): Database.Statement<unknown[], RankedSessionRow> {
    let statement = this.rankedSessions.get(shard);
    if (statement === undefined) {
      statement = this.sqlite.prepare<unknown[], RankedSessionRow>(rankedSessionsSql(sessionFtsTable(shard)));
      this.rankedSessions.set(shard, statement);
    }
    return statement;
  }
}

/**
 * A journey's sessions matching @match, best bm25 first (ties newest first), and the number of matches
 * before @limit. The full-text table must drive the join (CROSS JOIN fixes the order): driven from the
 * sessions index instead, SQLite runs the MATCH once per session and bm25() recounts its term statistics
 * each time. FTS5's auxiliary functions only run in a plain query over the FTS table, so the matches are
 * materialized first (with only what ranks them) and counted outside; the page's rows are read last.
 */
export function rankedSessionsSql(f: string): string {
  return `WITH matches AS MATERIALIZED (
      SELECT s.seq, s.created_at AS createdAt, bm25(${f}, 0.0, 1.0) AS score
        FROM ${f} CROSS JOIN sessions s ON s.seq = ${f}.rowid
       WHERE ${f} MATCH @match AND s.journey_id = @journeyId AND s.created_at BETWEEN @from AND @to
    ), page AS (
      SELECT seq, createdAt, score, count(*) OVER () AS total
        FROM matches
       ORDER BY score, createdAt DESC, seq DESC
       LIMIT @limit
    )
    SELECT s.id, page.createdAt, s.summary, s.diagnosis IS NOT NULL AS hasDiagnosis, page.score, page.total
      FROM page CROSS JOIN sessions s ON s.seq = page.seq
     ORDER BY page.score, page.createdAt DESC, page.seq DESC`;
}

/** A journey's documents matching @match in title or content, newest first. */
export function matchedDocumentsSql(): string {
  const f = DOCUMENTS_FTS_TABLE;
  return `SELECT d.seq, d.id, d.document_type AS documentType, d.title, d.created_at AS createdAt
      FROM ${f} CROSS JOIN documents d ON d.seq = ${f}.rowid
     WHERE ${f} MATCH @match AND d.journey_id = @journeyId AND d.created_at BETWEEN @from AND @to
     ORDER BY d.created_at DESC, d.seq DESC
     LIMIT @limit`;
}
