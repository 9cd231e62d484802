// The corpus in SQLite, loaded fast: one transaction, prepared statements, the session triggers set aside.
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { localPrincipal } from '@switchyard/server-kit/runtime';
import { openJourneyDatabase, DATABASE_FILE_NAME } from '../src/db/database.js';
import { SESSION_FTS_SHARDS, sessionFtsTable } from '../src/db/fts.js';
import { SqliteJourneyService } from '../src/journeys/sqlite-journey-service.js';
import { CORPUS_TIMES, type GeneratedCorpus } from './corpus.js';
import { seconds, type BenchTarget } from './target.js';

/**
 * Fills an empty, migrated database with the corpus.
 *
 * Bulk load: once a transaction has written to an FTS5 table, every later write statement in it makes FTS5
 * flush its pending terms (a statement savepoint), which costs about 6x per row. So, as FTS5's
 * documentation suggests for bulk loads, the session triggers are set aside, all sessions are written,
 * then each is indexed in its journey's shard (exactly the row the trigger would write), and the triggers
 * are restored from their own stored SQL. `verifyIndex` checks the result.
 */
function loadCorpus(sqlite: Database.Database, corpus: GeneratedCorpus): void {
  const { start, span } = CORPUS_TIMES;
  const triggers = sqlite
    .prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'sessions'`)
    .all() as { name: string; sql: string }[];
  const load = sqlite.transaction(() => {
    for (const trigger of triggers) sqlite.exec(`DROP TRIGGER ${trigger.name}`);
    const insertJourney = sqlite.prepare(
      'INSERT INTO journeys (id, owner, user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    const insertSession = sqlite.prepare(
      'INSERT INTO sessions (id, journey_id, created_at, summary, diagnosis, confidence_score) VALUES (?, ?, ?, ?, ?, ?)',
    );
    // The benchmark's client is a local (stdio-like) caller: the corpus is its journeys.
    corpus.journeyIds.forEach((id, j) =>
      insertJourney.run(id, localPrincipal(), corpus.userIds[j]!, start, start + span),
    );
    for (const s of corpus.eachSession()) {
      insertSession.run(s.id, s.journeyId, s.createdAt, s.summary, s.diagnosis, s.confidenceScore);
    }
    const indexInShard = Array.from({ length: SESSION_FTS_SHARDS }, (_, shard) => {
      const table = sessionFtsTable(shard);
      return sqlite.prepare(`INSERT INTO ${table} (rowid, jkey, summary) VALUES (?, ?, ?)`);
    });
    const batch = sqlite
      .prepare('SELECT seq, jkey, summary, fts_shard FROM sessions WHERE seq > ? ORDER BY seq LIMIT 10000')
      .raw();
    for (let after = 0; ;) {
      const rows = batch.all(after) as [number, string, string, number][];
      if (rows.length === 0) break;
      for (const [seq, jkey, text, shard] of rows) indexInShard[shard]!.run(seq, jkey, text);
      after = rows[rows.length - 1]![0];
    }
    for (const trigger of triggers) sqlite.exec(trigger.sql);
  });
  load();
}

/** FTS5's own check that every shard indexes exactly its content (throws when it does not). */
export function verifyIndex(sqlite: Database.Database): void {
  for (let shard = 0; shard < SESSION_FTS_SHARDS; shard++) {
    const table = sessionFtsTable(shard);
    sqlite.prepare(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`).run();
  }
}

/** Loads the corpus into `<dataDir>/journey-continuity.sqlite` unless a marker says an earlier run did. */
function ensureCorpus(dataDir: string, corpus: GeneratedCorpus): void {
  const marker = path.join(dataDir, `corpus-${corpus.journeyIds.length}-${corpus.sessions}.loaded`);
  if (fs.existsSync(marker)) {
    console.log(`SQLite: reusing the corpus in ${dataDir}`);
    return;
  }
  fs.rmSync(path.join(dataDir, DATABASE_FILE_NAME), { force: true });
  const { sqlite } = openJourneyDatabase({ dataDir });
  // Bulk load settings for this one connection: no fsync, a large page cache.
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -1000000');
  const started = performance.now();
  loadCorpus(sqlite, corpus);
  const generated = performance.now() - started;
  const merging = performance.now();
  for (let shard = 0; shard < SESSION_FTS_SHARDS; shard++) {
    const table = sessionFtsTable(shard);
    sqlite.prepare(`INSERT INTO ${table}(${table}) VALUES ('optimize')`).run();
  }
  const merged = performance.now() - merging;
  const checking = performance.now();
  verifyIndex(sqlite);
  const checked = performance.now() - checking;
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
  console.log(
    `SQLite: loaded ${corpus.journeyIds.length} journeys and ${corpus.sessions} sessions in ${seconds(generated)} ` +
      `(${Math.round(corpus.sessions / (generated / 1000))} sessions/s); FTS5 optimize ${seconds(merged)}, ` +
      `integrity-check ${seconds(checked)}`,
  );
  fs.writeFileSync(marker, '');
}

export function openSqliteTarget(
  dataDir: string,
  corpus: GeneratedCorpus,
  maxDocumentBytes: number,
): BenchTarget {
  ensureCorpus(dataDir, corpus);
  const database = openJourneyDatabase({ dataDir });
  const floor = new SqliteJourneyService(database, { maxDocumentBytes });
  return {
    dialect: 'sqlite',
    storage: {},
    floor,
    async close() {
      floor.close();
      database.sqlite.close();
    },
  };
}
