// What one exchange puts on the wire and how it ends when the caller's signal aborts, through
// createUpstreamClient against a real loopback server.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createUpstreamClient, readJson } from '../src/index.js';
import { sendJson, serversClosedAfterEach } from './helpers/server.js';
import { eventually } from './helpers/wait.js';

const serve = serversClosedAfterEach();

const KEY = 'transport-test-key-8675309';

/** What a promise rejects with (a resolution fails the test). */
async function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error & { code?: string };
}

describe('one upstream exchange', () => {
  it('sends Host, the Content-Length of a body in bytes, and the headers fetch would add', async () => {
    const target = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    const send = createUpstreamClient({
      upstream: 'Digitransit',
      baseUrl: target.url,
      secretQuery: { app_key: KEY },
      secretHeaders: { 'X-Api-Key': KEY },
      headers: { 'User-Agent': 'switchyard-test' },
    });
    const host = new URL(target.url).host;

    await send('stops?text=Kamppi', { headers: { 'x-api-key': 'not-the-key' } });
    expect(target.requests[0]).toMatchObject({ method: 'GET', url: `/stops?text=Kamppi&app_key=${KEY}` });
    expect(target.requests[0]?.headers).toMatchObject({
      host,
      accept: '*/*',
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': 'switchyard-test',
      'x-api-key': KEY,
      connection: 'keep-alive',
    });
    expect(target.requests[0]?.headers['content-length']).toBeUndefined();
    expect(target.requests[0]?.headers['transfer-encoding']).toBeUndefined();

    await send('plan', { method: 'POST', body: 'Töölö' });
    expect(target.requests[1]).toMatchObject({ method: 'POST', url: `/plan?app_key=${KEY}`, body: 'Töölö' });
    expect(target.requests[1]?.headers).toMatchObject({
      host,
      'content-length': String(Buffer.byteLength('Töölö')),
      'content-type': 'text/plain;charset=UTF-8',
    });
    expect(target.requests[1]?.headers['transfer-encoding']).toBeUndefined();

    await send('plan', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'x/y' } });
    expect(target.requests[2]?.headers).toMatchObject({
      'content-length': '0',
      'content-type': 'application/json',
      accept: 'x/y',
    });
  });

  it("sends a URL's user and password as Basic authorization, as Node does for a URL", async () => {
    const target = await serve((_req, res) => sendJson(res, 200, {}));
    const send = createUpstreamClient({ upstream: 'GitHub', baseUrl: target.url });
    const url = new URL(target.url);
    url.username = 'us%20er';
    url.password = 'pa:ss';
    await send(new URL('repos', `${url.href}/`));
    expect(target.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('us er:pa:ss').toString('base64')}`,
    );
  });

  it('refuses an invalid header name or value as Node does, and sends nothing', async () => {
    const target = await serve((_req, res) => sendJson(res, 200, {}));
    const send = createUpstreamClient({ upstream: 'TfL', baseUrl: target.url });
    const badValue = await failure(send('a', { headers: { 'accept-language': 'fi\r\nx-injected: 1' } }));
    expect(badValue.code).toBe('ERR_INVALID_CHAR');
    expect(badValue.message).toBe('Invalid character in header content ["accept-language"]');
    const badName = await failure(send('a', { headers: { 'bad name': 'x' } }));
    expect(badName.code).toBe('ERR_INVALID_HTTP_TOKEN');
    expect(badName.message).toBe('Header name must be a valid HTTP token ["bad name"]');
    const absent = await failure(send('a', { headers: { 'x-absent': undefined as unknown as string } }));
    expect(absent.code).toBe('ERR_HTTP_INVALID_HEADER_VALUE');
    expect(target.requests).toHaveLength(0);
    // The client still works afterwards.
    expect((await send('a')).status).toBe(200);
  });
});

describe("an exchange whose caller's signal aborts", () => {
  const reason = new Error('the caller went away');

  it('before the request: rejects with an AbortError whose cause is the reason, and sends nothing', async () => {
    const target = await serve((_req, res) => sendJson(res, 200, {}));
    const send = createUpstreamClient({ upstream: 'TfL', baseUrl: target.url });
    const error = await failure(send('a', { signal: AbortSignal.abort(reason) }));
    expect(error).toMatchObject({
      name: 'AbortError',
      code: 'ABORT_ERR',
      message: 'The operation was aborted',
    });
    expect((error.cause as Error).message).toBe('the caller went away');
    expect((await send('b')).status).toBe(200);
    expect(target.requests.map((request) => request.url)).toEqual(['/b']);
  });

  it('while waiting for the head: rejects with that AbortError and the upstream sees the request aborted', async () => {
    const target = await serve(() => undefined);
    const send = createUpstreamClient({ upstream: 'TfL', baseUrl: target.url });
    const caller = new AbortController();
    const sent = send('hang', { signal: caller.signal });
    await eventually(() => expect(target.requests).toHaveLength(1));
    caller.abort(reason);
    const error = await failure(sent);
    expect(error).toMatchObject({
      name: 'AbortError',
      code: 'ABORT_ERR',
      message: 'The operation was aborted',
    });
    expect((error.cause as Error).message).toBe('the caller went away');
    await eventually(() => expect(target.requests[0]?.aborted).toBe(true));
  });

  it('while reading the body: rejects with the reason itself and the upstream sees the response cut off', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"journeys": [');
    });
    const send = createUpstreamClient({ upstream: 'TfL', baseUrl: target.url });
    const caller = new AbortController();
    const sent = send('slow', { signal: caller.signal });
    await eventually(() => expect(target.requests).toHaveLength(1));
    // Let the head and the first bytes arrive before the abort.
    await new Promise((resolve) => setTimeout(resolve, 50));
    caller.abort(reason);
    expect(await failure(sent)).toBe(reason);
    await eventually(() => expect(target.requests[0]?.aborted).toBe(true));
  });

  it('leaves no listener on a signal that outlives its exchanges', async () => {
    const target = await serve((req, res) => {
      if (req.url === '/fail') res.destroy();
      else if (req.url === '/moved') res.writeHead(302, { location: '/a' }).end();
      else sendJson(res, 200, { ok: true });
    });
    const send = createUpstreamClient({ upstream: 'TfL', baseUrl: target.url });
    const lifetime = new AbortController();
    for (let round = 0; round < 5; round += 1) {
      const answer = await send('a', { signal: lifetime.signal });
      expect(await readJson(answer, { upstream: 'TfL' })).toEqual({ ok: true });
      await send('moved', { signal: lifetime.signal });
      await failure(send('fail', { signal: lifetime.signal }));
    }
    await eventually(() => expect(getEventListeners(lifetime.signal, 'abort')).toHaveLength(0));
  });
});
