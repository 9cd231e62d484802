// A history search's answer, the same on both databases: the page of sessions (ranked by bm25 when there is
// text), the matching documents, and their snippets cut by SnippetMaker from what each database read.
import { MARK, type SnippetMaker, type SnippetSource } from './snippets.js';
import type { MillisRange } from './time.js';

export interface HistoryQuery {
  journeyId: string;
  /** Free text; blank or absent lists sessions newest first. */
  text?: string;
  range: MillisRange;
  limit: number;
  includeDocuments: boolean;
}

export interface SessionHit {
  id: string;
  createdAt: number;
  summary: string;
  hasDiagnosis: boolean;
  /** With text only: bm25 scaled to (0, 1] against the best match. */
  relevance?: number;
  snippet?: string;
}

export interface DocumentHit {
  id: string;
  documentType: string;
  title: string | null;
  createdAt: number;
  snippet?: string;
}

export interface HistoryResult {
  sessions: SessionHit[];
  /** Matching sessions before `limit`. */
  total: number;
  /** Present when documents were asked for. */
  documents?: DocumentHit[];
}

export interface SessionRow {
  id: string;
  createdAt: number;
  summary: string;
  hasDiagnosis: number | boolean;
}

/** A matching session: its bm25 score (negative, more negative is better, as FTS5's) and the match count. */
export interface RankedSessionRow extends SessionRow {
  score: number;
  total: number;
}

export interface DocumentRow {
  id: string;
  documentType: string;
  title: string | null;
  createdAt: number;
}

/** A matching document, with how to read its content for a snippet. */
export interface MatchedDocument extends DocumentRow {
  read: SnippetSource['read'];
}

export function toSessionHit(row: SessionRow): SessionHit {
  return {
    id: row.id,
    createdAt: row.createdAt,
    summary: row.summary,
    hasDiagnosis: row.hasDiagnosis === 1 || row.hasDiagnosis === true,
  };
}

export function toDocumentHit(row: DocumentRow): DocumentHit {
  return { id: row.id, documentType: row.documentType, title: row.title, createdAt: row.createdAt };
}

/** The answer when the text has no searchable word: nothing can match. */
export function nothingMatches(query: HistoryQuery): HistoryResult {
  return { sessions: [], total: 0, ...(query.includeDocuments ? { documents: [] } : {}) };
}

/**
 * The answer for a text search: the ranked page with relevance against the best match and each result's
 * snippet (`match`: the snippet maker's expression for any of the query's phrases).
 */
export function rankedResult(
  query: HistoryQuery,
  rows: readonly RankedSessionRow[],
  documents: readonly MatchedDocument[],
  snippetMaker: SnippetMaker,
  match: string,
): HistoryResult {
  const sources: SnippetSource[] = [
    ...rows.map((row) => ({
      read: (start: number, count: number) => row.summary.slice(start, start + count),
    })),
    ...documents.map((row) => ({ title: row.title, read: row.read })),
  ];
  const snippets = snippetMaker.snippets(sources, match);
  // bm25 is negative and more negative is better; every matched term adds a positive weight, so the best
  // score is never 0 and each row's share of it lies in (0, 1].
  const best = rows[0]?.score ?? -1;
  const sessions = rows.map((row, i): SessionHit => {
    const snippet = snippets[i]?.text;
    return {
      ...toSessionHit(row),
      relevance: row.score / best,
      ...(snippet === undefined ? {} : { snippet }),
    };
  });
  const result: HistoryResult = { sessions, total: rows[0]?.total ?? 0 };
  if (query.includeDocuments) {
    result.documents = documents.map((row, i) => {
      const found = snippets[rows.length + i];
      const snippet = [found?.text, found?.title].find((s) => s?.includes(MARK));
      return { ...toDocumentHit(row), ...(snippet ? { snippet } : {}) };
    });
  }
  return result;
}
