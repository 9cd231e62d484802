// 5,000 stateless HTTP requests against the spawned combined server leave what it holds flat: every
// request gets its own MCP server instance over the domains opened once, and nothing of it may stay behind.
// Memory is read from the process itself after a full collection and from /proc (Linux), not inferred from timing.
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueryJourneyHistoryOutputSchema } from '@switchyard/contracts/journey';
import { LaunchListRunsOutputSchema } from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEraClient, type EraClient } from './era-clients.js';
import { call, writeJourney } from './flows.js';
import { spawnHttpServer, tempDir, type SpawnedServer } from './helpers.js';

const REQUESTS = 5_000;
const WARM_UP = 1_000;
const SAMPLE_EVERY = 1_000;
/** How many requests are in flight at once. */
const CONCURRENCY = 8;
/**
 * The allowed rise of what the server retains (the JS heap in use plus external memory, right after a full
 * garbage collection) from the end of the warm-up to any later sample. Measured: under 2 MiB. Keeping each
 * request's MCP server instance alive (a global array of them, tried once on purpose) rises by about 4 KiB a
 * request, 20 MiB over the run, and fails it.
 */
const MAX_RETAINED_RISE_MIB = 8;
/**
 * The allowed rise of RSS over the same run: a coarse bound for memory outside the JS heap (native buffers,
 * sockets). RSS also follows how many pages V8 keeps committed after a collection, which differs between Node
 * versions (Node 22 keeps old-space pages that Node 24 returns), so it cannot be the precise measure.
 */
const MAX_RSS_RISE_MIB = 40;

/**
 * The young generation at one size from the start. V8 grows it under load (to 2 x 64 MiB on a machine with
 * this much memory) and keeps the pages, whenever the load first gets there: RSS then jumps once by tens of
 * MiB although nothing is kept.
 */
const FIXED_YOUNG_GENERATION = ['--min-semi-space-size=16', '--max-semi-space-size=16'];

/**
 * Loaded into the server process: on SIGUSR2 it collects garbage and says on stderr what is still held (the
 * heap in use and external memory, in bytes). Without the collection both follow the heap's growth between
 * collections (V8 keeps garbage as long as it has room), not what is kept.
 */
const GC_ON_SIGNAL = `data:text/javascript,${encodeURIComponent(
  "process.on('SIGUSR2', () => { globalThis.gc(); const m = process.memoryUsage(); " +
    'process.stderr.write(`memory-test: collected ${m.heapUsed + m.external}\\n`); });',
)}`;
const COLLECTED = /memory-test: collected (\d+)/g;

interface Memory {
  /** Heap in use plus external memory after a full collection, MiB. */
  retainedMiB: number;
  rssMiB: number;
}

/** Resident set size of a process in MiB, from /proc/PID/status. */
function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  if (!Number.isFinite(kib)) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return kib / 1024;
}

/** What the server holds right after a full garbage collection. */
async function collectedMemory(server: SpawnedServer): Promise<Memory> {
  const pid = server.child.pid ?? 0;
  const count = () => [...server.stderr().matchAll(COLLECTED)].length;
  const before = count();
  process.kill(pid, 'SIGUSR2');
  while (count() === before) await sleep(10);
  const retained = Number([...server.stderr().matchAll(COLLECTED)].at(-1)![1]);
  return { retainedMiB: retained / 1024 / 1024, rssMiB: rssMiB(pid) };
}

describe.skipIf(!fs.existsSync('/proc/self/status'))('memory of switchyard --http under load', () => {
  let server: SpawnedServer;
  const clients: EraClient[] = [];
  let journeyId: string;

  beforeAll(async () => {
    server = await spawnHttpServer(
      { SWITCHYARD_DATA_DIR: tempDir('switchyard-memory-') },
      [],
      ['--expose-gc', ...FIXED_YOUNG_GENERATION, '--import', GC_ON_SIGNAL],
    );
    await connectClients();
    journeyId = await writeJourney(clients[0] as EraClient, 'Night bus N18 from Kamppi to Lauttasaari');
  });
  /**
   * A modern and a legacy client, in place of any before them. They are renewed after every round: the SDK's
   * HTTP client transport hands its one AbortSignal to every fetch, and Node 22's fetch keeps an abort
   * listener on it per request until the request is collected, so thousands of calls on one client warn of
   * a listener leak (MaxListenersExceededWarning) in this test process. The server does not see clients.
   */
  async function connectClients(): Promise<void> {
    for (const client of clients.splice(0)) await client.close();
    for (const kind of ['modern', 'legacy'] as const) {
      clients.push(await connectEraClient(kind, { transport: 'http', url: server.url }));
    }
  }

  afterAll(async () => {
    for (const client of clients) await client.close();
    expect(await server?.stop()).toBe(0);
  });

  /** Request `n`: reads of two domains, each one HTTP request, from clients of both eras in turn. */
  async function request(n: number): Promise<void> {
    const client = clients[n % clients.length] as EraClient;
    if (n % 4 < 2) {
      const found = await call(
        client,
        'query_journey_history',
        { journey_id: journeyId, query: 'kamppi' },
        QueryJourneyHistoryOutputSchema,
      );
      expect(found.total_results).toBe(1);
    } else {
      await call(client, 'launch_list_runs', {}, LaunchListRunsOutputSchema);
    }
  }

  async function run(from: number, count: number): Promise<void> {
    let next = from;
    const end = from + count;
    const worker = async () => {
      while (next < end) await request(next++);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }

  it(`retains no more than ${MAX_RETAINED_RISE_MIB} MiB more after ${REQUESTS} requests (RSS within ${MAX_RSS_RISE_MIB} MiB)`, async () => {
    await run(0, WARM_UP);
    const warm = await collectedMemory(server);
    const rises: { retained: number; rss: number }[] = [];
    for (let done = 0; done < REQUESTS; done += SAMPLE_EVERY) {
      await connectClients();
      await run(WARM_UP + done, SAMPLE_EVERY);
      const now = await collectedMemory(server);
      rises.push({
        retained: Math.round((now.retainedMiB - warm.retainedMiB) * 10) / 10,
        rss: Math.round(now.rssMiB - warm.rssMiB),
      });
    }
    const report = `after the warm-up at ${warm.retainedMiB.toFixed(1)} MiB retained, ${Math.round(warm.rssMiB)} MiB RSS: ${JSON.stringify(rises)}`;
    expect(Math.max(...rises.map((rise) => rise.retained)), report).toBeLessThan(MAX_RETAINED_RISE_MIB);
    expect(Math.max(...rises.map((rise) => rise.rss)), report).toBeLessThan(MAX_RSS_RISE_MIB);
  }, 300_000);
});
