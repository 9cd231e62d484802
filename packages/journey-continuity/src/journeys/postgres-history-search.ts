// query_journey_history on PostgreSQL. Every query filters by journey first, as FTS5's sharding does: the
// term statistics bm25 needs are the journey's own, read from its rows (the journey index); documents are
// also found by the journey's key, a lexeme of every row's tsvector (postgres-schema.ts), under the GIN index.
// Each statement has one text whatever the query (values are parameters, the phrases one array), so that it
// runs as a named statement: PostgreSQL plans it once per connection (planning the ranked search costs about
// as much as running it).
import { hash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { journeyKey } from '../db/fts.js';
import { queryPhrases, toFtsPhrases } from './fts-query.js';
import {
  FIRST_PAGE,
  nothingMatches,
  rankedResult,
  summaryHeadChars,
  pageOf,
  toDocumentHit,
  toSessionHit,
  type DocumentRow,
  type HistoryQuery,
  type HistoryResult,
  type HistoryTexts,
  type RankedSessionRow,
  type SessionRow,
} from './history-result.js';
import { utf8Bytes } from './limits.js';
import { searchWords } from './search-text.js';
import { SNIPPET_WINDOW_CHARS, type TextReader } from './text-windows.js';

type Queryable = Pick<NodePgDatabase, '_'>;

/** The text search configuration of drizzle-postgres/0001_search_config.sql. */
export const SEARCH_CONFIG = sql.raw(`'switchyard_journey'::regconfig`);

/** The tsvector of a row: its words and its journey's key. */
export function searchVector(journeyId: string, text: string): SQL {
  return searchVectorOf(sql`${text}`, sql`${journeyKey(journeyId)}`);
}

/** The same from SQL expressions: `text` the row's words (searchText), `key` its journey's key. */
export function searchVectorOf(text: SQL, key: SQL): SQL {
  return sql`to_tsvector(${SEARCH_CONFIG}, ${text}) || array_to_tsvector(ARRAY[${key}]::text[])`;
}

/** The longest word PostgreSQL's parser indexes (longer ones are left out of a tsvector and a tsquery). */
const MAX_WORD_BYTES = 2047;

/** FTS5's bm25 parameters (fts5_aux.c): k1 + 1, k1, 1 - b and b, as SQL constants. */
const [K1_PLUS_1, K1, ONE_MINUS_B, B] = ['2.2', '1.2', '0.25', '0.75'].map((n) => sql.raw(`${n}::float8`));

/**
 * A journey's sessions matching every phrase, best bm25 first (ties newest first), and the number of matches
 * before the limit. bm25 is FTS5's formula, computed from term statistics in SQL: for each phrase, its IDF
 * ln((N - n + 0.5) / (n + 0.5)) (1e-6 when not positive, as FTS5 does) times tf·(k1 + 1) / (tf + k1·(1 - b +
 * b·|D| / avgdl)), summed and negated. N, n and avgdl are the journey's (FTS5's are its shard's: about 1/64
 * of all journeys). A phrase's tf is the count of its least frequent word in the row (tsvectors keep
 * positions, not phrase counts).
 *
 * The statistics need every row of the journey, so its rows are read once (`rows`, by the journey index)
 * and everything else is computed from them, each step once (MATERIALIZED: inlined, a step would be run
 * again for every row of the next). A match's word counts come from its vector cut down to the query's words
 * (setweight marks them, ts_filter keeps them), as an array in `vocabulary` order: a long summary's vector is
 * unnested once, a few lexemes long, and a phrase's tf is the least of its words' slots.
 */
export function rankedSessionsSql(
  journeyId: string,
  phrases: readonly string[],
  query: HistoryQuery,
  reads: SnippetReads,
) {
  const { from, to } = query.range;
  return sql`WITH rows AS MATERIALIZED (
      SELECT seq, created_at, token_count, search FROM sessions WHERE journey_id = ${journeyId}
    ), terms AS MATERIALIZED (
      SELECT phrase, phraseto_tsquery(${SEARCH_CONFIG}, phrase) AS q,
             tsvector_to_array(to_tsvector(${SEARCH_CONFIG}, phrase)) AS lexemes
        FROM unnest(${sql.param(phrases)}::text[]) AS t(phrase)
    ), vocabulary AS MATERIALIZED (
      SELECT array_agg(DISTINCT l.lexeme) AS lexemes FROM terms, unnest(terms.lexemes) AS l(lexeme)
    ), journey AS MATERIALIZED (
      SELECT count(*)::float8 AS n, coalesce(avg(token_count), 1)::float8 AS avgdl FROM rows
    ), weights AS MATERIALIZED (
      SELECT ARRAY(SELECT array_position(vocabulary.lexemes, l) FROM unnest(terms.lexemes) AS l) AS slots,
             CASE WHEN ln((journey.n - hits.n + 0.5) / (hits.n + 0.5)) <= 0 THEN 1e-6
                  ELSE ln((journey.n - hits.n + 0.5) / (hits.n + 0.5)) END AS idf
        FROM terms CROSS JOIN vocabulary CROSS JOIN journey
        CROSS JOIN LATERAL (SELECT count(*)::float8 AS n FROM rows WHERE search @@ terms.q) hits
    ), matches AS MATERIALIZED (
      SELECT seq, created_at, token_count,
             ARRAY(SELECT coalesce(array_length(v.positions, 1), 0)
                     FROM unnest(vocabulary.lexemes) WITH ORDINALITY AS l(lexeme, slot)
                     LEFT JOIN unnest(ts_filter(setweight(search, 'A', vocabulary.lexemes), '{a}')) AS v
                       ON v.lexeme = l.lexeme
                    ORDER BY l.slot) AS counts
        FROM rows CROSS JOIN vocabulary
       WHERE created_at BETWEEN ${from} AND ${to}
         AND NOT EXISTS (SELECT FROM terms WHERE NOT rows.search @@ terms.q)
    ), scored AS (
      SELECT m.seq, m.created_at,
             -sum(w.idf * f.tf * ${K1_PLUS_1} / (f.tf + ${K1} * (${ONE_MINUS_B} + ${B} * m.token_count / journey.avgdl)))
               AS score
        FROM matches m CROSS JOIN journey CROSS JOIN weights w
        CROSS JOIN LATERAL (SELECT coalesce(min(m.counts[slot]), 0)::float8 AS tf FROM unnest(w.slots) AS slot) f
       GROUP BY m.seq, m.created_at
    ), page AS (
      SELECT seq, created_at, score, count(*) OVER () AS total, min(score) OVER () AS best FROM scored
       ORDER BY score, created_at DESC, seq DESC
       LIMIT ${query.limit} OFFSET ${(query.offsets ?? FIRST_PAGE).sessions}
    )
    SELECT ${sessionColumns(snippetText(sql`s.summary`, sql`page.score, page.created_at DESC, page.seq DESC`, reads))},
           page.score, page.total::int AS total, page.best
      FROM page JOIN sessions s ON s.seq = page.seq
     ORDER BY page.score, page.created_at DESC, page.seq DESC`;
}

/** The tsquery of a journey's key. */
function journeyQuery(journeyId: string): SQL {
  return sql`to_tsquery('simple', ${journeyKey(journeyId)})`;
}

/** A row of the journey matching every phrase, each through phraseto_tsquery (plain text, never syntax). */
function matchesEveryPhrase(journeyId: string, phrases: readonly string[]): SQL {
  return sql`search @@ ${journeyQuery(journeyId)} AND NOT EXISTS (
    SELECT FROM unnest(${sql.param(phrases)}::text[]) AS p(phrase)
     WHERE NOT search @@ phraseto_tsquery(${SEARCH_CONFIG}, p.phrase))`;
}

const DOCUMENT_COLUMNS = sql`id, document_type AS "documentType", title, created_at::float8 AS "createdAt"`;

/** A session's columns in an answer (`s`): `summary`, the part of its summary read, and the size of all of it. */
function sessionColumns(summary: SQL): SQL {
  return sql`s.id, s.created_at::float8 AS "createdAt", ${summary} AS summary,
    octet_length(s.summary) AS "summaryBytes", s.diagnosis IS NOT NULL AS "hasDiagnosis"`;
}

/** How many characters of a text a search reads: all the scan budget could look at, or its head. */
export interface SnippetReads {
  scanBytes: number;
  readChars: number;
  headChars: number;
}

/**
 * The part of a text (`column`) a result of a search reads, in result order (`order`). PostgreSQL sends it
 * with the page, where SQLite reads on demand: while the long texts before it add up to less than the scan
 * budget, as much as the budget could look at; after that only its head (enough for the excerpt, and for a
 * text short enough to be given whole to snippet()). Sent whole, 100 summaries of 64 KiB were 6.4 MB a search.
 */
function snippetText(column: SQL, order: SQL, reads: SnippetReads): SQL {
  const long = sql`CASE WHEN octet_length(${column}) > ${SNIPPET_WINDOW_CHARS}::int THEN octet_length(${column}) END`;
  const longBefore = sql`coalesce(sum(${long}) OVER (ORDER BY ${order} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)`;
  return sql`substr(${column}, 1, CASE WHEN ${longBefore} < ${reads.scanBytes}::bigint
    THEN ${reads.readChars}::int ELSE ${reads.headChars}::int END)`;
}

const dialect = new PgDialect();

/** Runs `query` as a statement named after its text, prepared on each connection the first time it runs there. */
async function rowsOf<T>(db: Queryable, query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `journey_${hash('sha1', text).slice(0, 24)}`;
  const prepared = db._.session.prepareQuery({ sql: text, params }, undefined, name, false);
  return ((await prepared.execute()) as pg.QueryResult).rows as T[];
}

/**
 * Searches one journey's history (the caller checked that the journey is theirs, in the same snapshot).
 * Snippets are cut as on SQLite: a matched document's content is read up to what the snippet scan budget
 * could ever look at (`scanBytes`, plus a window), in the same query.
 */
export async function searchPostgresHistory(
  db: Queryable,
  query: HistoryQuery,
  texts: HistoryTexts,
): Promise<HistoryResult> {
  const journeyId = query.journeyId.toLowerCase();
  const { from, to } = query.range;
  const { excerptBytes } = texts;
  const inRange = sql`journey_id = ${journeyId} AND created_at BETWEEN ${from} AND ${to}`;
  const text = query.text?.trim() ? query.text : undefined;
  if (text === undefined) {
    // One statement after another: they share the transaction's client, which runs one at a time (pg 8
    // warns of a query sent while another runs, pg 9 refuses it).
    const sessions = await rowsOf<SessionRow>(
      db,
      sql`SELECT ${sessionColumns(sql`substr(s.summary, 1, ${summaryHeadChars(excerptBytes)})`)}
            FROM sessions s WHERE ${inRange} ORDER BY created_at DESC, seq DESC
           LIMIT ${query.limit} OFFSET ${(query.offsets ?? FIRST_PAGE).sessions}`,
    );
    const [count] = await rowsOf<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM sessions WHERE ${inRange}`,
    );
    const result = {
      sessions: sessions.map((row) => toSessionHit(row, excerptBytes)),
      total: count?.n ?? 0,
    };
    if (!query.includeDocuments) return { ...result, moreDocuments: false };
    // One more than the page: whether more documents match.
    const documents = pageOf(
      await rowsOf<DocumentRow>(
        db,
        sql`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE ${inRange}
             ORDER BY created_at DESC, seq DESC LIMIT ${query.limit + 1} OFFSET ${(query.offsets ?? FIRST_PAGE).documents}`,
      ),
      query.limit,
    );
    return {
      ...result,
      documents: documents.page.map((row) => toDocumentHit(row, excerptBytes)),
      moreDocuments: documents.more,
    };
  }
  const phrases = queryPhrases(text)
    .map((words) => searchWords(words.join(' ')))
    .filter((words) => words.length > 0);
  // PostgreSQL indexes no word longer than MAX_WORD_BYTES: no row can contain one.
  const tooLong = phrases.some((words) => words.some((word) => utf8Bytes(word) > MAX_WORD_BYTES));
  if (phrases.length === 0 || tooLong) return nothingMatches(query);
  return rankedSearch(db, query, journeyId, inRange, texts, {
    phrases: phrases.map((words) => words.join(' ')),
    snippetPhrases: toFtsPhrases(text),
  });
}

async function rankedSearch(
  db: Queryable,
  query: HistoryQuery,
  journeyId: string,
  inRange: SQL,
  texts: HistoryTexts,
  { phrases, snippetPhrases }: { phrases: string[]; snippetPhrases: string[] },
): Promise<HistoryResult> {
  const reads = {
    scanBytes: texts.scanBytes,
    readChars: texts.scanBytes + 2 * SNIPPET_WINDOW_CHARS,
    headChars: Math.max(summaryHeadChars(texts.excerptBytes), SNIPPET_WINDOW_CHARS + 1),
  };
  const rows = await rowsOf<RankedSessionRow>(db, rankedSessionsSql(journeyId, phrases, query, reads));
  // A page past the last match still says how many there are.
  const total =
    rows[0]?.total ??
    (
      await rowsOf<RankedSessionRow>(
        db,
        rankedSessionsSql(journeyId, phrases, { ...query, limit: 1, offsets: FIRST_PAGE }, reads),
      )
    )[0]?.total ??
    0;
  const documents = pageOf(
    query.includeDocuments
      ? await rowsOf<DocumentRow & { head: string | null }>(
          db,
          sql`SELECT ${DOCUMENT_COLUMNS}, ${snippetText(sql`content`, sql`created_at DESC, seq DESC`, reads)} AS head
                FROM documents
               WHERE ${inRange} AND ${matchesEveryPhrase(journeyId, phrases)}
               ORDER BY created_at DESC, seq DESC LIMIT ${query.limit + 1} OFFSET ${(query.offsets ?? FIRST_PAGE).documents}`,
        )
      : [],
    query.limit,
  );
  const readerOf =
    (text: string): TextReader =>
    (start, count) =>
      text.slice(start, start + count);
  return rankedResult(
    query,
    // The summary read is also where its excerpt is cut from.
    rows.map((row) => ({ ...row, read: readerOf(row.summary) })),
    documents.page.map(({ head, ...row }) => ({ ...row, read: readerOf(head ?? '') })),
    texts,
    snippetPhrases,
    { total, moreDocuments: documents.more },
  );
}
