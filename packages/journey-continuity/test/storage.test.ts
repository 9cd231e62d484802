import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  ftsMigrationStatements,
  journeyKey,
  SESSION_FTS_SHARDS,
  sessionFtsTable,
  sessionShardOf,
} from '../src/db/fts.js';
import { openJourneyDatabase } from '../src/db/database.js';
import { matchedDocumentsSql, rankedSessionsSql } from '../src/journeys/history-search.js';
import { MIGRATIONS_FOLDER } from '../src/index.js';
import { history, newJourney, record, startHarness, tempDataDir, type JourneyOut } from './helpers.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('migrations', () => {
  it('the committed full-text migration is exactly what fts.ts generates', () => {
    const committed = fs.readFileSync(path.join(packageDir, 'drizzle', '0001_fts.sql'), 'utf8');
    expect(committed).toBe(`${ftsMigrationStatements().join('\n--> statement-breakpoint\n')}\n`);
    expect(MIGRATIONS_FOLDER).toBe(path.join(packageDir, 'drizzle'));
    const journal = JSON.parse(
      fs.readFileSync(path.join(packageDir, 'drizzle/meta/_journal.json'), 'utf8'),
    ) as {
      entries: { tag: string }[];
    };
    expect(journal.entries.map((e) => e.tag)).toEqual(['0000_init', '0001_fts', '0002_journey_owner']);
  });

  it('creates every shard with its triggers, and the shard and key columns agree with the code', () => {
    const { sqlite } = openJourneyDatabase({ dataDir: tempDataDir() });
    try {
      const names = sqlite.prepare(`SELECT name FROM sqlite_schema WHERE type = ?`).pluck();
      const tables = new Set(names.all('table') as string[]);
      for (let shard = 0; shard < SESSION_FTS_SHARDS; shard++)
        expect(tables).toContain(sessionFtsTable(shard));
      expect(tables).toContain('documents_fts');
      expect((names.all('trigger') as string[]).length).toBe(3 * (SESSION_FTS_SHARDS + 1));
      const insertJourney = sqlite.prepare(
        'INSERT INTO journeys (id, created_at, updated_at) VALUES (?, 0, 0)',
      );
      const insertSession = sqlite.prepare(
        `INSERT INTO sessions (id, journey_id, created_at, summary) VALUES (?, ?, 0, 'x') RETURNING fts_shard, jkey`,
      );
      for (let i = 0; i < 300; i++) {
        const journeyId = randomUUID();
        insertJourney.run(journeyId);
        const row = insertSession.get(randomUUID(), journeyId) as { fts_shard: number; jkey: string };
        expect(row).toEqual({ fts_shard: sessionShardOf(journeyId), jkey: journeyKey(journeyId) });
      }
    } finally {
      sqlite.close();
    }
  });

  it('triggers keep every index in sync with inserts, updates and deletes made by any SQL', () => {
    const { sqlite } = openJourneyDatabase({ dataDir: tempDataDir() });
    try {
      const a = randomUUID();
      const b = randomUUID();
      const insertJourney = sqlite.prepare(
        'INSERT INTO journeys (id, created_at, updated_at) VALUES (?, 0, 0)',
      );
      insertJourney.run(a);
      insertJourney.run(b);
      sqlite
        .prepare(
          `INSERT INTO sessions (id, journey_id, created_at, summary) VALUES ('s1', ?, 0, 'original words')`,
        )
        .run(a);
      sqlite
        .prepare(
          `INSERT INTO documents (id, journey_id, document_type, title, content, created_at) VALUES ('d1', ?, 'note', 'title words', 'body', 0)`,
        )
        .run(a);
      sqlite.prepare(`UPDATE sessions SET summary = 'replacement text' WHERE id = 's1'`).run();
      sqlite.prepare(`UPDATE documents SET content = 'new body' WHERE id = 'd1'`).run();
      const hits = (table: string, query: string) =>
        sqlite.prepare(`SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`).pluck().get(query) as number;
      const tableA = sessionFtsTable(sessionShardOf(a));
      expect(hits(tableA, 'original')).toBe(0);
      expect(hits(tableA, 'replacement')).toBe(1);
      expect(hits('documents_fts', 'new')).toBe(1);
      // Moving a session to another journey moves it to that journey's shard and key.
      sqlite.prepare(`UPDATE sessions SET journey_id = ? WHERE id = 's1'`).run(b);
      const tableB = sessionFtsTable(sessionShardOf(b));
      expect(hits(tableB, `jkey : "${journeyKey(b)}" AND replacement`)).toBe(1);
      expect(hits(tableA, `jkey : "${journeyKey(a)}"`)).toBe(0);
      for (let shard = 0; shard < SESSION_FTS_SHARDS; shard++) {
        const table = sessionFtsTable(shard);
        sqlite.prepare(`INSERT INTO ${table}(${table}) VALUES ('integrity-check')`).run();
      }
      sqlite.prepare(`INSERT INTO documents_fts(documents_fts) VALUES ('integrity-check')`).run();
      sqlite.prepare('DELETE FROM journeys').run();
      expect(hits(tableB, 'replacement')).toBe(0);
      expect(hits('documents_fts', 'title')).toBe(0);
    } finally {
      sqlite.close();
    }
  });
});

describe('persistence', () => {
  it('everything survives a restart of the server on the same data directory', async () => {
    const dataDir = tempDataDir();
    const user = randomUUID();
    const first = await startHarness({ dataDir });
    const journeyId = await newJourney(first, user);
    await record(first, journeyId, 'Marathon plan agreed', { created_at: '2025-05-01T10:00:00Z' });
    await first.ok('add_document_to_journey', {
      journey_id: journeyId,
      document_type: 'woop_plan',
      title: 'Marathon',
    });
    const before = await history(first, {
      journey_id: journeyId,
      query: 'marathon',
      include_documents: true,
    });
    await first.stop();

    const second = await startHarness({ dataDir });
    try {
      expect(await second.state.ready?.()).toBe(true);
      const journey = await second.ok<JourneyOut>('get_or_create_journey', { user_id: user });
      expect(journey).toMatchObject({ journey_id: journeyId, is_new: false, session_count: 1 });
      expect(
        await history(second, { journey_id: journeyId, query: 'marathon', include_documents: true }),
      ).toEqual(before);
    } finally {
      await second.stop();
    }
  });

  it('stores the database in the data directory under its documented name', async () => {
    const h = await startHarness();
    try {
      expect(fs.existsSync(path.join(h.dataDir, 'journey-continuity.sqlite'))).toBe(true);
      const db = new Database(h.dbFile, { readonly: true });
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      db.close();
    } finally {
      await h.stop();
    }
  });
});

describe('query shapes', () => {
  it('search statements are driven by the journey’s full-text rows, then look rows up by rowid', () => {
    const { sqlite } = openJourneyDatabase({ dataDir: tempDataDir() });
    try {
      const params = {
        match: 'x',
        journeyId: 'x',
        from: 0,
        to: 1,
        limit: 10,
        sessionOffset: 0,
        documentLimit: 11,
        documentOffset: 0,
        headChars: 10,
        mark: '*',
        ellipsis: '…',
        tokens: 8,
      };
      const plan = (sql: string) =>
        (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map(
          (r) => r.detail,
        );
      for (const [sql, fts, table] of [
        [rankedSessionsSql(sessionFtsTable(7)), sessionFtsTable(7), 's'],
        [matchedDocumentsSql(), 'documents_fts', 'd'],
      ] as const) {
        const steps = plan(sql);
        const scan = steps.findIndex((d) => d.startsWith(`SCAN ${fts} VIRTUAL TABLE`));
        const lookup = steps.findIndex((d) => d.startsWith(`SEARCH ${table} USING INTEGER PRIMARY KEY`));
        expect(scan, steps.join('\n')).toBeGreaterThanOrEqual(0);
        expect(lookup, steps.join('\n')).toBeGreaterThan(scan);
      }
    } finally {
      sqlite.close();
    }
  });
});
