import { createHash } from 'node:crypto';
import {
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type Client,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../src/testing.js';
import { echoDomain } from './fixtures/echo-domain.js';
import { CLIENTS, startTestProvider, type TestProvider } from '@switchyard/upstream-mocks/oidc';
import { httpTestHarness } from './helpers.js';
import { freePort } from '../src/testing.js';

const SCOPES = ['echo:read', 'echo:write', 'other:read'];

const { start, closeAll } = httpTestHarness();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await closeAll();
});

let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider({ scopes: SCOPES });
});
afterAll(() => provider.close());

/** A server trusting `provider`, whose resource URI is its own /mcp URL. */
async function startProtected() {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const started = await start([{ domain: echoDomain(), config: undefined }], {
    port,
    oauth: { issuers: [provider.issuer], resourceUrl: resource, jwksCooldownMs: 0 },
  });
  return {
    ...started,
    resource,
    metadataUrl: `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`,
  };
}

/** Cookies by name, across paths: enough for oidc-provider's interaction and session cookies. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = setCookie.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.split('=').map((part) => part.trim());
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(setting) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Plays the browser: follows the authorization URL through the provider's login and consent interaction,
 * carrying cookies, until the provider redirects to the client's redirect URI; returns that callback URL.
 */
async function authorizeInBrowser(authorizationUrl: URL, redirectUri: string): Promise<URL> {
  const jar = new CookieJar();
  let location = authorizationUrl;
  for (let hop = 0; hop < 20; hop += 1) {
    const response = await fetch(location, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(response);
    const next = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || next === null) {
      throw new Error(
        `the provider answered ${response.status} at ${location.href}: ${await response.text()}`,
      );
    }
    location = new URL(next, location);
    if (location.href.startsWith(redirectUri)) return location;
  }
  throw new Error('too many redirects before the callback');
}

/**
 * The SDK's OAuth client side, kept in memory: the pre-registered public client `CLIENTS.app`, and a
 * user agent that logs in at the provider when the SDK asks to redirect to the authorization endpoint.
 */
class TestOAuthClient implements OAuthClientProvider {
  authorizationUrls: URL[] = [];
  callback: URL | undefined;
  saved: StoredOAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;
  private client: StoredOAuthClientInformation;

  constructor(issuer: string) {
    // Pre-registered at `issuer` (the SDK binds stored client information to its authorization server).
    this.client = { client_id: CLIENTS.app.id, issuer };
  }

  get redirectUrl(): string {
    return CLIENTS.app.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    // No refresh_token grant: the SDK would then add `offline_access` (and prompt=consent) to the scope.
    return {
      redirect_uris: [CLIENTS.app.redirectUri],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'none',
      client_name: 'switchyard pkce test',
    };
  }

  clientInformation(): StoredOAuthClientInformation {
    return this.client;
  }

  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.client = information;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrls.push(authorizationUrl);
    this.callback = await authorizeInBrowser(authorizationUrl, CLIENTS.app.redirectUri);
  }
}

interface Exchange {
  url: URL;
  status: number;
  body: string;
}

/** A fetch for the transport (and so for the SDK's discovery and token requests) that records every exchange. */
function recordingFetch(exchanges: Exchange[]) {
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    exchanges.push({
      url: new URL(url),
      status: response.status,
      body: typeof init?.body === 'string' || init?.body instanceof URLSearchParams ? String(init.body) : '',
    });
    return response;
  };
}

/**
 * The SDK's own flow: connect (401, discovery, authorization URL, the user agent logs in), `finishAuth`
 * with the callback parameters (the SDK redeems the code), then connect again and call the echo tool.
 */
async function authorizeAndCallEcho(url: string) {
  const oauth = new TestOAuthClient(provider.issuer);
  const exchanges: Exchange[] = [];
  const transportOptions = { authProvider: oauth, fetch: recordingFetch(exchanges) };

  const first = new StreamableHTTPClientTransport(new URL(url), transportOptions);
  const refused = clientFor('modern', 'pkce-test-client');
  refused.onerror = () => {};
  await expect(refused.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(oauth.callback, 'the user agent reached the redirect URI').toBeDefined();
  await first.finishAuth(oauth.callback!.searchParams);

  const client = clientFor('modern', 'pkce-test-client');
  client.onerror = () => {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), transportOptions));
  clients.push(client);
  const result = await client.callTool({ name: 'echo_text', arguments: { text: 'hello' } });
  return { oauth, exchanges, result };
}

const principalOf = (result: { structuredContent?: unknown }) =>
  (result.structuredContent as { principal: string }).principal;

describe('OAuth authorization code flow with PKCE, driven by the SDK client', () => {
  it('follows the 401 to the resource metadata, authorizes with PKCE for the resource, and calls as the user', async () => {
    const { url, resource, metadataUrl } = await startProtected();
    provider.loginAs('alice');
    const { oauth, exchanges, result } = await authorizeAndCallEcho(url);

    // The unauthenticated request was refused, and the challenge led the SDK to the PRM, then to the provider.
    const firstCall = exchanges[0]!;
    expect(firstCall.url.href).toBe(url);
    expect(firstCall.status).toBe(401);
    const metadataFetches = exchanges.filter((exchange) => exchange.url.href === metadataUrl);
    expect(metadataFetches.length).toBeGreaterThan(0);
    expect(metadataFetches.every((exchange) => exchange.status === 200)).toBe(true);
    const providerMetadata = exchanges.findIndex(
      (exchange) =>
        exchange.url.origin === provider.issuer && exchange.url.pathname.startsWith('/.well-known/'),
    );
    expect(providerMetadata).toBeGreaterThan(exchanges.indexOf(metadataFetches[0]!));

    // One authorization request: PKCE S256 and the resource indicator, for the scope the challenge named.
    expect(oauth.authorizationUrls).toHaveLength(1);
    const authorization = oauth.authorizationUrls[0]!.searchParams;
    expect(authorization.get('code_challenge_method')).toBe('S256');
    expect(authorization.get('resource')).toBe(resource);
    expect(authorization.get('scope')).toBe('echo:read');
    expect(authorization.get('client_id')).toBe(CLIENTS.app.id);

    // The SDK redeemed the code with the verifier matching that challenge, for the same resource.
    const tokenRequests = exchanges.filter((exchange) => exchange.url.href === `${provider.issuer}/token`);
    expect(tokenRequests).toHaveLength(1);
    const tokenRequest = new URLSearchParams(tokenRequests[0]!.body);
    expect(tokenRequest.get('grant_type')).toBe('authorization_code');
    expect(tokenRequest.get('code')).toBe(oauth.callback!.searchParams.get('code'));
    expect(tokenRequest.get('resource')).toBe(resource);
    const verifier = tokenRequest.get('code_verifier') ?? '';
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(
      authorization.get('code_challenge'),
    );

    // The token it obtained was issued for this server, to the user, with the requested scope.
    const claims = decodeJwt(oauth.saved!.access_token);
    expect(claims.iss).toBe(provider.issuer);
    expect(claims.aud).toBe(resource);
    expect(claims.sub).toBe('alice');
    expect(claims.scope).toBe('echo:read');

    expect(result.isError).toBeFalsy();
    expect(principalOf(result)).toBe('oauth:alice');
  });

  it('calls as whoever logged in at the provider', async () => {
    const { url, resource } = await startProtected();
    provider.loginAs('bob');
    try {
      const { oauth, result } = await authorizeAndCallEcho(url);
      expect(decodeJwt(oauth.saved!.access_token)).toMatchObject({ sub: 'bob', aud: resource });
      expect(principalOf(result)).toBe('oauth:bob');
    } finally {
      provider.loginAs('alice');
    }
  });
});
