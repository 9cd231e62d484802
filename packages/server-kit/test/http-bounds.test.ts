import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { runServer } from '../src/index.js';
import { resolveLimit } from '../src/limits.js';
import { createLogger } from '../src/runtime/index.js';
import { MODERN_PROTOCOL_VERSION, rawHttpRequest, type ProtocolEra } from '../src/testing.js';
import { echoDomain } from './fixtures/echo-domain.js';
import {
  httpTestHarness,
  INITIALIZE_BODY,
  logEntry,
  MCP_POST_HEADERS,
  memoryLogger,
  rawConnection,
  tempDir,
} from './helpers.js';

const { start, closeAll } = httpTestHarness();
afterEach(closeAll);

const echo = () => ({ domain: echoDomain(), config: undefined });

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const errorLines = (lines: string[]) => lines.filter((line) => logEntry(line)?.level === 'error');

describe('HTTP bounds are settings', () => {
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

  it.each([
    ['httpMaxConnections', 512],
    ['httpMaxBatch', 100],
    ['httpHeadersTimeoutMs', 10_000],
    ['httpRequestTimeoutMs', 30_000],
    ['httpKeepAliveTimeoutMs', 5_000],
    ['oauthFetchTimeoutMs', 5_000],
    ['oauthMaxResponseBytes', 256 * 1024],
    ['maxArgumentDepth', 64],
  ] as const)('bounds %s by default, at %i', (name, bound) => {
    expect(resolveLimit(name, undefined, {})).toBe(bound);
  });

  it('takes the option given in code, else the variable, else the fallback given, else the default', () => {
    const variable = { SWITCHYARD_MAX_ARGUMENT_DEPTH: '9' };
    expect(resolveLimit('maxArgumentDepth', 5, variable, 7)).toBe(5);
    expect(resolveLimit('maxArgumentDepth', undefined, variable, 7)).toBe(9);
    expect(resolveLimit('maxArgumentDepth', undefined, { SWITCHYARD_MAX_ARGUMENT_DEPTH: ' ' }, 7)).toBe(7);
    expect(resolveLimit('maxArgumentDepth', undefined, {}, 7)).toBe(7);
    expect(resolveLimit('maxArgumentDepth', undefined, {})).toBe(64);
  });

  it('raises the request timeout with a headers timeout set above its default', async () => {
    // The request timeout's default falls back to the headers timeout when that is longer: a start with
    // only the headers timeout raised works, whether it is set in code or in the environment.
    await expect(start([echo()], { headersTimeoutMs: 40_000 })).resolves.toHaveProperty('url');
    await expect(
      start([echo()], {}, { env: { SWITCHYARD_HTTP_HEADERS_TIMEOUT_MS: '40000' } }),
    ).resolves.toHaveProperty('url');
  });

  it('reads the bounds from SWITCHYARD_* variables, and names a bad one', async () => {
    const { url } = await start([echo()], {}, { env: { SWITCHYARD_HTTP_MAX_BODY_BYTES: '2048' } });
    const body = JSON.stringify(INITIALIZE_BODY);
    const post = (size: number) =>
      rawHttpRequest(url, {
        method: 'POST',
        headers: MCP_POST_HEADERS,
        body: body + ' '.repeat(size - Buffer.byteLength(body)),
      });
    expect((await post(2048)).status).toBe(200);
    expect((await post(2049)).status).toBe(413);

    await expect(runServer([], options({ SWITCHYARD_HTTP_MAX_CONNECTIONS: '0' }))).rejects.toThrow(
      'SWITCHYARD_HTTP_MAX_CONNECTIONS must be a whole number of connections >= 1, got "0"',
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

describe('JSON-RPC batches over HTTP are bounded', () => {
  const postBatch = (url: string, size: number) =>
    rawHttpRequest(url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: JSON.stringify(
        Array.from({ length: size }, (_, index) => ({ jsonrpc: '2.0', id: index + 1, method: 'tools/list' })),
      ),
    });
  const refusalOf = (size: number, maxBatch: number) => ({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32600,
      message:
        `Invalid Request: the batch holds ${size} messages; this server answers at most ${maxBatch} in one ` +
        'request (SWITCHYARD_HTTP_MAX_BATCH)',
    },
  });

  it('answers a batch of SWITCHYARD_HTTP_MAX_BATCH messages, and refuses a longer one with 400 naming it', async () => {
    const { url, lines } = await start([echo()], {}, { env: { SWITCHYARD_HTTP_MAX_BATCH: '3' } });
    const answered = await postBatch(url, 3);
    expect(answered.status).toBe(200);
    expect(answered.body.match(/"tools":\[/g)).toHaveLength(3);
    const refused = await postBatch(url, 4);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual(refusalOf(4, 3));
    expect(errorLines(lines)).toEqual([]);
    expect(lines.map(logEntry)).toContainEqual(
      expect.objectContaining({
        msg: 'http request refused',
        status: 400,
        reason: refusalOf(4, 3).error.message,
      }),
    );
  });

  it('takes http.maxBatch set in code, and allows 100 messages by default (the MCP SDK answers no more)', async () => {
    const { url: set } = await start([echo()], { maxBatch: 2 });
    expect((await postBatch(set, 2)).status).toBe(200);
    expect(JSON.parse((await postBatch(set, 3)).body)).toEqual(refusalOf(3, 2));

    const { url } = await start([echo()]);
    expect((await postBatch(url, 100)).status).toBe(200);
    const refused = await postBatch(url, 101);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual(refusalOf(101, 100));
  });

  it('stops the start on a bound outside 1 to 100, naming the option or the variable', async () => {
    const range = 'must be a whole number of messages from 1 to 100';
    await expect(start([echo()], { maxBatch: 101 })).rejects.toThrow(
      `runServer: http.maxBatch ${range}, got 101`,
    );
    await expect(start([echo()], { maxBatch: 0 })).rejects.toThrow(
      `runServer: http.maxBatch ${range}, got 0`,
    );
    for (const raw of ['0', '101', 'many']) {
      await expect(start([echo()], {}, { env: { SWITCHYARD_HTTP_MAX_BATCH: raw } })).rejects.toThrow(
        `runServer: SWITCHYARD_HTTP_MAX_BATCH ${range}, got "${raw}"`,
      );
    }
  });
});

describe('HTTP connections are bounded', () => {
  it('closes a connection that never finishes its headers once the headers timeout passes', async () => {
    // The request timeout is far beyond the test's own: only the headers timeout can end this connection.
    const { port, base } = await start([echo()], { headersTimeoutMs: 200, requestTimeoutMs: 600_000 });
    const slow = rawConnection(port);
    slow.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `);
    const answer = await slow.closed;
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    expect((await rawHttpRequest(`${base}/healthz`)).status).toBe(200);
  });

  it('closes a connection whose body never arrives once the request timeout passes', async () => {
    const { port, base } = await start([echo()], { headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const slow = rawConnection(port);
    slow.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100\r\n\r\n{',
    );
    const answer = await slow.closed;
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    expect((await rawHttpRequest(`${base}/healthz`)).status).toBe(200);
  });

  it('keeps an idle connection alive for keepAliveTimeoutMs, and tells the client so', async () => {
    const { port } = await start([echo()], { keepAliveTimeoutMs: 7_000 });
    const kept = rawConnection(port);
    kept.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await until(() => kept.received().includes('{"status":"ok"}'));
    expect(kept.received()).toMatch(/\r\nKeep-Alive: timeout=7\r\n/i);
    kept.socket.destroy();
  });

  it('drops connections beyond maxConnections, and accepts again once some close', async () => {
    const { port, base, lines } = await start([echo()], { maxConnections: 2 });
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
  const initializeJson = JSON.stringify(INITIALIZE_BODY);
  const post = (url: string, encoding: string, body: Buffer) =>
    rawHttpRequest(url, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'content-encoding': encoding },
      body,
    });

  it('answers a body that does not inflate with 400, an unknown encoding with 415, and keeps serving', async () => {
    const { url, lines } = await start([echo()]);
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

/**
 * The bytes in use on the heap after full garbage collections, with a pause after each so that what they
 * free in turn (finalizers, timers that held the last reference) goes too: without the pauses the number
 * wanders by megabytes.
 */
async function heapAfterGc(): Promise<number> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  for (let round = 0; round < 4; round += 1) {
    gc();
    await sleep(20);
  }
  return process.memoryUsage().heapUsed;
}

const REQUESTS = 5_000;
/**
 * How much the heap may grow over the requests: 8 MiB, about 1.6 kB a request. Measured growth is below
 * 0.5 MiB on Node 24 and up to 3 MiB on Node 22 (V8's own caches); one server instance kept per request
 * would be about 6 kB each, 30 MB in all.
 */
const HEAP_GROWTH_BOUND = 8 * 1024 * 1024;

/** One tools/call as a client of `era` sends it, with no session header: the raw request, no SDK client state. */
function callRequest(era: ProtocolEra, id: number): { headers: Record<string, string>; body: string } {
  const params = { name: 'echo_text', arguments: { text: `call ${id}` } };
  if (era === 'legacy') {
    return {
      headers: { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
    };
  }
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return {
    headers: {
      ...MCP_POST_HEADERS,
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': 'echo_text',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta } }),
  };
}

describe.each(['modern', 'legacy'] as const)('stateless HTTP keeps nothing per request (%s era)', (era) => {
  it(
    `serves ${REQUESTS} requests with the heap after GC within 2 MiB of where it began`,
    { timeout: 120_000 },
    async () => {
      // A logger that keeps nothing: the harness's memory logger would hold a line per call.
      const quiet = createLogger({ level: 'warn', write: () => {} });
      const { url } = await start([echo()], {}, { logger: quiet });
      const call = async (id: number) => {
        const response = await fetch(url, { method: 'POST', ...callRequest(era, id) });
        const text = await response.text();
        if (response.status !== 200 || !text.includes(`call ${id}`)) throw new Error(`call ${id}: ${text}`);
      };
      // Warm up: the first requests fill caches (JIT, the SDK's validators, the connection pool).
      for (let id = 0; id < 500; id += 1) await call(id);
      const before = await heapAfterGc();
      for (let id = 0; id < REQUESTS; id += 1) await call(id);
      const growth = (await heapAfterGc()) - before;
      expect(growth).toBeLessThan(HEAP_GROWTH_BOUND);
    },
  );
});
