import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectHttp, type ToolAnswer } from '../src/harness/mcp-client.js';
import { spawnSwitchyard, type SpawnedSwitchyard } from '../src/harness/switchyard.js';
import { removeTempDir, tempDir } from '../src/harness/temp.js';

/**
 * A caller cannot hold the server with a search (issue #11, row 3). FTS5's snippet() scores every match
 * of a text against every other, so a search matching a 1 MiB document made of the searched words kept
 * the (single-threaded) server busy for minutes, and `/healthz`, every other caller and SIGTERM waited.
 * Here such searches run against the combined `switchyard` bin while a health check and a cheap call are
 * sent beside them: all must answer, the limits are generous (a wait of minutes fails them, a slow machine
 * does not), and the server must stop promptly on SIGTERM afterwards.
 */
const ANSWER_WITHIN_MS = 20_000;
const WORDS = 'guitar practice with the metronome. ';
const dense = (bytes: number) => WORDS.repeat(Math.ceil(bytes / WORDS.length)).slice(0, bytes);

let dataDir: string;
let server: SpawnedSwitchyard;
let client: Client;
let journeyId: string;

beforeAll(async () => {
  dataDir = tempDir('search-cost');
  server = await spawnSwitchyard({ env: { SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_DOMAINS: 'journey' } });
  client = await connectHttp(server.url);
  journeyId = (await callTool(client, 'get_or_create_journey', {})).structured?.journey_id as string;
  const added = await callTool(client, 'add_document_to_journey', {
    journey_id: journeyId,
    document_type: 'note',
    title: 'Practice log',
    content: dense(1024 * 1024),
  });
  expect(added.isError).toBe(false);
  for (let i = 0; i < 10; i++) {
    const recorded = await callTool(client, 'record_session', {
      journey_id: journeyId,
      summary: dense(64 * 1024),
    });
    expect(recorded.isError).toBe(false);
  }
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
  if (dataDir !== undefined) removeTempDir(dataDir);
});

/** Resolves with `work`'s value, or fails naming `what` when it takes longer than ANSWER_WITHIN_MS. */
async function within<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${ANSWER_WITHIN_MS} ms`)),
      ANSWER_WITHIN_MS,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

const search = (query: string) =>
  callTool(client, 'query_journey_history', { journey_id: journeyId, query, include_documents: true });

describe('searches matching huge texts', () => {
  it('answer with snippets, while /healthz and other calls beside them answer too', async () => {
    const searches = ['guitar', 'guitar practice metronome', 'the practice'].map(search);
    const health = fetch(new URL('/healthz', server.url));
    const cheap = callTool(client, 'get_or_create_journey', {
      user_id: '5b8f3c1e-2d4a-4e6f-8a9b-0c1d2e3f4a5b',
    });

    expect((await within('/healthz', health)).status).toBe(200);
    expect((await within('get_or_create_journey', cheap)).isError).toBe(false);
    const answers: ToolAnswer[] = await within('the searches', Promise.all(searches));
    for (const answer of answers) {
      expect(answer.isError).toBe(false);
      const page = answer.structured as {
        sessions: { snippet?: string }[];
        documents: { snippet?: string }[];
        total_results: number;
      };
      expect(page.total_results).toBe(10);
      for (const item of [...page.sessions, ...page.documents]) expect(item.snippet).toMatch(/\*\*\w+\*\*/);
    }
    expect(server.defects()).toEqual([]);
    expect(server.lines().filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  it('the server stops promptly on SIGTERM with one in flight', async () => {
    const inFlight = search('guitar metronome').catch(() => undefined);
    // The health check goes out after the search: a server busy with it answers neither in time.
    expect((await within('/healthz', fetch(new URL('/healthz', server.url)))).status).toBe(200);
    expect(await within('SIGTERM', server.stop())).toBe(0);
    await inFlight;
  });
});
