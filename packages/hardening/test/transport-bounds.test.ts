import net from 'node:net';
import zlib from 'node:zlib';
import type { Client } from '@modelcontextprotocol/client';
import { rawHttpRequest, type ProtocolEra } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectHttp } from '../src/harness/mcp-client.js';
import {
  initializeBody,
  LEGACY_HEADERS,
  MCP_HEADERS,
  MODERN_META,
  modernBody,
  modernHeaders,
} from '../src/harness/raw-http.js';
import { logEntries, troubleIn } from '../src/harness/server-log.js';
import { spawnSwitchyardStdio } from '../src/harness/stdio.js';
import { spawnSwitchyard, type MemoryAfterGc, type SpawnedSwitchyard } from '../src/harness/switchyard.js';
import { removeTempDir, tempDir } from '../src/harness/temp.js';
import { ERAS } from '../src/profile.js';
import { SENTINELS } from '../src/sentinels.js';

/**
 * Every resource a caller can take at the transport is bounded (issue #11, rows 4, 9 and 10): HTTP holds
 * nothing between requests in either protocol era (no session to pile up), connections (cap, header
 * timeout), the nesting depth of tool arguments, the size of one stdio message, and compressed bodies that
 * do not inflate. Each attack goes to the combined `switchyard` bin, in both eras where the era changes the
 * wire; afterwards the server must still serve, with no error-level log line and no defect reported by the
 * preloaded detector.
 */
/**
 * How far a flood of 1,200 stateless requests may move memory after GC (measured: the heap grows by less
 * than 1 MiB once the paths are warm; 300 HTTP sessions once held 67 MiB).
 * RSS is judged loosely: it rises in steps of tens of MiB as the allocator adds arenas for concurrent
 * requests, then stays; a request that kept its body (100 KiB and more with the tool list) would still pass it.
 */
const HEAP_GROWTH_BOUND_MIB = 4;
const NATIVE_GROWTH_BOUND_MIB = 8;
const RSS_GROWTH_BOUND_MIB = 100;
const dirs: string[] = [];
const servers: SpawnedSwitchyard[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  dirs.forEach(removeTempDir);
});

/** The combined server with journey-continuity and launch-runs (no upstream keys needed). */
async function serve(env: Record<string, string> = {}): Promise<SpawnedSwitchyard> {
  const dataDir = tempDir('bounds');
  dirs.push(dataDir);
  const server = await spawnSwitchyard({
    env: { SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_DOMAINS: 'journey,launch', ...env },
  });
  servers.push(server);
  return server;
}

function assertClean(lines: readonly string[]): void {
  expect(troubleIn(lines)).toEqual({ errors: [], defects: [] });
}

/** A new SDK client is served, and the server logged no error and reported no defect. */
async function assertStillServing(server: SpawnedSwitchyard, token?: string): Promise<void> {
  const client = await connectHttp(server.url, token === undefined ? {} : { token });
  expect((await client.listTools()).tools.length).toBeGreaterThan(10);
  await client.close();
  assertClean(server.lines());
}

/** Waits for `condition`, failing with `what` after `timeoutMs`. */
async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `levels` arrays (or objects) around 1, built without recursion. */
function nested(levels: number, wrap: (inner: unknown) => unknown = (inner) => [inner]): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = wrap(value);
  return value;
}

function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return rawHttpRequest(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body });
}

describe('HTTP keeps nothing between requests (stateless in both eras)', () => {
  const listTools = (era: ProtocolEra) =>
    era === 'modern'
      ? { headers: modernHeaders('tools/list'), body: modernBody('tools/list') }
      : { headers: LEGACY_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) };

  it('1,200 requests (initialize, tools/list in each era, modern tool calls) issue no session, hold no memory', async () => {
    const server = await serve();
    const requests = [
      { headers: {}, body: initializeBody() },
      listTools('legacy'),
      listTools('modern'),
      {
        headers: modernHeaders('tools/call', 'get_or_create_journey'),
        body: modernBody('tools/call', { name: 'get_or_create_journey', arguments: {} }),
      },
    ];
    const flood = async (rounds: number) => {
      for (let round = 0; round < rounds; round += 1) {
        const answers = await Promise.all(
          requests.flatMap(({ headers, body }) =>
            Array.from({ length: 5 }, () => post(server.url, body, headers)),
          ),
        );
        for (const answer of answers) {
          expect(answer.status).toBe(200);
          expect(answer.headers['mcp-session-id']).toBeUndefined();
        }
      }
    };
    await flood(15); // 300 requests first: every path's code loaded and compiled before measuring
    const before = await server.memoryAfterGc();
    await flood(60);
    const after = await server.memoryAfterGc();

    const mib = (bytes: number) => bytes / 2 ** 20;
    const native = (m: MemoryAfterGc) => m.external + m.arrayBuffers;
    console.log(
      `stateless flood of 1,200 requests, after GC (MiB): heap ${mib(before.heapUsed).toFixed(1)} -> ` +
        `${mib(after.heapUsed).toFixed(1)}, external ${mib(native(before)).toFixed(1)} -> ` +
        `${mib(native(after)).toFixed(1)}, RSS ${mib(before.rss).toFixed(1)} -> ${mib(after.rss).toFixed(1)}`,
    );
    expect(mib(after.heapUsed - before.heapUsed)).toBeLessThan(HEAP_GROWTH_BOUND_MIB);
    expect(mib(native(after) - native(before))).toBeLessThan(NATIVE_GROWTH_BOUND_MIB);
    expect(mib(after.rss - before.rss)).toBeLessThan(RSS_GROWTH_BOUND_MIB);
    // No standalone stream and no session to end: GET and DELETE have nothing to act on.
    for (const method of ['GET', 'DELETE']) {
      const answer = await rawHttpRequest(server.url, {
        method,
        headers: { accept: 'text/event-stream', 'mcp-session-id': 'made-up' },
      });
      expect({ method, status: answer.status }).toEqual({ method, status: 405 });
    }
    expect(logEntries(server.lines()).filter((entry) => /session/i.test(String(entry.msg)))).toEqual([]);

    await assertStillServing(server);
  });
});

describe('HTTP connections', () => {
  it('holds at most the connection cap, and closes connections that never finish their headers', async () => {
    const server = await serve({
      SWITCHYARD_TOKEN: SENTINELS.switchyardToken,
      SWITCHYARD_HTTP_MAX_CONNECTIONS: '20',
      SWITCHYARD_HTTP_HEADERS_TIMEOUT_MS: '3000',
    });
    const { port } = new URL(server.url);
    let closed = 0;
    const sockets = Array.from({ length: 50 }, () => {
      const socket = net.connect(Number(port), '127.0.0.1');
      socket.on('error', () => {});
      socket.once('close', () => (closed += 1));
      socket.resume(); // read what the server sends (a 408), or its end would never be seen
      // Slow loris: a request line and a header, then nothing (no token ever arrives).
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n`);
      return socket;
    });
    await waitFor(() => closed >= 30, 2_000, 'the 30 connections over the cap are dropped');
    expect(closed).toBe(30);
    await waitFor(() => closed === 50, 15_000, 'the 20 held connections are closed after the header timeout');

    sockets.forEach((socket) => socket.destroy());
    await assertStillServing(server, SENTINELS.switchyardToken);
  });
});

describe.each(ERAS)('deeply nested arguments, %s era', (era) => {
  let server: SpawnedSwitchyard;
  let client: Client;
  let journeyId: unknown;

  beforeAll(async () => {
    server = await serve();
    client = await connectHttp(server.url, { era });
    journeyId = (await callTool(client, 'get_or_create_journey', {})).structured?.journey_id;
  });
  afterAll(() => client?.close());

  it("a journey tool answers its contract's VALIDATION_ERROR naming the field and the limit", async () => {
    for (const levels of [100, 3_000]) {
      const answer = await callTool(client, 'record_session', {
        journey_id: journeyId,
        summary: 'deep',
        messages: [nested(levels)],
      });
      expect(answer.structured).toEqual({
        error: {
          status: 400,
          code: 'VALIDATION_ERROR',
          message:
            'messages nests objects and arrays more than 64 levels deep (the limit); send a flatter value',
        },
      });
    }
  });

  it("a launch tool answers its contract's INVALID_INPUT, not a schema failure or INTERNAL", async () => {
    const answer = await callTool(client, 'launch_start_run', {
      run_config: nested(100, (inner) => ({ a: inner })),
    });
    expect(answer.structured).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/^run_config nests objects and arrays more than 64 levels/),
        retryable: false,
      },
    });
  });

  it('100,000 levels over raw HTTP (past what an SDK client can serialize) get the same answer', async () => {
    const deepObject = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const envelope = era === 'modern' ? `"_meta":${JSON.stringify(MODERN_META)},` : '';
    const headers = era === 'modern' ? modernHeaders('tools/call', 'record_session') : LEGACY_HEADERS;
    for (const [field, value] of [
      ['diagnosis', deepObject],
      ['metadata', deepObject],
      ['messages', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ]) {
      const body =
        `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{${envelope}"name":"record_session","arguments":` +
        `{"journey_id":${JSON.stringify(journeyId)},"summary":"deep","${field}":${value}}}}`;
      const answer = await post(server.url, body, headers);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain(`${field} nests objects and arrays more than 64 levels deep`);
      expect(answer.body).toContain('VALIDATION_ERROR');
    }
    assertClean(server.lines());
  });
});

describe('compressed bodies that do not inflate', () => {
  it('bad gzip and bad br get 400, an unknown encoding 415; the server keeps serving', async () => {
    const server = await serve();
    const gzipped = zlib.gzipSync(initializeBody());
    const cases: [string, Buffer, number][] = [
      ['gzip', Buffer.from('not gzip at all, just text'), 400],
      ['gzip', gzipped.subarray(0, gzipped.length - 10), 400],
      ['br', Buffer.from([0xff, 0xfe, 0xfd, 0x00, 0x01, 0x02, 0x03]), 400],
      ['x-compress-9000', Buffer.from(initializeBody()), 415],
    ];
    for (const [encoding, body, status] of cases) {
      const answer = await post(server.url, body, { 'content-encoding': encoding });
      expect({ encoding, status: answer.status }).toEqual({ encoding, status });
      expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    }
    expect((await post(server.url, gzipped, { 'content-encoding': 'gzip' })).status).toBe(200);
    await assertStillServing(server);
  });
});

describe.each(ERAS)('stdio messages, %s era', (era) => {
  it('a message over the limit (11 MiB) gets a JSON-RPC error naming the limit; the next call works', async () => {
    const dataDir = tempDir('bounds-stdio');
    dirs.push(dataDir);
    const stdio = await spawnSwitchyardStdio(
      { SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_DOMAINS: 'journey' },
      era,
    );
    try {
      const journey = await callTool(stdio.client, 'get_or_create_journey', {});
      const huge = callTool(stdio.client, 'add_document_to_journey', {
        journey_id: journey.structured?.journey_id,
        document_type: 'file_upload',
        title: 'too large for any message',
        content: 'x'.repeat(11 * 1024 * 1024),
      });
      await expect(huge).rejects.toMatchObject({
        code: -32600,
        message: expect.stringMatching(
          /Request too large: the message is \d+ bytes; this server accepts at most \d+ bytes/,
        ),
      });
      const after = await callTool(stdio.client, 'get_or_create_journey', {});
      expect(after.isError).toBe(false);
      expect(stdio.alive()).toBe(true);
      assertClean(stdio.lines());
    } finally {
      await stdio.close();
    }
  });

  it('a document JOURNEY_MAX_DOCUMENT_BYTES allows reaches its tool even when escaping makes it > 10 MiB', async () => {
    const dataDir = tempDir('bounds-stdio-large');
    dirs.push(dataDir);
    const maxDocumentBytes = 2 * 1024 * 1024;
    const stdio = await spawnSwitchyardStdio(
      {
        SWITCHYARD_DATA_DIR: dataDir,
        SWITCHYARD_DOMAINS: 'journey',
        JOURNEY_MAX_DOCUMENT_BYTES: String(maxDocumentBytes),
        // Room in the journey for the document and its title (the default holds 2 MiB of text in all).
        JOURNEY_MAX_TEXT_BYTES: String(2 * maxDocumentBytes),
      },
      era,
    );
    try {
      const journey = await callTool(stdio.client, 'get_or_create_journey', {});
      // Every character a control character: six bytes each on the wire (\u0001), 12 MiB in all.
      const answer = await callTool(stdio.client, 'add_document_to_journey', {
        journey_id: journey.structured?.journey_id,
        document_type: 'file_upload',
        title: 'largest allowed, escaped',
        content: '\u0001'.repeat(maxDocumentBytes),
      });
      expect(answer.isError).toBe(false);
      expect(answer.structured?.content_bytes).toBe(maxDocumentBytes);
      expect(stdio.alive()).toBe(true);
      assertClean(stdio.lines());
    } finally {
      await stdio.close();
    }
  });
});
