import Database from 'better-sqlite3';
import { readWhenWritten } from '@switchyard/server-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openJourneyDatabase, type JourneyDatabase } from '../src/db/database.js';
import { DOCUMENTS_FTS_TABLE, sessionFtsTable, sessionShardOf } from '../src/db/fts.js';
import { FtsMaintenance } from '../src/journeys/fts-maintenance.js';
import { SqliteJourneyService } from '../src/journeys/sqlite-journey-service.js';
import { ConfigError, loadJourneyConfig } from '../src/index.js';
import { history, newJourney, record, startHarness, tempDataDir, type Harness } from './helpers.js';

// The SQLite full-text tables are merged into one segment once writes pause (JOURNEY_FTS_MERGE_AFTER_MS), in
// steps of at most JOURNEY_FTS_MERGE_PAGES pages (src/journeys/fts-maintenance.ts). PostgreSQL's GIN index
// has no segments of this kind: these tests are SQLite's.

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** One SQLite varint of `bytes` at `at`: its value and where the next one starts. */
function varint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  for (let i = at; i < at + 9; i++) {
    value = value * 128 + (bytes[i]! & 0x7f);
    if (bytes[i]! < 0x80) return [value, i + 1];
  }
  throw new Error('varint too long');
}

/**
 * FTS5's segments of `table`, from its structure record (row 10 of `_data`: a 4-byte cookie, in version 2
 * a 4-byte marker 0xff000001, then the number of levels and the number of segments as varints).
 */
function segmentsIn(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  const { block } = db.prepare(`SELECT block FROM ${table}_data WHERE id = 10`).get() as {
    block: Uint8Array;
  };
  db.close();
  const v2 = block[4] === 0xff && block[5] === 0 && block[6] === 0 && block[7] === 1;
  const [, afterLevels] = varint(block, v2 ? 8 : 4);
  return varint(block, afterLevels)[0];
}

const segments = (harness: Harness, table: string) => segmentsIn(harness.dbFile, table);

/** Throws (SQLITE_CORRUPT_VTAB) unless `table`'s index agrees with the rows it indexes. */
function integrityCheck(file: string, table: string): void {
  const db = new Database(file);
  try {
    db.prepare(`INSERT INTO ${table}(${table}) VALUES ('integrity-check')`).run();
  } finally {
    db.close();
  }
}

/** Waits (without a deadline of its own beyond 10 s) until `table` is one segment. */
const mergedInto1 = (harness: Harness, table: string) =>
  readWhenWritten(
    () => {
      if (segments(harness, table) !== 1) throw new Error('not merged yet');
    },
    { gaveUp: `${table} was never merged`, intervalMs: 20 },
  );

/** `count` distinct words, so that each session adds its own terms to the index. */
const wordsFrom = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => `w${(first + i).toString(36)}`).join(' ');

describe('full-text upkeep (SQLite)', () => {
  it('a shard written one session at a time is merged into one segment once writes pause, nothing lost', async () => {
    h = await startHarness({ config: { ftsMergeAfterMs: 1 } });
    const journeyId = await newJourney(h);
    const shard = sessionFtsTable(sessionShardOf(journeyId));
    for (let i = 0; i < 6; i++) await record(h, journeyId, `tram ${i} to Kamppi`);
    await mergedInto1(h, shard);
    integrityCheck(h.dbFile, shard);
    const found = await history(h, { journey_id: journeyId, query: 'tram kamppi', limit: 50 });
    expect(found.total_results).toBe(6);
    expect(found.sessions.map((s) => s.summary)).toContain('tram 0 to Kamppi');
  });

  it('documents and deleted journeys are merged too', async () => {
    h = await startHarness({ config: { ftsMergeAfterMs: 1 } });
    const journeyId = await newJourney(h);
    for (let i = 0; i < 3; i++) {
      await h.ok('add_document_to_journey', {
        journey_id: journeyId,
        document_type: 'note',
        title: `note ${i}`,
        content: 'rest and ice',
      });
    }
    await mergedInto1(h, DOCUMENTS_FTS_TABLE);
    // Deleting journeys writes their shard's tombstones (secure-delete): merged away with the rest.
    const shard = sessionFtsTable(sessionShardOf(journeyId));
    const doomed: string[] = [];
    while (doomed.length < 3) {
      const id = await newJourney(h);
      if (sessionFtsTable(sessionShardOf(id)) !== shard) continue;
      await record(h, id, 'night bus');
      doomed.push(id);
    }
    await record(h, journeyId, 'night bus home');
    for (const id of doomed) await h.ok('delete_journey', { journey_id: id });
    await mergedInto1(h, shard);
    integrityCheck(h.dbFile, shard);
    expect((await history(h, { journey_id: journeyId, query: 'night bus' })).total_results).toBe(1);
    const notes = await history(h, { journey_id: journeyId, query: 'ice', include_documents: true });
    expect(notes.documents).toHaveLength(3);
  });

  it('JOURNEY_FTS_MERGE_AFTER_MS=0 never merges', async () => {
    h = await startHarness({ config: { ftsMergeAfterMs: 0 } });
    const journeyId = await newJourney(h);
    for (let i = 0; i < 20; i++) await record(h, journeyId, `tram ${i}`);
    expect(segments(h, sessionFtsTable(sessionShardOf(journeyId)))).toBeGreaterThan(1);
  });

  it('is read from the environment and checked at start', () => {
    const env = { SWITCHYARD_DATA_DIR: tempDataDir() };
    expect(loadJourneyConfig(env)).toMatchObject({ ftsMergeAfterMs: undefined, ftsMergePages: undefined });
    expect(
      loadJourneyConfig({ ...env, JOURNEY_FTS_MERGE_AFTER_MS: '0', JOURNEY_FTS_MERGE_PAGES: '8' }),
    ).toMatchObject({ ftsMergeAfterMs: 0, ftsMergePages: 8 });
    for (const [name, value] of [
      ['JOURNEY_FTS_MERGE_AFTER_MS', '-1'],
      ['JOURNEY_FTS_MERGE_AFTER_MS', 'soon'],
      ['JOURNEY_FTS_MERGE_PAGES', '0'],
      ['JOURNEY_FTS_MERGE_PAGES', '1.5'],
    ] as const) {
      const load = () => loadJourneyConfig({ ...env, [name]: value });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(new RegExp(`^${name}: `));
    }
  });
});

describe('a merge step (SQLite)', () => {
  const opened: { database: JourneyDatabase; service: SqliteJourneyService }[] = [];
  afterEach(() => {
    for (const { database, service } of opened.splice(0)) {
      service.close();
      database.sqlite.close();
    }
  });

  /** A journey database with `summaries` recorded one at a time, never merged; its shard. */
  async function written(summaries: readonly string[], busyTimeoutMs?: number) {
    const database = openJourneyDatabase({ dataDir: tempDataDir(), busyTimeoutMs });
    const service = new SqliteJourneyService(database, { maxDocumentBytes: 1 << 20, ftsMergeAfterMs: 0 });
    opened.push({ database, service });
    const caller = { owner: 'local' };
    const journey = await service.getOrCreateJourney(caller);
    for (const summary of summaries)
      await service.recordSession({ ...caller, journeyId: journey.id, summary });
    const shard = sessionFtsTable(sessionShardOf(journey.id));
    const found = async (text: string) =>
      (
        await service.queryHistory(
          { journeyId: journey.id, text, range: { from: 0, to: 8.64e15 }, limit: 1, includeDocuments: false },
          caller,
        )
      ).total;
    return { database, shard, found };
  }

  // Each summary adds 400 new terms: a dozen of them are many pages of index.
  const large = Array.from({ length: 12 }, (_, i) => `ferry ${wordsFrom(i * 400, 400)}`);

  it('writes at most JOURNEY_FTS_MERGE_PAGES pages: a larger merge goes on at the next steps, nothing lost meanwhile', async () => {
    const whole = await written(large);
    const wholeMerge = new FtsMaintenance(whole.database.sqlite, { afterMs: 600_000, pages: 100_000 });
    wholeMerge.wrote(whole.shard);
    wholeMerge.step();
    expect(segmentsIn(whole.database.file, whole.shard)).toBe(1);
    // The step after the last finds nothing left.
    expect(wholeMerge.pending).toBe(true);
    wholeMerge.step();
    expect(wholeMerge.pending).toBe(false);
    wholeMerge.close();

    const bounded = await written(large);
    const merge = new FtsMaintenance(bounded.database.sqlite, { afterMs: 600_000, pages: 1 });
    merge.wrote(bounded.shard);
    let steps = 0;
    while (merge.pending) {
      merge.step();
      steps += 1;
      // Half-merged, the shard answers every search as before.
      integrityCheck(bounded.database.file, bounded.shard);
      expect(await bounded.found('ferry')).toBe(12);
      expect(await bounded.found(wordsFrom(0, 1))).toBe(1);
      expect(await bounded.found(wordsFrom(11 * 400 + 399, 1))).toBe(1);
      expect(steps).toBeLessThan(1000);
    }
    expect(steps).toBeGreaterThan(2);
    expect(segmentsIn(bounded.database.file, bounded.shard)).toBe(1);
    merge.close();
  });

  it("never waits for another process's write lock: the table stays due and is merged after", async () => {
    // A busy timeout of ten minutes: a step that waited for the lock would outlast the test.
    const busy = await written(large, 600_000);
    const merge = new FtsMaintenance(busy.database.sqlite, { afterMs: 600_000, pages: 100_000 });
    merge.wrote(busy.shard);
    const other = new Database(busy.database.file);
    other.prepare('BEGIN IMMEDIATE').run();
    try {
      merge.step();
      expect(merge.pending).toBe(true);
      expect(segmentsIn(busy.database.file, busy.shard)).toBeGreaterThan(1);
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    // The connection's own busy timeout is back for the writes.
    expect(busy.database.sqlite.pragma('busy_timeout', { simple: true })).toBe(600_000);
    merge.step();
    expect(segmentsIn(busy.database.file, busy.shard)).toBe(1);
    merge.close();
  });
});
