// A history search's answer, the same on both databases: the page of sessions (ranked by bm25 when there is
// text), the matching documents, and their snippets cut by SnippetMaker from what each database read. Every
// text it quotes is cut to the answer's excerpt size (excerpt.ts), so that its size does not depend on what
// was stored.
import { excerpt, jsonBytes } from './excerpt.js';
import { ELLIPSIS, MARK, type SnippetMaker, type SnippetSource } from './snippets.js';
import type { TextReader } from './text-windows.js';
import type { MillisRange } from './time.js';

export interface HistoryQuery {
  journeyId: string;
  /** Free text; blank or absent lists sessions newest first. */
  text?: string;
  range: MillisRange;
  limit: number;
  includeDocuments: boolean;
  /** How many of the matching sessions, and of the matching documents, earlier pages held (a cursor's). */
  offsets?: PageOffsets;
}

export interface PageOffsets {
  sessions: number;
  documents: number;
}

/** A search's first page: nothing before it. */
export const FIRST_PAGE: PageOffsets = { sessions: 0, documents: 0 };

export interface SessionHit {
  id: string;
  createdAt: number;
  /** The summary's start, at most the excerpt size (as JSON). */
  summary: string;
  /** Whether `summary` is only the start of it. */
  summaryTruncated: boolean;
  /** The whole summary's size in UTF-8 bytes. */
  summaryBytes: number;
  hasDiagnosis: boolean;
  /** With text only: bm25 scaled to (0, 1] against the best match. */
  relevance?: number;
  snippet?: string;
}

export interface DocumentHit {
  id: string;
  documentType: string;
  /** The title's start, at most the excerpt size (as JSON). */
  title: string | null;
  titleTruncated: boolean;
  createdAt: number;
  snippet?: string;
}

export interface HistoryResult {
  sessions: SessionHit[];
  /** Matching sessions before `limit`. */
  total: number;
  /** Present when documents were asked for. */
  documents?: DocumentHit[];
  /** True when more documents match than this page holds. */
  moreDocuments: boolean;
}

/**
 * A session as the searches read it: the start of its summary (`summaryHeadChars` characters, enough for
 * any excerpt) and the whole summary's size.
 */
export interface SessionRow {
  id: string;
  createdAt: number;
  summary: string;
  summaryBytes: number;
  hasDiagnosis: number | boolean;
}

/** A matching session: its bm25 score (negative, more negative is better, as FTS5's) and the match count. */
export interface RankedSessionRow extends SessionRow {
  score: number;
  total: number;
  /** The best score of the whole search (not only of this page). */
  best: number;
}

/**
 * How a search makes the texts of its answer: the snippet maker and how much of long texts it may read
 * (`scanBytes`), and the most bytes (as JSON) each quoted text may take (`excerptBytes`).
 */
export interface HistoryTexts {
  maker: SnippetMaker;
  scanBytes: number;
  excerptBytes: number;
}

/** A matching session, with how to read its summary for a snippet. */
export interface MatchedSession extends RankedSessionRow {
  read: TextReader;
}

/**
 * How many characters of a summary a search reads for its excerpt: one character takes at least one byte,
 * so this many hold every excerpt of `excerptBytes`, and the one after tells whether a word goes on.
 */
export function summaryHeadChars(excerptBytes: number): number {
  return excerptBytes + 1;
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

export function toSessionHit(row: SessionRow, excerptBytes: number): SessionHit {
  const summary = excerpt(row.summary, excerptBytes);
  return {
    id: row.id,
    createdAt: row.createdAt,
    summary: summary.text,
    summaryTruncated: summary.cut,
    summaryBytes: row.summaryBytes,
    hasDiagnosis: row.hasDiagnosis === 1 || row.hasDiagnosis === true,
  };
}

export function toDocumentHit(row: DocumentRow, excerptBytes: number): DocumentHit {
  const title = row.title === null ? undefined : excerpt(row.title, excerptBytes);
  return {
    id: row.id,
    documentType: row.documentType,
    title: title?.text ?? null,
    titleTruncated: title?.cut ?? false,
    createdAt: row.createdAt,
  };
}

/**
 * A snippet within `excerptBytes`: as it is when it fits, else from its first match on (so that a match
 * stays in it), with an ellipsis on each side where it was cut, as snippets mark a cut text.
 */
function boundedSnippet(snippet: string, excerptBytes: number): string {
  if (jsonBytes(snippet) <= excerptBytes) return snippet;
  const firstMatch = Math.max(snippet.indexOf(MARK), 0);
  const before = firstMatch > 0 && !snippet.startsWith(ELLIPSIS) ? ELLIPSIS : '';
  const from = snippet.slice(firstMatch);
  const cut = excerpt(from, excerptBytes - jsonBytes(before) - jsonBytes(ELLIPSIS));
  return `${before}${cut.text}${cut.cut ? ELLIPSIS : ''}`;
}

/** The answer when the text has no searchable word: nothing can match. */
export function nothingMatches(query: HistoryQuery): HistoryResult {
  return {
    sessions: [],
    total: 0,
    moreDocuments: false,
    ...(query.includeDocuments ? { documents: [] } : {}),
  };
}

/** The first `limit` of rows read one past a page (`LIMIT limit + 1`), and whether there were more. */
export function pageOf<T>(rows: readonly T[], limit: number): { page: T[]; more: boolean } {
  return { page: rows.slice(0, limit), more: rows.length > limit };
}

/**
 * The answer for a text search: the ranked page with relevance against the best match and each result's
 * snippet where any of the query's `phrases` (toFtsPhrases') matches.
 */
export function rankedResult(
  query: HistoryQuery,
  rows: readonly MatchedSession[],
  documents: readonly MatchedDocument[],
  { maker, excerptBytes }: Pick<HistoryTexts, 'maker' | 'excerptBytes'>,
  phrases: readonly string[],
  counts: Pick<HistoryResult, 'total' | 'moreDocuments'>,
): HistoryResult {
  const sources: SnippetSource[] = [
    ...rows.map((row) => ({ read: row.read })),
    ...documents.map((row) => ({ title: row.title, read: row.read })),
  ];
  const snippets = maker.snippets(sources, phrases);
  // bm25 is negative and more negative is better; every matched term adds a positive weight, so the best
  // score is never 0 and each row's share of it lies in (0, 1].
  const best = rows[0]?.best ?? -1;
  const sessions = rows.map((row, i): SessionHit => {
    const snippet = snippets[i]?.text;
    return {
      ...toSessionHit(row, excerptBytes),
      relevance: row.score / best,
      ...(snippet === undefined ? {} : { snippet: boundedSnippet(snippet, excerptBytes) }),
    };
  });
  const result: HistoryResult = { sessions, ...counts };
  if (query.includeDocuments) {
    result.documents = documents.map((row, i) => {
      const found = snippets[rows.length + i];
      const snippet = [found?.text, found?.title].find((s) => s?.includes(MARK));
      return {
        ...toDocumentHit(row, excerptBytes),
        ...(snippet ? { snippet: boundedSnippet(snippet, excerptBytes) } : {}),
      };
    });
  }
  return result;
}
