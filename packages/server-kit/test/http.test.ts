import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { runServer, type DomainModule, type RunServerOptions } from '../src/index.js';
import { rawHttpRequest } from '../src/testing.js';
import { createEchoModule, createQuietModule } from './fixtures/echo-module.js';
import { httpTestHarness, INITIALIZE_BODY, MCP_POST_HEADERS, memoryLogger, tempDir } from './helpers.js';

const TOKEN = 'test-token-0123456789abcdef';

const { servers, start, connectClient, initialize, closeAll } = httpTestHarness();
afterEach(closeAll);

describe('runServer over Streamable HTTP (stateful)', () => {
  it('serves tools, resources and progress to a real SDK client', async () => {
    const { url } = await start([createEchoModule()]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client, transport } = await connectClient(url);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['echo_text', 'progress_count', 'slow_wait']);
    const echoed = await client.callTool({ name: 'echo_text', arguments: { text: 'over http' } });
    expect(echoed.structuredContent).toMatchObject({
      text: 'over http',
      principal: expect.stringMatching(/^local:/),
    });
    const invalid = await client.callTool({ name: 'echo_text', arguments: { text: 7 } });
    expect(invalid).toMatchObject({ isError: true, structuredContent: { error: { kind: 'validation' } } });

    const read = await client.readResource({ uri: 'echo://info' });
    expect(read.contents[0]).toMatchObject({ uri: 'echo://info' });

    const updates: Progress[] = [];
    const counted = await client.callTool({ name: 'progress_count', arguments: { steps: 2 } }, undefined, {
      onprogress: (progress) => updates.push(progress),
    });
    expect(counted.structuredContent).toEqual({ steps: 2, progressEnabled: true });
    expect(updates.map((update) => update.progress)).toEqual([1, 2]);
  });

  it('registers the modules once per session and forgets a session on DELETE', async () => {
    const echo = createEchoModule();
    const { url } = await start([echo]);
    const before = echo.stats.registrations;
    const first = await connectClient(url);
    await connectClient(url);
    expect(echo.stats.registrations).toBe(before + 2);

    const sessionId = first.transport.sessionId!;
    await first.transport.terminateSession();
    const afterDelete = await rawHttpRequest(url, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(afterDelete.status).toBe(404);
    expect(afterDelete.body).toContain('Session not found');
  });

  it('answers 400 to a non-initialize request without a session and 404 to an unknown session', async () => {
    const { url } = await start([createEchoModule()]);
    const noSession = await rawHttpRequest(url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
    expect(JSON.parse(noSession.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    const unknown = await rawHttpRequest(url, {
      method: 'GET',
      headers: { 'mcp-session-id': 'no-such-session' },
    });
    expect(unknown.status).toBe(404);
    const wrongMethod = await rawHttpRequest(url, { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, POST, DELETE');
    const notJson = await rawHttpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(notJson.status).toBe(415);
    const badJson = await rawHttpRequest(url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: '{"jsonrpc":',
    });
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body)).toMatchObject({ error: { code: -32700 } });
  });
  it('expires sessions left idle without a stream, but keeps those with an open stream', async () => {
    const { url } = await start([createEchoModule()], { sessionIdleTimeoutMs: 50 });
    const { client } = await connectClient(url); // keeps its GET stream open
    const opened = await initialize(url); // a client that vanishes after initialize
    const sessionId = opened.headers['mcp-session-id'] as string;
    const list = () =>
      rawHttpRequest(url, {
        method: 'POST',
        headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    let status = (await list()).status;
    expect(status).toBe(200);
    while (status !== 404) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await list()).status;
    }
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
  });
});

describe('runServer over Streamable HTTP (stateless)', () => {
  it('serves each request with a fresh server and refuses GET', async () => {
    const echo = createEchoModule();
    const { url } = await start([echo], { stateless: true });
    const { client, transport } = await connectClient(url);
    expect(transport.sessionId).toBeUndefined();
    const before = echo.stats.registrations;
    const result = await client.callTool({ name: 'echo_text', arguments: { text: 'stateless' } });
    expect(result.structuredContent).toMatchObject({ text: 'stateless' });
    expect(echo.stats.registrations).toBe(before + 1);
    const get = await rawHttpRequest(url, { method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });
});

describe('health endpoints', () => {
  it('reports liveness, readiness per module, and 404 for unknown paths', async () => {
    let betaReady = true;
    const { base } = await start([
      createEchoModule(),
      createQuietModule('beta', { ready: () => betaReady }),
      createQuietModule('gamma', {
        ready: () => {
          if (!betaReady) throw new Error('database gone');
          return true;
        },
      }),
    ]);
    expect(await rawHttpRequest(`${base}/healthz`)).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(await rawHttpRequest(`${base}/readyz`)).toMatchObject({ status: 200, body: '{"status":"ready"}' });
    betaReady = false;
    const notReady = await rawHttpRequest(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(JSON.parse(notReady.body)).toEqual({ status: 'not-ready', notReady: ['beta', 'gamma'] });
    expect((await rawHttpRequest(`${base}/healthz`)).status).toBe(200);
    const unknown = await rawHttpRequest(`${base}/metrics`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('/mcp');
  });
});

describe('DNS-rebinding protection', () => {
  it('accepts only the loopback names on the bound port by default', async () => {
    const { url, base, port } = await start([createEchoModule()]);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      expect((await rawHttpRequest(`${base}/healthz`, { headers: { host } })).status).toBe(200);
    }
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `localhost:${Number(port) + 1}`,
      'localhost',
    ]) {
      const refused = await rawHttpRequest(`${base}/healthz`, { headers: { host } });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.message).toContain('not allowed');
    }
    expect((await initialize(url, { host: `attacker.example:${port}` })).status).toBe(403);
  });

  it('uses an explicit allowedHosts list instead of the default', async () => {
    const { url, port } = await start([createEchoModule()], { allowedHosts: ['mcp.example.com'] });
    expect((await initialize(url, { host: 'mcp.example.com' })).status).toBe(200);
    expect((await initialize(url, { host: `mcp.example.com:${port}` })).status).toBe(200);
    expect((await initialize(url, { host: `localhost:${port}` })).status).toBe(403);
  });

  it('refuses a foreign Origin and accepts the server’s own', async () => {
    const { url, port } = await start([createEchoModule()]);
    const foreign = await initialize(url, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('Origin');
    expect((await initialize(url, { origin: 'null' })).status).toBe(403);
    expect((await initialize(url, { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
  });

  it('with allowedOrigins, accepts those (with CORS headers, preflight included) and refuses the rest', async () => {
    const { url } = await start([createEchoModule()], { allowedOrigins: ['https://app.example'] });
    const allowed = await initialize(url, { origin: 'https://app.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(allowed.headers['access-control-expose-headers']).toContain('Mcp-Session-Id');
    const preflight = await rawHttpRequest(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-session-id',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('Mcp-Session-Id');
    expect((await initialize(url, { origin: 'https://other.example' })).status).toBe(403);
  });
});

describe('bearer token', () => {
  it('answers 401 without the right token and lets the right one in as a token principal', async () => {
    const { url, base, lines } = await start([createEchoModule()], { token: TOKEN });
    const missing = await initialize(url);
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="switchyard"');
    expect((await initialize(url, { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    expect((await initialize(url, { authorization: `Basic ${TOKEN}` })).status).toBe(401);
    expect((await initialize(url, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    await expect(connectClient(url)).rejects.toThrow();

    const { client } = await connectClient(url, TOKEN);
    const result = await client.callTool({ name: 'echo_text', arguments: { text: 'authorized' } });
    const principal = (result.structuredContent as { principal: string }).principal;
    expect(principal).toMatch(/^client:token-[0-9a-f]{16}$/);
    expect(principal).not.toContain(TOKEN);

    // Health stays open (it reveals nothing secret); the token never reaches a log line.
    expect((await rawHttpRequest(`${base}/healthz`)).status).toBe(200);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('gives callers with different tokens different principals', async () => {
    const other = 'another-token-fedcba9876543210';
    const first = await start([createEchoModule()], { token: TOKEN });
    const second = await start([createEchoModule()], { token: other });
    const a = await connectClient(first.url, TOKEN);
    const b = await connectClient(second.url, other);
    const pa = await a.client.callTool({ name: 'echo_text', arguments: { text: 'a' } });
    const pb = await b.client.callTool({ name: 'echo_text', arguments: { text: 'b' } });
    expect((pa.structuredContent as { principal: string }).principal).not.toBe(
      (pb.structuredContent as { principal: string }).principal,
    );
  });
});

describe('request body limit', () => {
  it('defaults to 1 MiB: just under passes, just over gets 413', async () => {
    const { url } = await start([createEchoModule()]);
    const body = JSON.stringify(INITIALIZE_BODY);
    const under = await rawHttpRequest(url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: body + ' '.repeat(1024 * 1024 - Buffer.byteLength(body)),
    });
    expect(under.status).toBe(200);
    const over = await rawHttpRequest(url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: body + ' '.repeat(1024 * 1024 + 1 - Buffer.byteLength(body)),
    });
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).error.message).toContain('1048576 bytes');
  });

  it('honours maxBodyBytes', async () => {
    const { url } = await start([createEchoModule()], { maxBodyBytes: 2048 });
    const big = await rawHttpRequest(url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: JSON.stringify({ ...INITIALIZE_BODY, padding: 'x'.repeat(3000) }),
    });
    expect(big.status).toBe(413);
    expect((await initialize(url)).status).toBe(200);
  });

  it('rises to the largest request a module declares, and an explicit maxBodyBytes still wins', async () => {
    const big = { ...createEchoModule(), maxRequestBytes: 2 * 1024 * 1024 };
    const { url } = await start([createQuietModule('small'), big]);
    const body = JSON.stringify(INITIALIZE_BODY);
    const padded = (size: number) => body + ' '.repeat(size - Buffer.byteLength(body));
    const accepted = await rawHttpRequest(url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: padded(2 * 1024 * 1024),
    });
    expect(accepted.status).toBe(200);
    const refused = await rawHttpRequest(url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: padded(2 * 1024 * 1024 + 1),
    });
    expect(refused.status).toBe(413);

    const capped = await start([big], { maxBodyBytes: 4096 });
    const tooBig = await rawHttpRequest(capped.url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: padded(8192),
    });
    expect(tooBig.status).toBe(413);
  });
});

describe('startup checks', () => {
  const options = (http: RunServerOptions['http']): RunServerOptions => ({
    name: 't',
    version: '0',
    transport: 'http',
    http,
    handleSignals: false,
    logger: memoryLogger().logger,
    dataDir: tempDir(),
  });

  it('refuses to bind a non-loopback address without a token', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'example.com']) {
      await expect(runServer([createEchoModule()], options({ host, port: 0 }))).rejects.toThrow(
        /refusing to listen on .* without a token.*set a bearer token/i,
      );
    }
  });

  it('binds all interfaces when a token is set', async () => {
    const server = await runServer([createEchoModule()], options({ host: '0.0.0.0', port: 0, token: TOKEN }));
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
  });

  it('rejects weak tokens and impossible ports or limits with a message that says what to fix', async () => {
    await expect(runServer([], options({ token: 'short' }))).rejects.toThrow(/at least 16 characters/);
    await expect(runServer([], options({ port: 70_000 }))).rejects.toThrow(/http\.port must be an integer/);
    await expect(runServer([], options({ port: 0, maxBodyBytes: 0 }))).rejects.toThrow(/maxBodyBytes/);
    await expect(runServer([], options({ port: 0, sessionIdleTimeoutMs: -1 }))).rejects.toThrow(
      /sessionIdleTimeoutMs/,
    );
    await expect(runServer([], options({ port: 0, allowedHosts: [] }))).rejects.toThrow(
      /allowedHosts is empty/,
    );
    await expect(runServer([], options({ port: 0, allowedHosts: ['bad host/'] }))).rejects.toThrow(
      /allowedHosts entry/,
    );
    await expect(runServer([], options({ port: 0, allowedOrigins: ['not an origin'] }))).rejects.toThrow(
      /allowedOrigins entry/,
    );
  });

  it('fails fast on a tool name collision before listening', async () => {
    await expect(
      runServer([createEchoModule({ name: 'one' }), createEchoModule({ name: 'two' })], options({ port: 0 })),
    ).rejects.toThrow(/collision: "echo_text" is registered by both "one" and "two"/);
  });

  it('says which port is taken', async () => {
    const { port } = await start([createEchoModule()]);
    await expect(runServer([createEchoModule()], options({ port: Number(port) }))).rejects.toThrow(
      /port \d+ is already in use/,
    );
  });
});

describe('graceful close', () => {
  function slowStartSignal() {
    let started!: () => void;
    const promise = new Promise<void>((resolve) => (started = resolve));
    return { promise, started };
  }

  it('lets an in-flight call finish, refuses new work, then closes modules in order (idempotent)', async () => {
    const closed: string[] = [];
    const slow = slowStartSignal();
    const modules = [
      createEchoModule({ onClose: (name) => closed.push(name), onSlowStart: slow.started }),
      createQuietModule('second', { onClose: (name) => closed.push(name) }),
      createQuietModule('third', { onClose: (name) => closed.push(name) }),
    ];
    // A grace period longer than the test timeout: close() must finish because the call ended, not
    // because time ran out (the client's idle GET stream must not count as in flight).
    const { server, url, base } = await start(modules, {}, { shutdownGraceMs: 600_000 });
    const { client } = await connectClient(url);
    const call = client.callTool({ name: 'slow_wait', arguments: { ms: 400 } });
    await slow.promise;

    const closing = server.close();
    expect(server.close()).toBe(closing);
    const refused = await rawHttpRequest(`${base}/healthz`).then(
      (response) => response.status,
      () => 'connection refused',
    );
    expect([503, 'connection refused']).toContain(refused);
    expect(closed).toEqual([]);

    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ waitedMs: 400 });
    await closing;
    expect(closed).toEqual(['echo', 'second', 'third']);
    await expect(rawHttpRequest(`${base}/healthz`)).rejects.toThrow();
  });

  it('aborts calls still running when the grace period ends, and they answer with an error', async () => {
    const slow = slowStartSignal();
    const echo = createEchoModule({ onSlowStart: slow.started });
    const { server, url } = await start([echo], {}, { shutdownGraceMs: 50 });
    const { client } = await connectClient(url);
    const call = client.callTool({ name: 'slow_wait', arguments: { ms: 60_000 } });
    await slow.promise;
    await server.close();
    const result = await call;
    expect(result).toMatchObject({ isError: true, structuredContent: { error: { kind: 'cancelled' } } });
    expect(echo.stats.slowAborted).toBe(1);
    expect(echo.stats.closed).toBe(true);
  });

  it('closes every module even when one fails, and reports the failure', async () => {
    const closed: string[] = [];
    const failing: DomainModule = {
      name: 'failing',
      version: '0',
      register() {},
      close: () => Promise.reject(new Error('disk full')),
    };
    const { server } = await start([failing, createQuietModule('after', { onClose: (n) => closed.push(n) })]);
    await expect(server.close()).rejects.toThrow(/module "failing" failed to close/);
    expect(closed).toEqual(['after']);
  });
});
