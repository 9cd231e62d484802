import http from 'node:http';
import type net from 'node:net';
import { importJWK, SignJWT, type JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OAuthOptions } from '../src/http/oauth-settings.js';
import type { RunServerOptions } from '../src/index.js';
import { MODERN_PROTOCOL_VERSION, rawHttpRequest } from '../src/testing.js';
import { echoDomain } from './fixtures/echo-domain.js';
import { notesDomain } from './fixtures/notes-domain.js';
import {
  CLIENTS,
  newSigningKey,
  startTestProvider,
  type TestProvider,
} from '@switchyard/upstream-mocks/oidc';
import { httpTestHarness, logEntry, MCP_POST_HEADERS } from './helpers.js';
import { freePort } from '../src/testing.js';

const SCOPES = ['echo:read', 'echo:write', 'other:read', 'notes:read', 'notes:write'];
const STATIC_TOKEN = 'static-token-0123456789abcdef';

const { start, connectClient, initialize, closeAll } = httpTestHarness();
afterEach(closeAll);

let provider: TestProvider;
let untrusted: TestProvider;
beforeAll(async () => {
  [provider, untrusted] = await Promise.all([
    startTestProvider({ scopes: SCOPES }),
    startTestProvider({ scopes: SCOPES }),
  ]);
});
afterAll(async () => {
  await Promise.all([provider.close(), untrusted.close()]);
});

const echo = () => ({ domain: echoDomain(), config: undefined });
const notes = () => ({ domain: notesDomain(), config: undefined });

/** A server trusting `provider`, whose resource URI is its own /mcp URL, serving `mounts` (the echo domain). */
async function startProtected(
  http: NonNullable<RunServerOptions['http']> = {},
  mounts: Parameters<typeof start>[0] = [echo()],
) {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const started = await start(mounts, {
    port,
    ...http,
    oauth: { issuers: [provider.issuer], resourceUrl: resource, jwksCooldownMs: 0, ...http.oauth },
  });
  return {
    ...started,
    resource,
    metadataUrl: `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`,
  };
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** A raw `tools/call` (modern era headers), to read the HTTP status and headers of the answer. */
function rawCall(url: string, token: string, name: string, args: Record<string, unknown> = { text: 'x' }) {
  return rawHttpRequest(url, {
    method: 'POST',
    headers: {
      ...MCP_POST_HEADERS,
      ...bearer(token),
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name, arguments: args },
    }),
  });
}

/** A token signed with the provider's own key (or `key`), with claims a provider would not issue. */
async function handSigned(claims: JWTPayload, key = provider.signingKey): Promise<string> {
  return new SignJWT({ scope: 'echo:read', client_id: 'hand', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
    .sign(await importJWK(key.privateJwk, 'RS256'));
}

function baseClaims(resource: string, overrides: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iss: provider.issuer, aud: resource, sub: 'hand-user', iat: now, exp: now + 300, ...overrides };
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The reason categories the server logged for refused requests. */
function refusalReasons(lines: string[]): unknown[] {
  return lines
    .map(logEntry)
    .filter((entry) => entry?.msg === 'http request refused' || entry?.message === 'http request refused')
    .map((entry) => entry?.reason);
}

describe('OAuth resource server', () => {
  it('answers a request without a token with 401 and where to find the authorization server', async () => {
    const { url, metadataUrl } = await startProtected();
    const answer = await initialize(url);
    expect(answer.status).toBe(401);
    const challenge = answer.headers['www-authenticate'];
    expect(challenge).toBe(`Bearer resource_metadata="${metadataUrl}", scope="echo:read"`);
    expect(challenge).not.toContain('error=');
  });

  it('publishes Protected Resource Metadata at the path-suffixed and the root well-known URL', async () => {
    const { base, resource, metadataUrl } = await startProtected();
    for (const address of [metadataUrl, `${base}/.well-known/oauth-protected-resource`]) {
      const answer = await rawHttpRequest(address);
      expect(answer.status, address).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({
        resource,
        authorization_servers: [provider.issuer],
        scopes_supported: ['echo:read'],
        bearer_methods_supported: ['header'],
        resource_name: 'Switchyard MCP server',
      });
    }
    // Only there, and only to GET: other paths keep their own answers, a POST to it is not a read.
    expect(await rawHttpRequest(`${base}/healthz`)).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource/other',
    ]) {
      expect((await rawHttpRequest(`${base}${path}`)).status, path).toBe(404);
    }
    const posted = await rawHttpRequest(metadataUrl, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: '{}',
    });
    expect(posted.status).toBe(404);
  });

  it('lets a valid token call a tool, as the token subject, and never logs the token', async () => {
    const { url, resource, lines } = await startProtected();
    const token = await provider.clientCredentialsToken({ scope: 'echo:read', resource });
    const { client } = await connectClient(url, token);
    const result = await client.callTool({ name: 'echo_text', arguments: { text: 'hello' } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { principal: string }).principal).toBe('oauth:service-client');
    expect(lines.join('\n')).not.toContain(token);
  });

  it.each([
    [
      'a token for another resource',
      'wrong-audience',
      async () => provider.clientCredentialsToken({ scope: 'echo:read', resource: 'http://127.0.0.1:1/mcp' }),
    ],
    [
      'a token from an untrusted issuer',
      'unknown-issuer',
      async (resource: string) => untrusted.clientCredentialsToken({ scope: 'echo:read', resource }),
    ],
    [
      'an expired token (past the clock skew)',
      'expired',
      async (resource: string) =>
        handSigned(baseClaims(resource, { exp: Math.floor(Date.now() / 1000) - 120 })),
    ],
    [
      'a token not valid yet (past the clock skew)',
      'not-yet-valid',
      async (resource: string) =>
        handSigned(baseClaims(resource, { nbf: Math.floor(Date.now() / 1000) + 120 })),
    ],
    [
      'a token without a subject',
      'missing-claim',
      async (resource: string) => handSigned(baseClaims(resource, { sub: undefined })),
    ],
    [
      'a token whose subject is a number',
      'malformed',
      async (resource: string) => handSigned(baseClaims(resource, { sub: 42 as unknown as string })),
    ],
    [
      'a token whose subject is an object',
      'malformed',
      async (resource: string) =>
        handSigned(baseClaims(resource, { sub: { id: 'alice' } as unknown as string })),
    ],
    [
      'a token whose subject is empty',
      'malformed',
      async (resource: string) => handSigned(baseClaims(resource, { sub: '' })),
    ],
    [
      'a token without an expiry',
      'missing-claim',
      async (resource: string) => handSigned(baseClaims(resource, { exp: undefined })),
    ],
    [
      'a token signed by another key under the same key id',
      'bad-signature',
      async (resource: string) =>
        handSigned(baseClaims(resource), { ...(await newSigningKey(provider.signingKey.kid)) }),
    ],
    [
      'a token signed by a key the issuer does not publish',
      'unknown-key',
      async (resource: string) => handSigned(baseClaims(resource), await newSigningKey('stranger')),
    ],
    [
      'an unsigned token (alg none)',
      'algorithm-not-allowed',
      async (resource: string) =>
        `${base64url({ alg: 'none', typ: 'at+jwt' })}.${base64url(baseClaims(resource))}.`,
    ],
    [
      'HS256 with the public key as the shared secret',
      'algorithm-not-allowed',
      async (resource: string) =>
        new SignJWT(baseClaims(resource))
          .setProtectedHeader({ alg: 'HS256', kid: provider.signingKey.kid })
          .sign(new TextEncoder().encode(JSON.stringify(provider.signingKey.publicJwk))),
    ],
    ['something that is not a JWT', 'malformed', async () => 'not-a-jwt-at-all'],
  ])('refuses %s with 401 invalid_token (%s)', async (_what, reason, makeToken) => {
    const { url, resource, metadataUrl, lines } = await startProtected();
    const token = await makeToken(resource);
    const answer = await initialize(url, bearer(token));
    expect(answer.status).toBe(401);
    const challenge = answer.headers['www-authenticate'] ?? '';
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${metadataUrl}"`);
    expect(refusalReasons(lines)).toEqual([reason]);
    expect(`${answer.body}${challenge}${lines.join('\n')}`).not.toContain(token);
  });

  it('accepts a token that expired within the clock skew, and refuses it with no skew', async () => {
    const lenient = await startProtected();
    const expiredLately = await handSigned(
      baseClaims(lenient.resource, { exp: Math.floor(Date.now() / 1000) - 20 }),
    );
    expect((await initialize(lenient.url, bearer(expiredLately))).status).toBe(200);
    const strict = await startProtected({ oauth: { clockSkewS: 0 } });
    const expiredForStrict = await handSigned(
      baseClaims(strict.resource, { exp: Math.floor(Date.now() / 1000) - 20 }),
    );
    expect((await initialize(strict.url, bearer(expiredForStrict))).status).toBe(401);
  });

  it('never fetches anything from an issuer it does not trust', async () => {
    const { url, resource } = await startProtected();
    const before = untrusted.jwksFetches();
    const token = await untrusted.clientCredentialsToken({ scope: 'echo:read', resource });
    expect((await initialize(url, bearer(token))).status).toBe(401);
    expect(untrusted.jwksFetches()).toBe(before);
  });

  it('answers a call the token lacks the scope for with 403 insufficient_scope naming the scope', async () => {
    const { url, resource, metadataUrl } = await startProtected();
    const token = await provider.clientCredentialsToken({ scope: 'other:read', resource });
    // Authenticated: it may connect and list every tool (so it learns what to ask for)...
    const { client } = await connectClient(url, token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo_text');
    // ...but a call needs the tool's scope: the step-up challenge says which.
    const answer = await rawCall(url, token, 'echo_text');
    expect(answer.status).toBe(403);
    const challenge = answer.headers['www-authenticate'] ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="echo:read"');
    expect(challenge).toContain(`resource_metadata="${metadataUrl}"`);
    expect(JSON.parse(answer.body).error.message).toMatch(
      /the tool "echo_text" needs the OAuth scope "echo:read"/,
    );
    await expect(client.callTool({ name: 'echo_text', arguments: { text: 'x' } })).rejects.toThrow();

    const allowed = await provider.clientCredentialsToken({ scope: 'echo:read', resource });
    const stepped = await connectClient(url, allowed);
    const result = await stepped.client.callTool({ name: 'echo_text', arguments: { text: 'x' } });
    expect(result.isError).toBeFalsy();
  });

  it("refuses a writing tool to a token holding only its domain's read scope, naming the write scope", async () => {
    const { url, resource } = await startProtected({}, [notes()]);
    const reader = await provider.clientCredentialsToken({ scope: 'notes:read', resource });
    const answer = await rawCall(url, reader, 'write_note', { id: 'todo', text: 'written by a reader' });
    expect(answer.status).toBe(403);
    const challenge = answer.headers['www-authenticate'] ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="notes:write"');
    expect(JSON.parse(answer.body).error.message).toMatch(
      /the tool "write_note" needs the OAuth scope "notes:write"/,
    );
    // The read scope is enough to read, and nothing was written.
    const { client } = await connectClient(url, reader);
    const read = await client.callTool({ name: 'read_note', arguments: { id: 'todo' } });
    expect(read.structuredContent).toMatchObject({ error: { code: 'NOTE_NOT_FOUND' } });

    const writer = await provider.clientCredentialsToken({ scope: 'notes:read notes:write', resource });
    const stepped = await connectClient(url, writer);
    const written = await stepped.client.callTool({
      name: 'write_note',
      arguments: { id: 'todo', text: 'written by a writer' },
    });
    expect(written.isError).toBeFalsy();
  });

  it("completes a domain's values only for a token holding that domain's read scope", async () => {
    const { url, resource } = await startProtected({}, [echo(), notes()]);
    const complete = (token: string, ref: Record<string, unknown>) =>
      rawHttpRequest(url, {
        method: 'POST',
        headers: { ...MCP_POST_HEADERS, ...bearer(token), 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'completion/complete',
          params: { ref, argument: { name: 'id', value: '' } },
        }),
      });
    const echoOnly = await provider.clientCredentialsToken({ scope: 'echo:read', resource });
    for (const [ref, target] of [
      [{ type: 'ref/resource', uri: 'notes://{id}' }, 'completing the resource'],
      [{ type: 'ref/prompt', name: 'recall_note' }, 'completing the prompt "recall_note"'],
    ] as const) {
      const answer = await complete(echoOnly, ref);
      expect(answer.status, target).toBe(403);
      expect(answer.headers['www-authenticate']).toContain('scope="notes:read"');
      expect(answer.body).not.toContain('groceries');
      expect(JSON.parse(answer.body).error.message).toContain(`${target} needs the OAuth scope "notes:read"`);
    }
    const reader = await provider.clientCredentialsToken({ scope: 'notes:read', resource });
    const { client } = await connectClient(url, reader, 'legacy');
    const completed = await client.complete({
      ref: { type: 'ref/resource', uri: 'notes://{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(completed.completion.values).toEqual(['groceries']);
  });

  it('needs the scope of every message of a batch, not only the first', async () => {
    const { url, resource } = await startProtected();
    const token = await provider.clientCredentialsToken({ scope: 'other:read', resource });
    const call = { name: 'echo_text', arguments: { text: 'x' } };
    const answer = await rawHttpRequest(url, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, ...bearer(token) },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: call },
      ]),
    });
    expect(answer.status).toBe(403);
    expect(answer.headers['www-authenticate']).toContain('scope="echo:read"');
  });

  it('picks up a key rotation at the provider', async () => {
    const { url, resource } = await startProtected();
    const before = await provider.clientCredentialsToken({ scope: 'echo:read', resource });
    expect((await initialize(url, bearer(before))).status).toBe(200);
    provider.rotateKeys(await newSigningKey(`key-${Date.now()}`));
    const after = await provider.clientCredentialsToken({ scope: 'echo:read', resource });
    expect(after).not.toBe(before);
    expect((await initialize(url, bearer(after))).status).toBe(200);
    // The old key is still published during the rotation, so earlier tokens keep working.
    expect((await initialize(url, bearer(before))).status).toBe(200);
  });

  it('accepts the static token as well when both are configured (with every scope)', async () => {
    const { url, resource } = await startProtected({ token: STATIC_TOKEN });
    const { client } = await connectClient(url, STATIC_TOKEN);
    const result = await client.callTool({ name: 'echo_text', arguments: { text: 'operator' } });
    expect((result.structuredContent as { principal: string }).principal).toMatch(/^client:token-/);
    const token = await provider.clientCredentialsToken({ scope: 'echo:read', resource });
    expect((await initialize(url, bearer(token))).status).toBe(200);
  });

  it('qualifies the principal with the issuer when several issuers are trusted', async () => {
    const { url, resource } = await startProtected({
      oauth: { issuers: [provider.issuer, untrusted.issuer] },
    });
    const token = await untrusted.clientCredentialsToken({ scope: 'echo:read', resource });
    const { client } = await connectClient(url, token);
    const result = await client.callTool({ name: 'echo_text', arguments: { text: 'two issuers' } });
    expect((result.structuredContent as { principal: string }).principal).toBe(
      `oauth:${untrusted.issuer}#service-client`,
    );
  });
});

describe('OAuth resource server bounds on the authorization server', () => {
  /** A JWKS endpoint that answers with a huge key set, or never answers. */
  async function misbehavingJwks(kind: 'huge' | 'silent') {
    const server = http.createServer((_req, res) => {
      if (kind === 'silent') return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [{ kty: 'oct', k: 'x'.repeat(64 * 1024) }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/jwks`,
      close: () => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  it.each([
    ['a key set over SWITCHYARD_OAUTH_MAX_RESPONSE_BYTES', 'huge', { maxResponseBytes: 4096 }],
    ['a key set slower than SWITCHYARD_OAUTH_FETCH_TIMEOUT_MS', 'silent', { fetchTimeoutMs: 200 }],
  ] as const)('answers 503 when the keys cannot be read: %s', async (_what, kind, bounds) => {
    const jwks = await misbehavingJwks(kind);
    try {
      const { url, resource, lines } = await startProtected({ oauth: { jwksUrl: jwks.url, ...bounds } });
      const token = await provider.clientCredentialsToken({ scope: 'echo:read', resource });
      const answer = await initialize(url, bearer(token));
      expect(answer.status).toBe(503);
      expect(refusalReasons(lines)).toEqual(['issuer-unavailable']);
    } finally {
      await jwks.close();
    }
  });
});

describe("an issuer's metadata is checked before its keys are used", () => {
  /** What the issuer's discovery URLs answer next: a metadata document, or an error status. */
  let answer: Record<string, unknown> | number = 404;
  /** How many requests the issuer's discovery URLs have had. */
  let metadataFetches = 0;
  let metadataServer: http.Server;
  /** An issuer whose metadata this test writes; its tokens are signed with `provider`'s keys. */
  let issuer: string;
  /** The provider's own metadata (its real jwks_uri): what `issuer` publishes when nothing is broken. */
  let genuine: Record<string, unknown>;
  beforeAll(async () => {
    metadataServer = http.createServer((_req, res) => {
      metadataFetches += 1;
      if (typeof answer === 'number') res.writeHead(answer).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => metadataServer.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(metadataServer.address() as net.AddressInfo).port}/issuer`;
    const discovery = await fetch(`${provider.issuer}/.well-known/openid-configuration`);
    genuine = { ...((await discovery.json()) as Record<string, unknown>), issuer };
  });
  afterAll(async () => {
    metadataServer.closeAllConnections();
    await new Promise<void>((resolve) => metadataServer.close(() => resolve()));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  /** A server trusting `issuer`, and the status it answers a token of `issuer`'s with. */
  async function statusOfToken(oauth: Partial<OAuthOptions> = {}) {
    const started = await startProtected({ oauth: { issuers: [issuer], ...oauth } });
    const token = await handSigned(baseClaims(started.resource, { iss: issuer }));
    return { ...started, status: (await initialize(started.url, bearer(token))).status };
  }

  it("uses the keys at the metadata's jwks_uri", async () => {
    answer = genuine;
    expect((await statusOfToken()).status).toBe(200);
  });

  it('refuses (503) metadata that names another issuer (RFC 8414 §3.3)', async () => {
    answer = { ...genuine, issuer: provider.issuer };
    const { status, lines } = await statusOfToken();
    expect(status).toBe(503);
    expect(refusalReasons(lines)).toEqual(['issuer-unavailable']);
  });

  it('refuses (503) a jwks_uri that is plain http off loopback, and fetches nothing from it', async () => {
    const insecure = 'http://keys.example.com/jwks';
    answer = { ...genuine, jwks_uri: insecure };
    const fetched = vi.spyOn(globalThis, 'fetch');
    const { status, lines } = await statusOfToken({ fetchTimeoutMs: 1_000 });
    expect(status).toBe(503);
    expect(refusalReasons(lines)).toEqual(['issuer-unavailable']);
    const urls = fetched.mock.calls.map(([input]) => (input instanceof Request ? input.url : String(input)));
    expect(urls).not.toContain(insecure);
    expect(urls).toContain(`${issuer}/.well-known/openid-configuration`);
  });

  it('keeps a failed discovery for discoveryRetryMs: no fetch meanwhile, and the first token after it tries again', async () => {
    answer = 500;
    const { url, resource, lines } = await startProtected({
      oauth: { issuers: [issuer], discoveryRetryMs: 60_000 },
    });
    const token = await handSigned(baseClaims(resource, { iss: issuer }));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const before = metadataFetches;
    expect((await initialize(url, bearer(token))).status).toBe(503);
    // Both discovery URLs were tried once.
    expect(metadataFetches - before).toBe(2);
    answer = genuine;
    for (let request = 0; request < 5; request += 1) {
      expect((await initialize(url, bearer(token))).status).toBe(503);
    }
    expect(metadataFetches - before).toBe(2);
    expect(refusalReasons(lines)).toEqual(Array(6).fill('issuer-unavailable'));
    vi.setSystemTime(Date.now() + 60_000);
    expect((await initialize(url, bearer(token))).status).toBe(200);
    expect(metadataFetches - before).toBe(3);
  });

  it('with discoveryRetryMs 0 does not keep a failed discovery: the next token tries again', async () => {
    answer = 500;
    const { url, resource } = await startProtected({ oauth: { issuers: [issuer], discoveryRetryMs: 0 } });
    const token = await handSigned(baseClaims(resource, { iss: issuer }));
    expect((await initialize(url, bearer(token))).status).toBe(503);
    answer = genuine;
    expect((await initialize(url, bearer(token))).status).toBe(200);
  });
});

describe('OAuth resource server with token introspection', () => {
  let opaqueProvider: TestProvider;
  beforeAll(async () => {
    opaqueProvider = await startTestProvider({ scopes: SCOPES, accessTokenFormat: 'opaque' });
  });
  afterAll(() => opaqueProvider.close());

  async function startIntrospecting() {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const started = await start([echo()], {
      port,
      oauth: {
        issuers: [opaqueProvider.issuer],
        resourceUrl: resource,
        introspection: {
          url: `${opaqueProvider.issuer}/token/introspection`,
          clientId: CLIENTS.resourceServer.id,
          clientSecret: CLIENTS.resourceServer.secret,
        },
      },
    });
    return { ...started, resource };
  }

  it('lets an active token for this resource in, and refuses one for another resource or an unknown one', async () => {
    const { url, resource, lines } = await startIntrospecting();
    const token = await opaqueProvider.clientCredentialsToken({ scope: 'echo:read', resource });
    const { client } = await connectClient(url, token);
    const result = await client.callTool({ name: 'echo_text', arguments: { text: 'introspected' } });
    expect((result.structuredContent as { principal: string }).principal).toBe('oauth:service-client');

    const elsewhere = await opaqueProvider.clientCredentialsToken({
      scope: 'echo:read',
      resource: 'http://127.0.0.1:1/mcp',
    });
    expect((await initialize(url, bearer(elsewhere))).status).toBe(401);
    expect((await initialize(url, bearer('made-up-token-0123456789'))).status).toBe(401);
    expect(refusalReasons(lines)).toEqual(['wrong-audience', 'inactive']);

    const narrow = await opaqueProvider.clientCredentialsToken({ scope: 'other:read', resource });
    expect((await rawCall(url, narrow, 'echo_text')).status).toBe(403);

    const logged = lines.join('\n');
    for (const secret of [token, elsewhere, CLIENTS.resourceServer.secret])
      expect(logged).not.toContain(secret);
  });
});

describe('introspection answers are held to what a JWT must carry', () => {
  const ISSUERS = ['http://127.0.0.1:9/issuer-a', 'http://127.0.0.1:9/issuer-b'];
  const TOKEN = 'opaque-token-0123456789';
  /** What the endpoint does with the next request: answer this JSON, redirect elsewhere, or never answer. */
  let behaviour: { answer: Record<string, unknown> } | 'redirect' | 'silent' = 'silent';
  const elsewhereBodies: string[] = [];
  let endpoint: http.Server;
  let elsewhere: http.Server;

  async function listen(server: http.Server): Promise<string> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/introspect`;
  }
  let endpointUrl: string;
  let elsewhereUrl: string;
  beforeAll(async () => {
    elsewhere = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        elsewhereBodies.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    endpoint = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (behaviour === 'silent') return;
        if (behaviour === 'redirect') res.writeHead(307, { location: elsewhereUrl }).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(behaviour.answer));
      });
    });
    [endpointUrl, elsewhereUrl] = await Promise.all([listen(endpoint), listen(elsewhere)]);
  });
  afterAll(async () => {
    for (const server of [endpoint, elsewhere]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  async function startIntrospecting(oauth: Partial<OAuthOptions> = {}) {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const started = await start([echo()], {
      port,
      oauth: {
        issuers: ISSUERS,
        resourceUrl: resource,
        introspection: { url: endpointUrl, clientId: 'mcp', clientSecret: 'introspection-secret' },
        ...oauth,
      },
    });
    return { ...started, resource };
  }
  const now = () => Math.floor(Date.now() / 1000);
  const activeFor = (resource: string, claims: Record<string, unknown> = {}) => ({
    active: true,
    iss: ISSUERS[1],
    aud: resource,
    sub: 'alice',
    client_id: 'reporting-app',
    scope: 'echo:read',
    exp: now() + 300,
    ...claims,
  });

  it("takes the caller from the answer's subject and issuer", async () => {
    const { url, resource } = await startIntrospecting();
    behaviour = { answer: activeFor(resource) };
    const { client } = await connectClient(url, TOKEN);
    const result = await client.callTool({ name: 'echo_text', arguments: { text: 'x' } });
    expect((result.structuredContent as { principal: string }).principal).toBe(`oauth:${ISSUERS[1]}#alice`);
  });

  it.each([
    ['no iss, with several issuers trusted', 'unknown-issuer', () => ({ iss: undefined })],
    ['an iss it does not trust', 'unknown-issuer', () => ({ iss: 'http://127.0.0.1:9/issuer-c' })],
    ['no exp', 'missing-claim', () => ({ exp: undefined })],
    ['a numeric sub', 'malformed', () => ({ sub: 42 })],
    ['an object sub', 'malformed', () => ({ sub: { id: 'alice' } })],
    ['an empty sub', 'malformed', () => ({ sub: '' })],
    ['an exp past the clock skew', 'expired', () => ({ exp: now() - 120 })],
    ['an nbf past the clock skew', 'not-yet-valid', () => ({ nbf: now() + 120 })],
  ])('refuses an active answer with %s (%s)', async (_what, reason, claims) => {
    const { url, resource, lines } = await startIntrospecting();
    behaviour = { answer: activeFor(resource, claims()) };
    expect((await initialize(url, bearer(TOKEN))).status).toBe(401);
    expect(refusalReasons(lines)).toEqual([reason]);
  });

  it.each([
    ['redirects elsewhere', 'redirect'],
    ['does not answer within fetchTimeoutMs', 'silent'],
  ] as const)('answers 503 when the endpoint %s, and sends the token nowhere else', async (_what, mode) => {
    const { url, lines } = await startIntrospecting({ fetchTimeoutMs: 300 });
    behaviour = mode;
    expect((await initialize(url, bearer(TOKEN))).status).toBe(503);
    expect(refusalReasons(lines)).toEqual(['issuer-unavailable']);
    expect(elsewhereBodies).toEqual([]);
  });
});
