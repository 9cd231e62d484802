import type { ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { GraphQLClient } from 'graphql-request';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertOk,
  createUpstreamFetch,
  createUpstreamPolicy,
  DEFAULT_MAX_RESPONSE_BYTES,
  readJson,
} from '../src/index.js';
import { createUpstreamKy } from '../src/ky.js';
import { sendJson, startServer, type Handler, type TestServer } from './helpers/server.js';
import { eventually } from './helpers/wait.js';
import { rejection } from './helpers/rejection.js';

const LIMIT = 64 * 1024;
const CHUNK = Buffer.from(`{"padding":"${'x'.repeat(16 * 1024)}"},`);

const servers: TestServer[] = [];
/** Body bytes each streaming handler managed to write before the client went away. */
let written = 0;

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

afterEach(async () => {
  written = 0;
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Writes JSON-looking bytes until the client goes away (or `total` bytes), honouring backpressure. */
function streamBody(res: ServerResponse, total = Infinity): void {
  const pump = (): void => {
    while (!res.destroyed && written < total) {
      written += CHUNK.length;
      if (!res.write(CHUNK)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  res.write('{"data":[');
  pump();
}

function getJson(baseUrl: string, maxResponseBytes = LIMIT) {
  const client = createUpstreamKy({ upstream: 'TfL', baseUrl, maxResponseBytes });
  return async (signal?: AbortSignal): Promise<unknown> => {
    const response = await (await client).get('journey', signal === undefined ? {} : { signal });
    await assertOk(response, { upstream: 'TfL' });
    return readJson(response, { upstream: 'TfL' });
  };
}

describe('upstream response bodies are bounded', () => {
  it('stops an endless body at the limit: upstream-error "response too large", connection aborted', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      streamBody(res);
    });
    const error = await rejection(getJson(target.url)());
    expect(error.kind).toBe('upstream-error');
    expect(error.retryable).toBe(false);
    expect(error.upstreamStatus).toBe(200);
    expect(error.message).toBe('TfL sent a response too large: its body passed the limit of 65536 bytes');
    expect(error.details).toMatchObject({ reason: 'response too large', limitBytes: LIMIT });
    await eventually(() => expect(target.requests[0]?.aborted).toBe(true));
    // The server stopped at the socket buffers, not at the end of an endless body.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a Content-Length above the limit before reading the body', async () => {
    const announced = 200 * 1024 * 1024;
    const target = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(announced) });
      streamBody(res, announced);
    });
    const error = await rejection(getJson(target.url)());
    expect(error.message).toBe(
      `TfL sent a response too large: it announced ${announced} bytes, over the limit of 65536 bytes`,
    );
    expect(error.details).toMatchObject({ announcedBytes: announced, limitBytes: LIMIT });
    await eventually(() => expect(target.requests[0]?.aborted).toBe(true));
  });

  it('still classifies an error status by its status when its body is too large', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain', 'content-length': String(1024 * 1024 * 1024) });
      streamBody(res);
    });
    const error = await rejection(getJson(target.url)());
    expect(error.message).toBe('TfL answered 503 Service Unavailable');
  });

  it('reads a body of exactly the limit, and the default limit is 8 MiB', async () => {
    const body = { text: 'y'.repeat(LIMIT - '{"text":""}'.length) };
    const target = await serve((_req, res) => sendJson(res, 200, body));
    await expect(getJson(target.url)()).resolves.toEqual(body);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(8 * 1024 * 1024);
  });

  it('bounds graphql-request bodies too, and the policy does not repeat the request', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      streamBody(res);
    });
    const client = new GraphQLClient(`${target.url}/graphql`, {
      fetch: createUpstreamFetch({ upstream: 'Digitransit', baseUrl: target.url, maxResponseBytes: LIMIT }),
      method: 'POST',
    });
    const policy = createUpstreamPolicy({ upstream: 'Digitransit', timeoutMs: 10_000, retryBudgetMs: 3000 });
    const error = await rejection(policy.execute((signal) => client.request({ document: '{ a }', signal })));
    expect(error.message).toBe(
      'Digitransit sent a response too large: its body passed the limit of 65536 bytes',
    );
    expect(target.requests).toHaveLength(1);
  });

  it('asks for compressed answers and reads them decoded (gzip and br), as fetch does', async () => {
    const body = { journeys: ['Bank', 'Mile End'], padding: 'z'.repeat(4096) };
    const encoders = { gzip: gzipSync, br: brotliCompressSync };
    const target = await serve((req, res) => {
      const encoding = req.url?.includes('br') ? 'br' : 'gzip';
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(encoders[encoding](JSON.stringify(body)));
    });
    const client = await createUpstreamKy({ upstream: 'TfL', baseUrl: target.url, maxResponseBytes: LIMIT });
    for (const path of ['gzip', 'br']) {
      const response = await client.get(path);
      await expect(readJson(response, { upstream: 'TfL' })).resolves.toEqual(body);
    }
    expect(target.requests[0]?.headers['accept-encoding']).toMatch(/gzip/);
  });

  it('counts decoded bytes against the limit: a small compressed body cannot unpack past it', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const target = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    expect(bomb.length).toBeLessThan(LIMIT);
    const error = await rejection(getJson(target.url)());
    expect(error.message).toBe('TfL sent a response too large: its body passed the limit of 65536 bytes');
  });

  it('rejects a limit that is not a whole number of bytes', async () => {
    await expect(
      createUpstreamKy({ upstream: 'TfL', baseUrl: 'http://127.0.0.1', maxResponseBytes: 0 }),
    ).rejects.toThrow(/maxResponseBytes/);
  });
});
