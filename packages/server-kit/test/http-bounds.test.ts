import net from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { runServer } from '../src/index.js';
import { rawHttpRequest } from '../src/testing.js';
import { createEchoModule } from './fixtures/echo-module.js';
import { httpTestHarness, logEntry, MCP_POST_HEADERS, memoryLogger, tempDir } from './helpers.js';

const { start, connectClient, initialize, closeAll } = httpTestHarness();
afterEach(closeAll);

function listTools(url: string, sessionId: string) {
  return rawHttpRequest(url, {
    method: 'POST',
    headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
}

async function openSession(url: string): Promise<string> {
  const opened = await initialize(url);
  expect(opened.status).toBe(200);
  return opened.headers['mcp-session-id'] as string;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const errorLines = (lines: string[]) => lines.filter((line) => logEntry(line)?.level === 'error');

/** A raw connection that resolves `closed` when the server ends it, with whatever it sent first. */
function rawConnection(port: string) {
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, closed, received: () => received };
}

describe('HTTP sessions are bounded', () => {
  it('evicts the least recently used idle session when full; the evicted one gets 404', async () => {
    const { url, lines } = await start([createEchoModule()], { maxSessions: 3 });
    const [a, b, c] = [await openSession(url), await openSession(url), await openSession(url)];
    expect((await listTools(url, a)).status).toBe(200); // a is now the most recently used; b the least
    const d = await openSession(url);
    expect((await listTools(url, b)).status).toBe(404);
    expect(JSON.parse((await listTools(url, b)).body)).toMatchObject({
      error: { message: expect.stringContaining('send initialize again') },
    });
    for (const kept of [a, c, d]) expect((await listTools(url, kept)).status).toBe(200);
    expect(lines.some((line) => logEntry(line)?.msg?.toString().startsWith('session evicted'))).toBe(true);
    // Many more initializes never hold more than the cap.
    const flood = await Promise.all(Array.from({ length: 20 }, () => openSession(url)));
    const alive = await Promise.all([a, c, d, ...flood].map(async (id) => (await listTools(url, id)).status));
    expect(alive.filter((status) => status === 200)).toHaveLength(3);
  });

  it('refuses a new session with 503 and Retry-After while every session has a request in flight', async () => {
    const { url, lines } = await start([createEchoModule()], { maxSessions: 2 });
    const slow = await Promise.all([connectClient(url), connectClient(url)]);
    // Long enough to be in flight when the next initialize arrives (it follows at once).
    const running = slow.map(({ client }) =>
      client.callTool({ name: 'slow_wait', arguments: { ms: 2_000 } }),
    );
    await until(() => lines.filter((line) => logEntry(line)?.msg === 'slow call started').length === 2);
    const refused = await initialize(url);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: expect.stringContaining('all 2 sessions have requests in flight') },
    });
    await Promise.all(running);
    // Their clients still listen on GET streams, but nothing is in flight: the older one makes room.
    expect((await initialize(url)).status).toBe(200);
  });

  it('reads the bounds from SWITCHYARD_* variables, and names a bad one', async () => {
    const { url } = await start([createEchoModule()], {}, { env: { SWITCHYARD_HTTP_MAX_SESSIONS: '1' } });
    const first = await openSession(url);
    await openSession(url);
    expect((await listTools(url, first)).status).toBe(404);

    const options = (env: Record<string, string>) => ({
      name: 't',
      version: '0',
      transport: 'http' as const,
      http: { port: 0 },
      handleSignals: false,
      logger: memoryLogger().logger,
      dataDir: tempDir(),
      env,
    });
    await expect(runServer([], options({ SWITCHYARD_HTTP_MAX_SESSIONS: '0' }))).rejects.toThrow(
      'SWITCHYARD_HTTP_MAX_SESSIONS must be a whole number of sessions >= 1, got "0"',
    );
    await expect(runServer([], options({ SWITCHYARD_MAX_ARGUMENT_DEPTH: 'deep' }))).rejects.toThrow(
      /SWITCHYARD_MAX_ARGUMENT_DEPTH must be a whole number/,
    );
    await expect(
      runServer(
        [],
        options({ SWITCHYARD_HTTP_HEADERS_TIMEOUT_MS: '5000', SWITCHYARD_HTTP_REQUEST_TIMEOUT_MS: '10' }),
      ),
    ).rejects.toThrow(/request timeout \(10 ms\) must be at least the headers timeout/);
  });
});

describe('HTTP connections are bounded', () => {
  it('closes a connection that never finishes its headers once the headers timeout passes', async () => {
    const { port, base } = await start([createEchoModule()], {
      headersTimeoutMs: 200,
      requestTimeoutMs: 400,
    });
    const slow = rawConnection(port);
    slow.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `);
    const answer = await slow.closed;
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    expect((await rawHttpRequest(`${base}/healthz`)).status).toBe(200);
  });

  it('drops connections beyond maxConnections, and accepts again once some close', async () => {
    const { port, base, lines } = await start([createEchoModule()], { maxConnections: 2 });
    const held = [rawConnection(port), rawConnection(port)];
    // A complete request on each, so the server has accepted both (they stay open: keep-alive).
    for (const connection of held) {
      connection.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    }
    await until(() => held.every((connection) => connection.received().includes('{"status":"ok"}')));
    const extra = rawConnection(port);
    extra.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(await extra.closed).toBe('');
    expect(lines.some((line) => logEntry(line)?.msg?.toString().startsWith('connections dropped'))).toBe(
      true,
    );
    held.forEach((connection) => connection.socket.destroy());
    await Promise.all(held.map((connection) => connection.closed));
    // The server counts them closed once it sees the FIN; until then a new connection may still be dropped.
    for (let status = 0; status !== 200;) {
      status = (await rawHttpRequest(`${base}/healthz`).catch(() => ({ status: 0 }))).status;
    }
  });
});

describe('compressed bodies', () => {
  const initializeJson = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  const post = (url: string, encoding: string, body: Buffer) =>
    rawHttpRequest(url, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'content-encoding': encoding },
      body,
    });

  it('answers a body that does not inflate with 400, an unknown encoding with 415, and keeps serving', async () => {
    const { url, lines } = await start([createEchoModule()]);
    const gzipped = zlib.gzipSync(initializeJson);
    const cases: [string, Buffer, number, string][] = [
      ['gzip', Buffer.from('this is not gzip data at all'), 400, 'not valid gzip data'],
      ['gzip', gzipped.subarray(0, gzipped.length - 12), 400, 'not valid gzip data'],
      ['br', Buffer.from([0xff, 0xff, 0xff, 0x00, 0x13, 0x37]), 400, 'not valid br data'],
      ['deflate', Buffer.from('definitely not zlib'), 400, 'not valid deflate data'],
      ['x-unknown', Buffer.from(initializeJson), 415, 'Unsupported Content-Encoding "x-unknown"'],
    ];
    for (const [encoding, body, status, message] of cases) {
      const answer = await post(url, encoding, body);
      expect({ encoding, status: answer.status }).toEqual({ encoding, status });
      expect(JSON.parse(answer.body)).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { message: expect.stringContaining(message) },
      });
    }
    expect((await post(url, 'gzip', gzipped)).status).toBe(200);
    expect((await post(url, 'br', zlib.brotliCompressSync(initializeJson))).status).toBe(200);
    expect(errorLines(lines)).toEqual([]);
  });
});
