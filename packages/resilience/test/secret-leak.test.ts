import type { SwitchyardError } from '@switchyard/contracts/errors';
import { ClientError, GraphQLClient } from 'graphql-request';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertOk,
  classifyFailure,
  createUpstreamFetch,
  createUpstreamPolicy,
  readJson,
  type PolicyLogger,
} from '../src/index.js';
import { createUpstreamKy } from '../src/ky.js';
import { sendJson, startServer, type TestServer } from './helpers/server.js';
import { rejection } from './helpers/rejection.js';

const SENTINEL = 'SENTINEL-KEY-1234567890';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** An upstream that echoes the request URL and headers into a 500 body, as TfL's ApiError echoes relativeUri. */
async function echoingServer(): Promise<TestServer> {
  const server = await startServer((req, res) => {
    sendJson(res, 500, {
      $type: 'Tfl.Apps.Api.Core.Models.ApiError',
      httpStatusCode: 500,
      relativeUri: req.url,
      message: `Internal error while handling ${req.url} with ${JSON.stringify(req.headers)}`,
      headers: req.headers,
    });
  });
  servers.push(server);
  return server;
}

/** JSON of everything an error carries: Error props (own and inherited name/message/stack), causes, nested objects. */
function serializeDeep(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner === 'object' && inner !== null) {
      if (seen.has(inner)) return '[Circular]';
      seen.add(inner);
    }
    if (inner instanceof Error) {
      const out: Record<string, unknown> = { name: inner.name, message: inner.message, stack: inner.stack };
      for (const key of Object.getOwnPropertyNames(inner))
        out[key] = (inner as unknown as Record<string, unknown>)[key];
      if ('cause' in inner) out.cause = inner.cause;
      return out;
    }
    if (inner instanceof Headers) return Object.fromEntries(inner.entries());
    if (inner instanceof Request || inner instanceof Response)
      return { url: inner.url, type: inner.constructor.name };
    return inner;
  });
}

/** server-kit's logger shape, capturing raw JSON lines WITHOUT its redaction pass, so only our own care counts. */
function captureLogger(
  lines: string[],
): PolicyLogger & { error(message: string, fields?: Record<string, unknown>): void } {
  const log =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}): void => {
      lines.push(serializeDeep({ ts: new Date().toISOString(), level, msg: message, ...fields }));
    };
  return { info: log('info'), warn: log('warn'), error: log('error') };
}

function expectClean(error: SwitchyardError, lines: string[]): void {
  expect(error.message).not.toContain(SENTINEL);
  expect(error.stack ?? '').not.toContain(SENTINEL);
  expect(serializeDeep(error)).not.toContain(SENTINEL);
  expect(serializeDeep(error.details ?? {})).not.toContain(SENTINEL);
  for (const line of lines) expect(line).not.toContain(SENTINEL);
}

describe('the sentinel key never leaks', () => {
  it('through a REST call whose 500 body echoes the URL and headers (retried, logged)', async () => {
    const server = await echoingServer();
    const lines: string[] = [];
    const logger = captureLogger(lines);
    const client = await createUpstreamKy({
      upstream: 'TfL',
      baseUrl: server.url,
      secretQuery: { app_key: SENTINEL },
      secretHeaders: { app_key: SENTINEL },
    });
    const policy = createUpstreamPolicy({
      upstream: 'TfL',
      timeoutMs: 5000,
      retryBudgetMs: 1000,
      backoff: { initialDelayMs: 1, maxDelayMs: 5 },
      logger,
    });
    const error = await rejection(
      policy.execute(async (signal) => {
        const response = await client.get('Journey/JourneyResults/1000129/to/940GZZLUBNK?mode=tube', {
          signal,
        });
        await assertOk(response, { upstream: 'TfL' });
        return readJson(response, { upstream: 'TfL' });
      }),
    );
    logger.error('planJourney failed', { error, details: error.details });
    // The key really was sent, and really was echoed back.
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]?.url).toContain(`app_key=${SENTINEL}`);
    expect(server.requests[0]?.headers.app_key).toBe(SENTINEL);
    expect(error.kind).toBe('upstream-error');
    expect(error.upstreamStatus).toBe(500);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expectClean(error, lines);
  });

  it('through an operation that throws an error embedding the echoed body, URL and request', async () => {
    const server = await echoingServer();
    const lines: string[] = [];
    const logger = captureLogger(lines);
    const client = await createUpstreamKy({
      upstream: 'TfL',
      baseUrl: server.url,
      secretQuery: { app_key: SENTINEL },
    });
    const policy = createUpstreamPolicy({ upstream: 'TfL', timeoutMs: 5000, retryBudgetMs: 0, logger });
    const error = await rejection(
      policy.execute(async (signal) => {
        const response = await client.get('StopPoint', { signal });
        const text = await response.text();
        const url = `${server.url}/StopPoint?app_key=${SENTINEL}`;
        throw Object.assign(new Error(`Unexpected answer from ${url}: ${text}`, { cause: new Error(text) }), {
          url,
          request: new Request(url, { headers: { app_key: SENTINEL } }),
          body: text,
        });
      }),
    );
    logger.error('call failed', { error });
    expect(error.kind).toBe('internal');
    expect(error.message).toBe('Unexpected failure while calling TfL');
    expect(serializeDeep(error)).toContain('[REDACTED]');
    expectClean(error, lines);
  });

  it('through graphql-request, whose ClientError message embeds the whole response', async () => {
    const server = await echoingServer();
    const lines: string[] = [];
    const logger = captureLogger(lines);
    const upstreamFetch = createUpstreamFetch({
      upstream: 'Digitransit',
      baseUrl: server.url,
      secretHeaders: { 'digitransit-subscription-key': SENTINEL },
    });
    const client = new GraphQLClient(`${server.url}/routing/v2/hsl/gtfs/v1`, { fetch: upstreamFetch });
    const raw = await client.request('{ stop(id: "HSL:1") { name } }').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(raw).toBeInstanceOf(ClientError);
    // graphql-request itself copies the echoed key into its message: this is what must not get through.
    expect((raw as Error).message).toContain(SENTINEL);

    const policy = createUpstreamPolicy({
      upstream: 'Digitransit',
      timeoutMs: 5000,
      retryBudgetMs: 0,
      logger,
    });
    const error = await rejection(policy.execute(() => client.request('{ stop(id: "HSL:1") { name } }')));
    logger.error('get_departures failed', { error });
    expect(error.kind).toBe('upstream-error');
    expect(error.upstreamStatus).toBe(500);
    expect(error.message).toBe('Digitransit answered 500 Internal Server Error');
    expect(server.requests[0]?.headers['digitransit-subscription-key']).toBe(SENTINEL);
    expectClean(error, lines);
    expectClean(classifyFailure(raw, { upstream: 'Digitransit' }), lines);
  });

  it('through a network failure on a URL that holds the key', async () => {
    const lines: string[] = [];
    const client = await createUpstreamKy({
      upstream: 'GitHub',
      baseUrl: 'http://127.0.0.1:9',
      secretQuery: { token: SENTINEL },
      secretHeaders: { authorization: `token ${SENTINEL}` },
    });
    const policy = createUpstreamPolicy({ upstream: 'GitHub', timeoutMs: 5000, retryBudgetMs: 0 });
    const error = await rejection(
      policy.execute((signal) => client.get('repos/a/b', { signal }).then((r) => r.json())),
    );
    captureLogger(lines).error('failed', { error });
    expect(error.kind).toBe('network-error');
    expectClean(error, lines);
  });

  it("through ky's own error, caught from the client before any policy, for a URL that holds a credential", async () => {
    const server = await echoingServer();
    const client = await createUpstreamKy({ upstream: 'GitHub', baseUrl: server.url });
    // A call that asks ky to throw on the 500: ky's HTTPError names the request's method and URL, query
    // included, in its message and stack.
    const error = await client
      .get('repos/a/b', { searchParams: { access_token: SENTINEL }, throwHttpErrors: true })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(server.requests[0]?.url).toContain(`access_token=${SENTINEL}`);
    expect(error).toBeInstanceOf(Error);
    const { name, message, stack } = error as Error;
    expect(name).toBe('HTTPError');
    expect(message).toMatch(/status code 500.*: GET http:\/\/127\.0\.0\.1:\d+\/repos\/a\/b\?access_token=/);
    expect(message).not.toContain(SENTINEL);
    expect(stack ?? '').not.toContain(SENTINEL);
  });
});
