import { GraphQLClient } from 'graphql-request';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  assertOk,
  createUpstreamClient,
  createUpstreamFetch,
  createUpstreamPolicy,
  graphqlErrorsToError,
  readJson,
  withCorrelationId,
} from '../src/index.js';
import { createUpstreamKy } from '../src/ky.js';
import { sendJson, serversClosedAfterEach } from './helpers/server.js';
import { eventually } from './helpers/wait.js';
import { rejection } from './helpers/rejection.js';

const serve = serversClosedAfterEach();

afterEach(() => {
  vi.useRealTimers();
});

const KEY = 'http-test-key-5551234';

describe('createUpstreamKy', () => {
  it('adds the secret query and headers, default headers and keeps the request query', async () => {
    const target = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    const client = await createUpstreamKy({
      upstream: 'TfL',
      baseUrl: `${target.url}/base`,
      secretQuery: { app_key: KEY },
      secretHeaders: { 'x-api-key': KEY },
      headers: { 'user-agent': 'switchyard-test' },
    });
    const response = await client.get('Journey/JourneyResults/a/to/b?mode=tube', {
      headers: { 'accept-language': 'en' },
    });
    expect(await response.json()).toEqual({ ok: true });
    const seen = target.requests[0];
    expect(seen?.url).toBe(`/base/Journey/JourneyResults/a/to/b?mode=tube&app_key=${KEY}`);
    expect(seen?.headers['x-api-key']).toBe(KEY);
    expect(seen?.headers['user-agent']).toBe('switchyard-test');
    expect(seen?.headers['accept-language']).toBe('en');
    // The Response handed back does not carry the key in its URL.
    expect(response.url).not.toContain(KEY);
  });

  it('sends x-correlation-id inside withCorrelationId, and none outside', async () => {
    const target = await serve((_req, res) => sendJson(res, 200, {}));
    const client = await createUpstreamKy({ upstream: 'TfL', baseUrl: target.url });
    await withCorrelationId('7d4a1c3e-0000-4000-8000-000000000001', () => client.get('a'));
    await client.get('b');
    expect(target.requests[0]?.headers['x-correlation-id']).toBe('7d4a1c3e-0000-4000-8000-000000000001');
    expect(target.requests[1]?.headers['x-correlation-id']).toBeUndefined();
  });

  it('does not retry by itself and returns HTTP errors instead of throwing', async () => {
    const target = await serve((_req, res) => sendJson(res, 503, {}));
    const client = await createUpstreamKy({ upstream: 'TfL', baseUrl: target.url });
    const response = await client.get('x');
    expect(response.status).toBe(503);
    expect(target.requests).toHaveLength(1);
  });

  it('follows a same-origin redirect with the key and a cross-origin one without it', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, { where: 'elsewhere' }));
    const home = await serve((req, res) => {
      if (req.url?.startsWith('/moved')) {
        res.writeHead(301, { location: '/new?x=1' }).end();
      } else if (req.url?.startsWith('/away')) {
        res.writeHead(302, { location: `${elsewhere.url}/landing?app_key=${KEY}&keep=1` }).end();
      } else sendJson(res, 200, { where: 'home' });
    });
    const client = await createUpstreamKy({
      upstream: 'GitHub',
      baseUrl: home.url,
      secretQuery: { app_key: KEY },
      secretHeaders: { authorization: `token ${KEY}`, 'x-api-key': KEY },
    });
    expect(await (await client.get('moved')).json()).toEqual({ where: 'home' });
    expect(home.requests[1]?.url).toBe(`/new?x=1&app_key=${KEY}`);
    expect(home.requests[1]?.headers['x-api-key']).toBe(KEY);

    expect(await (await client.get('away')).json()).toEqual({ where: 'elsewhere' });
    const landed = elsewhere.requests[0];
    expect(landed?.url).toBe('/landing?keep=1');
    expect(JSON.stringify(landed?.headers)).not.toContain(KEY);
  });

  it("drops the caller's own authorization and cookie on a cross-origin redirect, keeps them on the same origin", async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, { where: 'elsewhere' }));
    const home = await serve((req, res) => {
      if (req.url === '/moved') res.writeHead(301, { location: '/new' }).end();
      else if (req.url === '/away') res.writeHead(302, { location: `${elsewhere.url}/landing` }).end();
      else sendJson(res, 200, { where: 'home' });
    });
    const client = await createUpstreamKy({ upstream: 'GitHub', baseUrl: home.url });
    const headers = { authorization: 'Bearer caller-token-31337', cookie: 'session=caller-cookie' };
    await client.get('moved', { headers });
    expect(home.requests[1]?.headers).toMatchObject(headers);
    await client.get('away', { headers });
    expect(elsewhere.requests[0]?.headers.authorization).toBeUndefined();
    expect(elsewhere.requests[0]?.headers.cookie).toBeUndefined();
  });

  it('follows at most 20 redirects, then fails as upstream-error', async () => {
    const loop = await serve((req, res) => {
      res.writeHead(302, { location: req.url ?? '/' }).end();
    });
    const client = await createUpstreamKy({ upstream: 'TfL', baseUrl: loop.url });
    const error = await rejection(client.get('again'));
    expect(error).toMatchObject({ kind: 'upstream-error', message: 'TfL redirected more than 20 times' });
    expect(loop.requests).toHaveLength(21);
  });

  it('registers secret header values, so an upstream echoing one in its message never shows it', async () => {
    const headerKey = 'header-only-key-8675309';
    const target = await serve((_req, res) =>
      sendJson(res, 401, { message: `Access denied due to invalid subscription key ${headerKey}` }),
    );
    const client = await createUpstreamKy({
      upstream: 'Digitransit',
      baseUrl: target.url,
      secretHeaders: { 'digitransit-subscription-key': headerKey },
    });
    const error = await rejection(assertOk(await client.get('x'), { upstream: 'Digitransit' }));
    expect(error.details?.upstreamMessage).toBe('Access denied due to invalid subscription key [REDACTED]');
    expect(JSON.stringify(error)).not.toContain(headerKey);
  });
});

describe('createUpstreamFetch with graphql-request', () => {
  const query = 'query Stop($id: String!) { stop(id: $id) { name } }';

  it('sends the key header and correlation id to the base origin only', async () => {
    const target = await serve((_req, res) => sendJson(res, 200, { data: { stop: { name: 'Kamppi' } } }));
    const other = await serve((_req, res) => sendJson(res, 200, { data: { stop: null } }));
    const upstreamFetch = createUpstreamFetch({
      upstream: 'Digitransit',
      baseUrl: target.url,
      secretHeaders: { 'digitransit-subscription-key': KEY },
      headers: { 'user-agent': 'switchyard-test', 'accept-language': 'fi' },
    });
    const client = new GraphQLClient(`${target.url}/routing/v2/hsl/gtfs/v1`, {
      fetch: upstreamFetch,
      headers: { 'accept-language': 'sv' },
    });
    const data = await withCorrelationId('7d4a1c3e-0000-4000-8000-000000000002', () =>
      client.request<{ stop: { name: string } }>(query, { id: 'HSL:1040129' }),
    );
    expect(data).toEqual({ stop: { name: 'Kamppi' } });
    const seen = target.requests[0];
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/routing/v2/hsl/gtfs/v1');
    expect(seen?.headers['digitransit-subscription-key']).toBe(KEY);
    expect(seen?.headers['x-correlation-id']).toBe('7d4a1c3e-0000-4000-8000-000000000002');
    expect(seen?.headers['user-agent']).toBe('switchyard-test');
    expect(seen?.headers['accept-language']).toBe('sv'); // the request's own header wins over a default
    expect(JSON.parse(seen?.body ?? '{}')).toMatchObject({ query, variables: { id: 'HSL:1040129' } });

    await new GraphQLClient(`${other.url}/graphql`, { fetch: upstreamFetch }).request(query, { id: 'x' });
    expect(other.requests[0]?.headers['digitransit-subscription-key']).toBeUndefined();
  });

  it('turns GraphQL errors (HTTP 200) into upstream-error', async () => {
    const target = await serve((_req, res) =>
      sendJson(res, 200, {
        errors: [
          {
            message: 'Validation error of type FieldUndefined',
            extensions: { classification: 'ValidationError' },
          },
        ],
        data: null,
      }),
    );
    const client = new GraphQLClient(`${target.url}/gql`, {
      fetch: createUpstreamFetch({ upstream: 'Digitransit', baseUrl: target.url }),
      errorPolicy: 'all',
    });
    const policy = createUpstreamPolicy({ upstream: 'Digitransit', timeoutMs: 5000, retryBudgetMs: 1000 });
    const error = await rejection(
      policy.execute(async (signal) => {
        const result = await client.rawRequest({ query, variables: { id: 'x' }, signal });
        if (result.errors !== undefined && result.errors.length > 0) {
          throw graphqlErrorsToError(result.errors, { upstream: 'Digitransit' });
        }
        return result.data;
      }),
    );
    expect(error.kind).toBe('upstream-error');
    expect(error.message).toBe(
      'Digitransit answered with GraphQL errors: Validation error of type FieldUndefined',
    );
    expect(target.requests).toHaveLength(1);
  });

  it("classifies graphql-request's own ClientError for errors[] and for a 429", async () => {
    const target = await serve((_req, res, _seen, index) =>
      index === 0
        ? sendJson(res, 200, { errors: [{ message: 'Unknown argument "foo"' }], data: null })
        : sendJson(res, 429, { statusCode: 429, message: 'Rate limit is exceeded. Try again in 9 seconds.' }),
    );
    const client = new GraphQLClient(`${target.url}/gql`, {
      fetch: createUpstreamFetch({ upstream: 'Digitransit', baseUrl: target.url }),
    });
    const policy = createUpstreamPolicy({ upstream: 'Digitransit', timeoutMs: 5000, retryBudgetMs: 1000 });
    const graphqlError = await rejection(policy.execute(() => client.request(query, { id: 'x' })));
    expect(graphqlError.kind).toBe('upstream-error');
    expect(graphqlError.message).toBe('Digitransit answered with GraphQL errors: Unknown argument "foo"');

    const limited = await rejection(policy.execute(() => client.request(query, { id: 'x' })));
    expect(limited.kind).toBe('rate-limited');
    expect(limited.retryAfterMs).toBe(9000);
    expect(target.requests).toHaveLength(2);
  });

  it("passes the policy's signal through, so a timed-out GraphQL request is really aborted", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const target = await serve(() => {
      // never answers
    });
    const client = new GraphQLClient(`${target.url}/gql`, {
      fetch: createUpstreamFetch({ upstream: 'Digitransit', baseUrl: target.url }),
    });
    const policy = createUpstreamPolicy({
      upstream: 'Digitransit',
      timeoutMs: 5000,
      retryBudgetMs: 0,
      maxAttempts: 1,
    });
    const call = rejection(
      policy.execute((signal) => client.request({ document: query, variables: { id: 'x' }, signal })),
    );
    await eventually(() => expect(target.requests).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(5000);
    expect((await call).kind).toBe('upstream-timeout');
    await eventually(() => expect(target.requests[0]?.aborted).toBe(true));
  });
});

describe('createUpstreamClient', () => {
  it("sends a URL object as it is and never changes it or the caller's headers, across redirects", async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, { where: 'elsewhere' }));
    const home = await serve((req, res) => {
      if (req.url?.startsWith('/moved')) res.writeHead(301, { location: '/new' }).end();
      else if (req.url?.startsWith('/away'))
        res.writeHead(303, { location: `${elsewhere.url}/landing` }).end();
      else sendJson(res, 200, { where: 'home' });
    });
    const send = createUpstreamClient({
      upstream: 'GitHub',
      baseUrl: home.url,
      secretQuery: { app_key: KEY },
      secretHeaders: { 'x-api-key': KEY },
    });
    const moved = new URL(`${home.url}/moved?x=1`);
    const headers = { 'content-type': 'application/json', authorization: 'Bearer caller-token-31337' };
    const asSent = { ...headers };
    expect((await send(moved, { headers })).status).toBe(200);
    expect(home.requests.map((r) => r.url)).toEqual([`/moved?x=1&app_key=${KEY}`, `/new?app_key=${KEY}`]);
    expect(moved.href).toBe(`${home.url}/moved?x=1`);

    const away = new URL(`${home.url}/away`);
    expect((await send(away, { method: 'POST', headers, body: '{}' })).status).toBe(200);
    // The 303 turned the POST into a GET and the other origin got neither the key nor the caller's credential.
    expect(elsewhere.requests[0]).toMatchObject({ method: 'GET', url: '/landing' });
    expect(elsewhere.requests[0]?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(elsewhere.requests[0]?.headers)).not.toContain(KEY);
    expect(away.href).toBe(`${home.url}/away`);
    expect(headers).toEqual(asSent);
  });

  it('keeps its connections alive: 16 requests at once, round after round, open at most 16', async () => {
    let connections = 0;
    const upstream = createServer((_req, res) => sendJson(res, 200, { ok: true }));
    upstream.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = upstream.address() as AddressInfo;
      const send = createUpstreamClient({ upstream: 'Digitransit', baseUrl: `http://127.0.0.1:${port}` });
      for (let round = 0; round < 10; round += 1) {
        const answers = await Promise.all(Array.from({ length: 16 }, () => send('search?text=Kamppi')));
        for (const answer of answers)
          expect(await readJson(answer, { upstream: 'Digitransit' })).toEqual({ ok: true });
      }
      expect(connections).toBeGreaterThan(0);
      expect(connections).toBeLessThanOrEqual(16);
    } finally {
      upstream.closeAllConnections();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });
});

describe('readJson and assertOk', () => {
  it('reads JSON and reports malformed or empty bodies as upstream-error', async () => {
    const target = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/good') res.end('{"a":[1,2]}');
      else if (req.url === '/empty') res.end('');
      else res.end('{"journeys": [ {"duration": 12');
    });
    const client = await createUpstreamKy({ upstream: 'TfL', baseUrl: target.url });
    await expect(readJson(await client.get('good'), { upstream: 'TfL' })).resolves.toEqual({ a: [1, 2] });

    const malformed = await rejection(readJson(await client.get('truncated'), { upstream: 'TfL' }));
    expect(malformed.kind).toBe('upstream-error');
    expect(malformed.message).toBe('TfL sent a malformed response (invalid JSON)');
    expect(malformed.retryable).toBe(false);

    const empty = await rejection(readJson(await client.get('empty'), { upstream: 'TfL' }));
    expect(empty.message).toBe('TfL sent a malformed response (empty body)');
  });

  it('reports a connection reset in the middle of the body as network-error', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"journeys": [');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const client = await createUpstreamKy({ upstream: 'TfL', baseUrl: target.url });
    const response = await client.get('x');
    const error = await rejection(readJson(response, { upstream: 'TfL' }));
    expect(error.kind).toBe('network-error');
    expect(error.message).toBe('Could not reach TfL: the connection closed before the response was complete');
  });

  it('assertOk passes 2xx through and classifies the rest with a bounded read of the body', async () => {
    const big = 'x'.repeat(2_000_000);
    const target = await serve((req, res) => {
      if (req.url === '/ok') sendJson(res, 200, { fine: true });
      else if (req.url === '/big') sendJson(res, 502, { message: 'gateway', filler: big });
      else
        sendJson(res, 429, { statusCode: 429, message: 'Rate limit is exceeded. Try again in 7 seconds.' });
    });
    const client = await createUpstreamKy({ upstream: 'TfL', baseUrl: target.url });
    const ok = await client.get('ok');
    expect(await assertOk(ok, { upstream: 'TfL' })).toBe(ok);

    const limited = await rejection(assertOk(await client.get('limited'), { upstream: 'TfL' }));
    expect(limited.kind).toBe('rate-limited');
    expect(limited.retryAfterMs).toBe(7000);

    const bad = await rejection(assertOk(await client.get('big'), { upstream: 'TfL' }));
    expect(bad.kind).toBe('upstream-error');
    expect(bad.message).toBe('TfL answered 502 Bad Gateway');
    // Only the first 16 KiB were read: not enough to parse, so no upstream message is kept.
    expect(bad.details).toEqual({ upstream: 'TfL', status: 502 });
  });
});
