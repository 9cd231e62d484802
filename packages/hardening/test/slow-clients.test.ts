import net from 'node:net';
import { rawHttpRequest } from '@switchyard/server-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, connectHttp } from '../src/harness/mcp-client.js';
import { troubleIn } from '../src/harness/server-log.js';
import { spawnSwitchyard, type SpawnedSwitchyard } from '../src/harness/switchyard.js';
import { removeTempDir, tempDir } from '../src/harness/temp.js';

/**
 * Slow clients against the HTTP stack (issue #34, section 6): a slow loris that sends its headers a byte at
 * a time, and a body that trickles in after complete headers. Node's `headersTimeout` and `requestTimeout`
 * (SWITCHYARD_HTTP_HEADERS_TIMEOUT_MS, SWITCHYARD_HTTP_REQUEST_TIMEOUT_MS) cut them: the request timeout
 * counts from the request's first byte until its body's last, also while body-parser reads the body in the
 * request handler. Meanwhile the server answers everyone else.
 */
const HEADERS_TIMEOUT_MS = 1_500;
const REQUEST_TIMEOUT_MS = 3_000;
/** Node checks both timeouts on an interval (http-server.ts: at most 1 s), and a loaded machine is late. */
const LATE_MS = 3_000;
/** Generous: an idle server answers these in a few milliseconds. */
const PROMPT_MS = 1_000;

let dataDir: string | undefined;
let server: SpawnedSwitchyard | undefined;

afterAll(async () => {
  await server?.stop();
  if (dataDir !== undefined) removeTempDir(dataDir);
});

/** A raw connection's fate: what the server sent, and when it closed (ms after the connection opened). */
interface SlowConnection {
  received: () => string;
  closedAfterMs: Promise<number>;
}

/**
 * Opens a connection, sends `head`, then one byte of `drip` every `intervalMs` until the server closes it;
 * after `giveUpAfterMs` the client closes it itself (the close then counts as never).
 */
function slowConnection(
  port: number,
  head: string,
  drip: string,
  intervalMs: number,
  giveUpAfterMs: number,
): SlowConnection {
  const openedAt = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  socket.write(head);
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(drip);
  }, intervalMs);
  const closedAfterMs = new Promise<number>((resolve) => {
    const giveUp = setTimeout(() => {
      resolve(Number.POSITIVE_INFINITY);
      socket.destroy();
    }, giveUpAfterMs);
    socket.once('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve(Date.now() - openedAt);
    });
  });
  return { received: () => received, closedAfterMs };
}

describe('slow clients (slowloris headers, a body that trickles)', () => {
  it('headers a byte at a time are cut at the header timeout, a trickling body at the request timeout; others are served meanwhile', async () => {
    dataDir = tempDir('slow-clients');
    server = await spawnSwitchyard({
      env: {
        SWITCHYARD_DATA_DIR: dataDir,
        SWITCHYARD_DOMAINS: 'journey',
        SWITCHYARD_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        SWITCHYARD_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      },
    });
    const port = Number(new URL(server.url).port);
    const host = `Host: 127.0.0.1:${port}\r\n`;
    // Headers that never end: a request line, then a header value growing by one byte every 100 ms.
    const lorises = Array.from({ length: 20 }, () =>
      slowConnection(
        port,
        `POST /mcp HTTP/1.1\r\n${host}X-Slow: `,
        'a',
        100,
        HEADERS_TIMEOUT_MS + 2 * LATE_MS,
      ),
    );
    // Complete headers announcing 100,000 bytes of body, then one byte every 200 ms (it would take 5.5 hours).
    const tricklers = Array.from({ length: 20 }, () =>
      slowConnection(
        port,
        `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\n` +
          `Accept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n[`,
        ' ',
        200,
        REQUEST_TIMEOUT_MS + 2 * LATE_MS,
      ),
    );

    // While they hold their connections, other clients get their answers promptly.
    const client = await connectHttp(server.url);
    const slowest = { healthz: 0, toolCall: 0 };
    for (let round = 0; round < 5; round += 1) {
      let started = Date.now();
      const health = await rawHttpRequest(`http://127.0.0.1:${port}/healthz`, { method: 'GET' });
      slowest.healthz = Math.max(slowest.healthz, Date.now() - started);
      expect(health.status).toBe(200);
      started = Date.now();
      const answer = await callTool(client, 'get_or_create_journey', {});
      slowest.toolCall = Math.max(slowest.toolCall, Date.now() - started);
      expect(answer.isError).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    await client.close();

    const lorisClosed = await Promise.all(lorises.map((connection) => connection.closedAfterMs));
    const tricklerClosed = await Promise.all(tricklers.map((connection) => connection.closedAfterMs));
    console.log(
      `slow clients: header lorises closed after ${Math.min(...lorisClosed)}-${Math.max(...lorisClosed)} ms ` +
        `(timeout ${HEADERS_TIMEOUT_MS}), trickling bodies after ${Math.min(...tricklerClosed)}-` +
        `${Math.max(...tricklerClosed)} ms (timeout ${REQUEST_TIMEOUT_MS}); meanwhile /healthz took at most ` +
        `${slowest.healthz} ms, a tool call ${slowest.toolCall} ms`,
    );
    for (const closedAfter of lorisClosed) {
      expect(closedAfter).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS);
      expect(closedAfter).toBeLessThan(HEADERS_TIMEOUT_MS + LATE_MS);
    }
    for (const closedAfter of tricklerClosed) {
      expect(closedAfter).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS);
      expect(closedAfter).toBeLessThan(REQUEST_TIMEOUT_MS + LATE_MS);
    }
    for (const connection of [...lorises, ...tricklers])
      expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(slowest.healthz).toBeLessThan(PROMPT_MS);
    expect(slowest.toolCall).toBeLessThan(PROMPT_MS);
    expect(troubleIn(server.lines())).toEqual({ errors: [], defects: [] });
  });
});
