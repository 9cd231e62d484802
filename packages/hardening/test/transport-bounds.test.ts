import net from 'node:net';
import zlib from 'node:zlib';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { rawHttpRequest } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectHttp } from '../src/harness/mcp-client.js';
import { initializeBody, MCP_HEADERS } from '../src/harness/raw-http.js';
import { spawnSwitchyardStdio } from '../src/harness/stdio.js';
import { spawnSwitchyard, type SpawnedSwitchyard } from '../src/harness/switchyard.js';
import { removeTempDir, tempDir } from '../src/harness/temp.js';
import { SENTINELS } from '../src/sentinels.js';

/**
 * Every resource a caller can take at the transport is bounded (issue #11, rows 4, 9 and 10): HTTP
 * sessions (cap with least-recently-used eviction), connections (cap, header timeout), the nesting depth
 * of tool arguments, the size of one stdio message, and compressed bodies that do not inflate. Each
 * attack goes to the combined `switchyard` bin; afterwards the server must still serve, with no error-level
 * log line and no defect reported by the preloaded detector.
 */
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

function logs(lines: readonly string[]): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    try {
      const entry: unknown = JSON.parse(line);
      return typeof entry === 'object' && entry !== null ? [entry as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

/** What the preloaded detector reports, and the stack overflow that deep arguments once caused. */
const DEFECT = /^HARDENING_(UNHANDLED_REJECTION|UNCAUGHT_EXCEPTION|WARNING) |RangeError/;

function assertClean(lines: readonly string[]): void {
  expect(logs(lines).filter((entry) => entry.level === 'error')).toEqual([]);
  expect(lines.filter((line) => DEFECT.test(line))).toEqual([]);
}

/** A new SDK client is served, and the server logged no error and reported no defect. */
async function assertStillServing(server: SpawnedSwitchyard, token?: string): Promise<void> {
  const client = await connectHttp(server.url, token);
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

describe('HTTP sessions', () => {
  const MAX_SESSIONS = 8;

  it('a flood of initializes keeps at most the cap: the least recently used idle session is evicted (404)', async () => {
    const server = await serve({ SWITCHYARD_HTTP_MAX_SESSIONS: String(MAX_SESSIONS) });
    const open = async () => {
      const answer = await post(server.url, initializeBody());
      expect(answer.status).toBe(200);
      return answer.headers['mcp-session-id'] as string;
    };
    const first = await open();
    for (let n = 1; n < MAX_SESSIONS; n += 1) await open();
    const before = await server.memoryAfterGc();
    for (let batch = 0; batch < 30; batch += 1) await Promise.all(Array.from({ length: 10 }, open));
    const after = await server.memoryAfterGc();

    const listTools = await post(
      server.url,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      {
        'mcp-session-id': first,
        'mcp-protocol-version': '2025-06-18',
      },
    );
    expect(listTools.status).toBe(404);
    expect(JSON.parse(listTools.body)).toMatchObject({
      error: { message: expect.stringContaining('initialize') },
    });
    const counts = logs(server.lines())
      .filter((entry) => entry.msg === 'session opened')
      .map((entry) => entry.sessions as number);
    expect(counts).toHaveLength(MAX_SESSIONS + 300);
    expect(Math.max(...counts)).toBe(MAX_SESSIONS);
    // 300 sessions of every journey and launch tool held about 67 MiB more heap after GC before the cap.
    const growthMiB = (after.heapUsed - before.heapUsed) / 2 ** 20;
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
    console.log(
      `session flood: heap after GC ${mib(before.heapUsed)} -> ${mib(after.heapUsed)} MiB, ` +
        `RSS ${mib(before.rss)} -> ${mib(after.rss)} MiB`,
    );
    expect(growthMiB).toBeLessThan(16);

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

describe('deeply nested arguments', () => {
  let server: SpawnedSwitchyard;
  let client: Client;
  let journeyId: unknown;

  beforeAll(async () => {
    server = await serve();
    client = await connectHttp(server.url);
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
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const deepObject = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    for (const [field, value] of [
      ['diagnosis', deepObject],
      ['metadata', deepObject],
      ['messages', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ]) {
      const body =
        `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"record_session","arguments":` +
        `{"journey_id":${JSON.stringify(journeyId)},"summary":"deep","${field}":${value}}}}`;
      const answer = await post(server.url, body, {
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      });
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

describe('stdio messages', () => {
  it('a message over the limit (11 MiB) gets a JSON-RPC error naming the limit; the next call works', async () => {
    const dataDir = tempDir('bounds-stdio');
    dirs.push(dataDir);
    const stdio = await spawnSwitchyardStdio({ SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_DOMAINS: 'journey' });
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
    const stdio = await spawnSwitchyardStdio({
      SWITCHYARD_DATA_DIR: dataDir,
      SWITCHYARD_DOMAINS: 'journey',
      JOURNEY_MAX_DOCUMENT_BYTES: String(maxDocumentBytes),
    });
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
