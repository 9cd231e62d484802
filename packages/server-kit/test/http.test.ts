import { randomBytes } from 'node:crypto';
import { REDACTION_MARK } from '@switchyard/resilience';
import { afterEach, describe, expect, it } from 'vitest';
import { defineDomain, runServer, type CancelledRequest, type RunServerOptions } from '../src/index.js';
import { MODERN_PROTOCOL_VERSION, rawHttpRequest } from '../src/testing.js';
import { echoDomain, quietDomain, type EchoDomainOptions, type EchoState } from './fixtures/echo-domain.js';
import {
  httpTestHarness,
  INITIALIZE_BODY,
  logEntry,
  MCP_POST_HEADERS,
  memoryLogger,
  rawConnection,
  tempDir,
} from './helpers.js';

const TOKEN = 'test-token-0123456789abcdef';

const { servers, start, connectClient, initialize, closeAll } = httpTestHarness();
afterEach(closeAll);

const echo = (options: EchoDomainOptions = {}) => ({ domain: echoDomain(options), config: undefined });
const quiet = (name: string, options: Parameters<typeof quietDomain>[1] = {}) => ({
  domain: quietDomain(name, options),
  config: undefined,
});

/** A raw tools/list in either era, without any session header. */
function rawListTools(url: string, era: 'modern' | 'legacy', id: number) {
  const modern = era === 'modern';
  return rawHttpRequest(url, {
    method: 'POST',
    headers: {
      ...MCP_POST_HEADERS,
      ...(modern
        ? { 'mcp-protocol-version': MODERN_PROTOCOL_VERSION, 'mcp-method': 'tools/list' }
        : { 'mcp-protocol-version': '2025-06-18' }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/list',
      params: modern
        ? {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
              'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0.0.0' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          }
        : {},
    }),
  });
}

/** The JSON-RPC message of a response body, plain JSON or one SSE `data:` line. */
function jsonRpcBody(body: string): Record<string, unknown> {
  const data = /^data: (.*)$/m.exec(body)?.[1];
  return JSON.parse(data ?? body) as Record<string, unknown>;
}

// Logging is a 2025-era feature (2026-07-28 deprecates it, SEP-2577). logging/setLevel comes in a POST of its
// own, which a stateless server cannot remember: without it a call's messages go out at every level.
describe('runServer over Streamable HTTP, 2025-11-25 logging', () => {
  it("delivers a call's log messages on its own response stream", async () => {
    const { url } = await start([echo()]);
    const { client } = await connectClient(url, undefined, 'legacy');
    const logged: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logged.push(notification.params);
    });
    await client.callTool({ name: 'progress_count', arguments: { steps: 2 } });
    expect(logged).toEqual([
      { level: 'info', logger: 'echo', data: { step: 1 } },
      { level: 'info', logger: 'echo', data: { step: 2 } },
    ]);
  });
});

describe.each(['modern', 'legacy'] as const)('runServer over Streamable HTTP (%s era)', (era) => {
  it('serves tools, resources and progress to a real SDK client, without a session', async () => {
    const { url } = await start([echo()]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client, transport } = await connectClient(url, undefined, era);
    expect(transport.sessionId).toBeUndefined();

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

    const updates: number[] = [];
    const counted = await client.callTool(
      { name: 'progress_count', arguments: { steps: 2 } },
      { onprogress: (progress) => updates.push(progress.progress) },
    );
    expect(counted.structuredContent).toEqual({ steps: 2, progressEnabled: true });
    expect(updates).toEqual([1, 2]);
  });

  it('keeps no state between requests: two requests without a session header both work, none gets a session id', async () => {
    const { url } = await start([echo()]);
    const first = await rawListTools(url, era, 1);
    const second = await rawListTools(url, era, 2);
    for (const [answer, id] of [
      [first, 1],
      [second, 2],
    ] as const) {
      expect(answer.status).toBe(200);
      expect(answer.headers['mcp-session-id']).toBeUndefined();
      expect(jsonRpcBody(answer.body)).toMatchObject({ id, result: { tools: expect.any(Array) } });
    }
  });

  it('opens the domains once for the process, not per request', async () => {
    let opens = 0;
    const domain = echoDomain();
    const counted = defineDomain({ ...domain, open: (...args) => (opens++, domain.open(...args)) });
    const { url } = await start([{ domain: counted, config: undefined }]);
    const { client } = await connectClient(url, undefined, era);
    for (let call = 0; call < 3; call += 1) {
      await client.callTool({ name: 'echo_text', arguments: { text: `call ${call}` } });
    }
    expect(opens).toBe(1);
  });
});

describe('the /mcp endpoint', () => {
  it('issues no Mcp-Session-Id at initialize, and has no GET stream or DELETE (405)', async () => {
    const { url } = await start([echo()]);
    const opened = await initialize(url);
    expect(opened.status).toBe(200);
    expect(opened.headers['mcp-session-id']).toBeUndefined();
    for (const method of ['GET', 'DELETE']) {
      const answer = await rawHttpRequest(url, {
        method,
        headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      });
      expect({ method, status: answer.status }).toEqual({ method, status: 405 });
      expect(answer.headers.allow).toBe('POST');
    }
    // A session id a client remembers from an earlier, stateful server is not needed and not checked.
    const stale = await rawHttpRequest(url, {
      method: 'POST',
      headers: {
        ...MCP_POST_HEADERS,
        'mcp-session-id': 'no-such-session',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(stale.status).toBe(200);
  });

  it('refuses other methods, other content types and bad JSON with JSON-RPC errors', async () => {
    const { url } = await start([echo()]);
    const wrongMethod = await rawHttpRequest(url, { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
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
    expect(JSON.parse(badJson.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });
});

describe('health endpoints', () => {
  it('reports liveness, readiness per domain, and 404 for unknown paths', async () => {
    let betaReady = true;
    const { base } = await start([
      echo(),
      quiet('beta', { ready: () => betaReady }),
      quiet('gamma', {
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
    const { url, base, port } = await start([echo()]);
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
    const { url, port } = await start([echo()], { allowedHosts: ['mcp.example.com'] });
    expect((await initialize(url, { host: 'mcp.example.com' })).status).toBe(200);
    expect((await initialize(url, { host: `mcp.example.com:${port}` })).status).toBe(200);
    expect((await initialize(url, { host: `localhost:${port}` })).status).toBe(403);
  });

  it('refuses a foreign Origin and accepts the server’s own', async () => {
    const { url, port } = await start([echo()]);
    const foreign = await initialize(url, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('Origin');
    expect((await initialize(url, { origin: 'null' })).status).toBe(403);
    expect((await initialize(url, { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
  });

  it('hints at the allow-list beyond loopback, by the option name or by the name settingNames gives', async () => {
    const hint = (lines: string[]) => lines.map(logEntry).find((entry) => entry?.level === 'warn')?.msg;
    const embedded = await start([echo()], { host: '0.0.0.0', token: TOKEN });
    expect(hint(embedded.lines)).toBe(
      'no Host allow-list: set http.allowedHosts to the names clients use to reach this server',
    );
    const named = await start(
      [echo()],
      { host: '0.0.0.0', token: TOKEN },
      { settingNames: { 'http.allowedHosts': 'HOSTS_VARIABLE' } },
    );
    expect(hint(named.lines)).toMatch(/^no Host allow-list: set HOSTS_VARIABLE to /);
  });

  it('refuses an Origin when there is no Host to compare it with (an HTTP/1.0 request may omit Host)', async () => {
    // Bound beyond loopback without allowedHosts: no Host check, so the Origin check alone decides.
    const { port } = await start([echo()], { host: '0.0.0.0', token: TOKEN });
    const withOrigin = rawConnection(port);
    withOrigin.socket.write(`GET /healthz HTTP/1.0\r\nOrigin: http://127.0.0.1:${port}\r\n\r\n`);
    expect(await withOrigin.closed).toMatch(/^HTTP\/1\.\d 403 .*Origin/s);
    const withoutOrigin = rawConnection(port);
    withoutOrigin.socket.write('GET /healthz HTTP/1.0\r\n\r\n');
    expect(await withoutOrigin.closed).toMatch(/^HTTP\/1\.\d 200 /);
  });

  it('with allowedOrigins, accepts those (with CORS headers, preflight included) and refuses the rest', async () => {
    const { url } = await start([echo()], { allowedOrigins: ['https://app.example'] });
    const allowed = await initialize(url, { origin: 'https://app.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(allowed.headers['access-control-expose-headers']).toContain('Mcp-Protocol-Version');
    const preflight = await rawHttpRequest(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-method, mcp-name',
      },
    });
    expect(preflight.status).toBe(204);
    for (const header of ['Mcp-Protocol-Version', 'Mcp-Method', 'Mcp-Name']) {
      expect(preflight.headers['access-control-allow-headers']).toContain(header);
    }
    expect((await initialize(url, { origin: 'https://other.example' })).status).toBe(403);
  });
});

describe('bearer token', () => {
  it('is redacted from the log when a request carries it where it does not belong', async () => {
    // A token of this test's own: no other server in this file has registered it as a secret.
    const token = `operator-${randomBytes(16).toString('hex')}`;
    const { base, lines } = await start([echo()], { token });
    // A client that sends the token as its Host: the refusal logs the Host it got.
    const refused = await rawHttpRequest(`${base}/healthz`, { headers: { host: token } });
    expect(refused.status).toBe(403);
    const logged = lines.map(logEntry).find((entry) => entry?.msg === 'http request refused');
    expect(logged?.reason).toBe(`Host "${REDACTION_MARK}" is not allowed (DNS-rebinding protection)`);
    expect(lines.join('\n')).not.toContain(token);
  });

  it.each(['modern', 'legacy'] as const)(
    'answers 401 without the right token and lets the right one in as a token principal (%s era)',
    async (era) => {
      const { url, base, lines } = await start([echo()], { token: TOKEN });
      const missing = await initialize(url);
      expect(missing.status).toBe(401);
      expect(missing.headers['www-authenticate']).toBe('Bearer realm="switchyard"');
      expect((await initialize(url, { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
      expect((await initialize(url, { authorization: `Basic ${TOKEN}` })).status).toBe(401);
      expect((await initialize(url, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
      await expect(connectClient(url, undefined, era)).rejects.toThrow();

      const { client } = await connectClient(url, TOKEN, era);
      const result = await client.callTool({ name: 'echo_text', arguments: { text: 'authorized' } });
      const principal = (result.structuredContent as { principal: string }).principal;
      expect(principal).toMatch(/^client:token-[0-9a-f]{16}$/);
      expect(principal).not.toContain(TOKEN);

      // Health stays open (it reveals nothing secret); the token never reaches a log line.
      expect((await rawHttpRequest(`${base}/healthz`)).status).toBe(200);
      expect(lines.join('\n')).not.toContain(TOKEN);
    },
  );

  it('gives callers with different tokens different principals', async () => {
    const other = 'another-token-fedcba9876543210';
    const first = await start([echo()], { token: TOKEN });
    const second = await start([echo()], { token: other });
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
  const body = JSON.stringify(INITIALIZE_BODY);
  const padded = (size: number) => body + ' '.repeat(size - Buffer.byteLength(body));
  const post = (url: string, text: string) =>
    rawHttpRequest(url, { method: 'POST', headers: MCP_POST_HEADERS, body: text });

  it('defaults to 1 MiB: just under passes, just over gets 413', async () => {
    const { url } = await start([echo()]);
    expect((await post(url, padded(1024 * 1024))).status).toBe(200);
    const over = await post(url, padded(1024 * 1024 + 1));
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).error.message).toContain('1048576 bytes');
  });

  it('honours maxBodyBytes', async () => {
    const { url } = await start([echo()], { maxBodyBytes: 2048 });
    expect((await post(url, JSON.stringify({ ...INITIALIZE_BODY, padding: 'x'.repeat(3000) }))).status).toBe(
      413,
    );
    expect((await initialize(url)).status).toBe(200);
  });

  it('rises to the largest request a domain declares, and an explicit maxBodyBytes still wins', async () => {
    const domain = echoDomain();
    const big = {
      domain: defineDomain({ ...domain, maxRequestBytes: () => 2 * 1024 * 1024 }),
      config: undefined,
    };
    const { url } = await start([quiet('small'), big]);
    expect((await post(url, padded(2 * 1024 * 1024))).status).toBe(200);
    expect((await post(url, padded(2 * 1024 * 1024 + 1))).status).toBe(413);

    const capped = await start([big], { maxBodyBytes: 4096 });
    expect((await post(capped.url, padded(8192))).status).toBe(413);
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
    env: {},
  });

  it('refuses to bind a non-loopback address without a token', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'example.com']) {
      await expect(runServer([echo()], options({ host, port: 0 }))).rejects.toThrow(
        /refusing to listen on .* without a token.*set a bearer token/i,
      );
    }
  });

  it('binds all interfaces when a token is set', async () => {
    const server = await runServer([echo()], options({ host: '0.0.0.0', port: 0, token: TOKEN }));
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
  });

  it('rejects weak tokens and impossible ports or limits with a message that says what to fix', async () => {
    await expect(runServer([], options({ token: 'short' }))).rejects.toThrow(/at least 16 characters/);
    await expect(runServer([], options({ port: 70_000 }))).rejects.toThrow(/http\.port must be an integer/);
    await expect(runServer([], options({ port: 0, maxBodyBytes: 0 }))).rejects.toThrow(/maxBodyBytes/);
    await expect(runServer([], options({ port: 0, maxConnections: 0 }))).rejects.toThrow(
      'runServer: http.maxConnections must be a whole number of connections >= 1, got 0',
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

  it('fails fast on a tool name collision before opening or listening', async () => {
    const opened: string[] = [];
    const named = (name: string) => {
      const domain = echoDomain({ name });
      return {
        domain: defineDomain({ ...domain, open: (...args) => (opened.push(name), domain.open(...args)) }),
        config: undefined,
      };
    };
    await expect(runServer([named('one'), named('two')], options({ port: 0 }))).rejects.toThrow(
      /collision: "echo_text" is offered by both "one" and "two"/,
    );
    expect(opened).toEqual([]);
  });

  it('says which port is taken, and closes the domains it opened', async () => {
    const { port } = await start([echo()]);
    const closed: string[] = [];
    await expect(
      runServer([echo({ onClose: (name) => closed.push(name) })], options({ port: Number(port) })),
    ).rejects.toThrow(/port \d+ is already in use/);
    expect(closed).toEqual(['echo']);
  });
});

describe('graceful close on a connection already open', () => {
  it('answers a request that arrives after close began 503 "Server is shutting down" and closes the connection', async () => {
    let started!: () => void;
    const slowStarted = new Promise<void>((resolve) => (started = resolve));
    const { server, port } = await start(
      [echo({ onSlowStart: () => started() })],
      {},
      { shutdownGraceMs: 600_000 },
    );
    const connection = rawConnection(port);
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'slow_wait', arguments: { ms: 300 } },
    });
    const headers = Object.entries({ ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-06-18' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    connection.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}content-length: ${Buffer.byteLength(call)}\r\n\r\n${call}`,
    );
    await slowStarted;
    // The connection is busy, so close() leaves it open; the next request on it meets a server that is closing.
    const closing = server.close();
    connection.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const received = await connection.closed;
    const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toContain('waitedMs');
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(second).toContain('Server is shutting down');
    await closing;
  });
});

describe.each(['modern', 'legacy'] as const)('graceful close (%s era)', (era) => {
  function slowStartSignal() {
    let started!: () => void;
    const promise = new Promise<void>((resolve) => (started = resolve));
    return { promise, started };
  }

  it('lets an in-flight call finish, refuses new work, then closes domains in order (idempotent)', async () => {
    const closed: string[] = [];
    const slow = slowStartSignal();
    const mounts = [
      echo({ onClose: (name) => closed.push(name), onSlowStart: slow.started }),
      quiet('second', { onClose: (name) => closed.push(name) }),
      quiet('third', { onClose: (name) => closed.push(name) }),
    ];
    // A grace period longer than the test timeout: close() must finish because the call ended, not
    // because time ran out.
    const { server, url, base } = await start(mounts, {}, { shutdownGraceMs: 600_000 });
    const { client } = await connectClient(url, undefined, era);
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
    const { server, url } = await start([echo({ onSlowStart: slow.started })], {}, { shutdownGraceMs: 50 });
    const state = server.domains.get('echo') as EchoState;
    const { client } = await connectClient(url, undefined, era);
    const call = client.callTool({ name: 'slow_wait', arguments: { ms: 60_000 } });
    await slow.promise;
    await server.close();
    const result = await call;
    expect(result).toMatchObject({ isError: true, structuredContent: { error: { kind: 'cancelled' } } });
    expect(state.stats.slowAborted).toBe(1);
    expect(state.stats.closed).toBe(true);
  });
});

describe('closing domains', () => {
  it('closes every domain even when one fails, and reports the failure', async () => {
    const closed: string[] = [];
    const failing = defineDomain({
      ...quietDomain('failing'),
      open: () => ({ close: () => Promise.reject(new Error('disk full')) }),
    });
    const { server } = await start([
      { domain: failing, config: undefined },
      quiet('after', { onClose: (name) => closed.push(name) }),
    ]);
    await expect(server.close()).rejects.toThrow(/domain "failing" failed to close/);
    expect(closed).toEqual(['after']);
  });
});

describe('cancels over stateless HTTP', () => {
  it("a POST's notifications/cancelled, alone or in a batch, reaches every domain's cancelRequest with the caller's principal", async () => {
    const cancels: CancelledRequest[] = [];
    const relay = defineDomain({
      name: 'relay',
      version: '0.0.0',
      title: 'Relay',
      instructions: 'Records the cancels it is handed.',
      toolPrefix: 'relay',
      config: () => undefined,
      open: () => ({
        close: async () => undefined,
        cancelRequest: async (cancel: CancelledRequest) => void cancels.push(cancel),
      }),
      tools: [],
    });
    const { url } = await start([echo(), { domain: relay, config: undefined }], { token: TOKEN });
    const cancel = (requestId: unknown) => ({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId, reason: 'the user stopped it' },
    });
    const post = (body: unknown) =>
      rawHttpRequest(url, {
        method: 'POST',
        headers: {
          ...MCP_POST_HEADERS,
          'mcp-protocol-version': '2025-06-18',
          authorization: `Bearer ${TOKEN}`,
        },
        body: JSON.stringify(body),
      });
    expect((await post(cancel(7))).status).toBe(202);
    expect((await post([cancel('a'), { jsonrpc: '2.0', method: 'notifications/initialized' }])).status).toBe(
      202,
    );
    expect((await post(cancel({ not: 'an id' }))).status).toBe(202);
    const principal = cancels[0]?.principal;
    expect(principal).toMatch(/^client:/);
    expect(cancels).toEqual([
      { principal, requestId: '7' },
      { principal, requestId: '"a"' },
    ]);
  });
});
