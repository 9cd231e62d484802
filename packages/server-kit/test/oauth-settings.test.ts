import { afterEach, describe, expect, it } from 'vitest';
import { resolveOAuthSettings } from '../src/http/oauth-settings.js';
import { runServer } from '../src/index.js';
import { echoDomain } from './fixtures/echo-domain.js';
import { memoryLogger, tempDir } from './helpers.js';
import type { RunningServer } from '../src/index.js';

const ISSUER = 'https://auth.example.com/realms/switchyard';
const RESOURCE = 'https://mcp.example.com/mcp';

describe('resolveOAuthSettings', () => {
  it('is off without an issuer, and reads every setting from the environment', () => {
    expect(resolveOAuthSettings(undefined, {})).toBeUndefined();
    // Bounds alone are not an OAuth setup (they have defaults), nor are empty values.
    expect(
      resolveOAuthSettings(undefined, {
        SWITCHYARD_OAUTH_FETCH_TIMEOUT_MS: '1500',
        SWITCHYARD_RESOURCE_URL: ' ',
      }),
    ).toBeUndefined();
    const settings = resolveOAuthSettings(undefined, {
      SWITCHYARD_OAUTH_ISSUER: `${ISSUER}, https://login.example.org/`,
      SWITCHYARD_RESOURCE_URL: RESOURCE,
      SWITCHYARD_OAUTH_CLOCK_SKEW_S: '5',
      SWITCHYARD_OAUTH_FETCH_TIMEOUT_MS: '1500',
      SWITCHYARD_OAUTH_DISCOVERY_RETRY_MS: '2500',
    });
    expect(settings).toMatchObject({
      issuers: [ISSUER, 'https://login.example.org/'],
      metadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      clockSkewS: 5,
      fetchTimeoutMs: 1500,
      jwksCooldownMs: 30_000,
      discoveryRetryMs: 2500,
      introspection: undefined,
    });
    expect(settings?.resource.href).toBe(RESOURCE);
  });

  it.each([
    [
      { SWITCHYARD_OAUTH_ISSUER: ISSUER },
      /SWITCHYARD_RESOURCE_URL is not: set it to this server's public MCP URL/,
    ],
    [
      { SWITCHYARD_OAUTH_ISSUER: 'http://auth.example.com', SWITCHYARD_RESOURCE_URL: RESOURCE },
      /SWITCHYARD_OAUTH_ISSUER: the issuer must use https/,
    ],
    [
      { SWITCHYARD_OAUTH_ISSUER: ISSUER, SWITCHYARD_RESOURCE_URL: 'mcp.example.com/mcp' },
      /SWITCHYARD_RESOURCE_URL must be an absolute URL/,
    ],
    [
      {
        SWITCHYARD_OAUTH_ISSUER: `${ISSUER},https://other.example.com`,
        SWITCHYARD_RESOURCE_URL: RESOURCE,
        SWITCHYARD_OAUTH_JWKS_URL: 'https://auth.example.com/jwks',
      },
      /SWITCHYARD_OAUTH_JWKS_URL works with one issuer only/,
    ],
    [
      {
        SWITCHYARD_OAUTH_ISSUER: ISSUER,
        SWITCHYARD_RESOURCE_URL: RESOURCE,
        SWITCHYARD_OAUTH_INTROSPECTION_URL: 'https://auth.example.com/introspect',
      },
      /needs SWITCHYARD_OAUTH_CLIENT_ID and SWITCHYARD_OAUTH_CLIENT_SECRET/,
    ],
    [
      {
        SWITCHYARD_OAUTH_ISSUER: 'https://admin:hunter2@auth.example.com',
        SWITCHYARD_RESOURCE_URL: RESOURCE,
      },
      /SWITCHYARD_OAUTH_ISSUER: the issuer must have no fragment and no credentials/,
    ],
    [
      {
        SWITCHYARD_OAUTH_ISSUER: ISSUER,
        SWITCHYARD_RESOURCE_URL: RESOURCE,
        SWITCHYARD_OAUTH_INTROSPECTION_URL: 'http://auth.example.com/introspect',
        SWITCHYARD_OAUTH_CLIENT_ID: 'mcp',
        SWITCHYARD_OAUTH_CLIENT_SECRET: 'secret',
      },
      /SWITCHYARD_OAUTH_INTROSPECTION_URL: the introspection endpoint must use https/,
    ],
    [
      {
        SWITCHYARD_OAUTH_ISSUER: ISSUER,
        SWITCHYARD_RESOURCE_URL: RESOURCE,
        SWITCHYARD_OAUTH_CLOCK_SKEW_S: '-1',
      },
      /SWITCHYARD_OAUTH_CLOCK_SKEW_S must be a whole number of seconds >= 0 \(0 = no tolerance\)/,
    ],
    [
      { SWITCHYARD_RESOURCE_URL: RESOURCE },
      /SWITCHYARD_RESOURCE_URL is set but SWITCHYARD_OAUTH_ISSUER is not/,
    ],
    [
      { SWITCHYARD_OAUTH_JWKS_URL: 'https://auth.example.com/jwks' },
      /SWITCHYARD_OAUTH_JWKS_URL is set but SWITCHYARD_OAUTH_ISSUER is not/,
    ],
    [
      { SWITCHYARD_OAUTH_INTROSPECTION_URL: 'https://auth.example.com/introspect' },
      /SWITCHYARD_OAUTH_INTROSPECTION_URL is set but SWITCHYARD_OAUTH_ISSUER is not/,
    ],
    [{ SWITCHYARD_OAUTH_CLIENT_SECRET: 'secret' }, /SWITCHYARD_OAUTH_CLIENT_SECRET is set but/],
  ])('refuses a configuration that cannot work, saying what to set (%#)', (env, message) => {
    expect(() => resolveOAuthSettings(undefined, env)).toThrow(message);
  });

  it('refuses OAuth options set in code without an issuer', () => {
    expect(() => resolveOAuthSettings({ resourceUrl: RESOURCE }, {})).toThrow(
      /SWITCHYARD_RESOURCE_URL is set but SWITCHYARD_OAUTH_ISSUER is not/,
    );
  });
});

describe('runServer with OAuth', () => {
  let server: RunningServer | undefined;
  afterEach(() => server?.close());

  it('may listen beyond loopback with OAuth and no static token', async () => {
    server = await runServer([{ domain: echoDomain(), config: undefined }], {
      name: 'oauth-test',
      version: '0.0.0',
      transport: 'http',
      http: { host: '0.0.0.0', port: 0 },
      env: { SWITCHYARD_OAUTH_ISSUER: ISSUER, SWITCHYARD_RESOURCE_URL: RESOURCE },
      handleSignals: false,
      logger: memoryLogger().logger,
      dataDir: tempDir(),
    });
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
  });
});
