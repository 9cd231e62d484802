import { isLoopbackHost } from './security.js';
import { resolveLimit, type Env } from '../limits.js';

/** Token introspection (RFC 7662): where, and the credentials this server authenticates with there. */
export interface IntrospectionOptions {
  url: string;
  clientId: string;
  clientSecret: string;
}

/**
 * OAuth 2.1 resource server options (`runServer`'s `http.oauth`; each also an environment variable, an
 * option set in code wins). OAuth is on when at least one issuer is set.
 */
export interface OAuthOptions {
  /** The trusted authorization servers' issuer identifiers (SWITCHYARD_OAUTH_ISSUER, comma-separated). */
  issuers?: readonly string[];
  /** This server's canonical resource URI, the audience tokens must carry (SWITCHYARD_RESOURCE_URL). */
  resourceUrl?: string;
  /** Where the signing keys are (SWITCHYARD_OAUTH_JWKS_URL); default: from the issuer's metadata. One issuer only. */
  jwksUrl?: string;
  /**
   * Validate tokens by introspection instead of as JWTs (SWITCHYARD_OAUTH_INTROSPECTION_URL with
   * SWITCHYARD_OAUTH_CLIENT_ID and SWITCHYARD_OAUTH_CLIENT_SECRET).
   */
  introspection?: IntrospectionOptions;
  /** Accepted clock difference for `exp`/`nbf` (SWITCHYARD_OAUTH_CLOCK_SKEW_S, default 60). */
  clockSkewS?: number;
  /** One fetch from an authorization server (SWITCHYARD_OAUTH_FETCH_TIMEOUT_MS, default 5 000). */
  fetchTimeoutMs?: number;
  /** Keys are refetched after this (SWITCHYARD_OAUTH_JWKS_CACHE_MAX_AGE_MS, default 10 min). */
  jwksCacheMaxAgeMs?: number;
  /** An unknown key refetches the keys at most once per this (SWITCHYARD_OAUTH_JWKS_COOLDOWN_MS, 30 s). */
  jwksCooldownMs?: number;
  /**
   * A failed discovery of an issuer's metadata is retried only after this; tokens of that issuer get 503
   * meanwhile (SWITCHYARD_OAUTH_DISCOVERY_RETRY_MS, default 10 000; 0: every token tries again).
   */
  discoveryRetryMs?: number;
  /** Largest answer read from an authorization server (SWITCHYARD_OAUTH_MAX_RESPONSE_BYTES, 256 KiB). */
  maxResponseBytes?: number;
}

export interface OAuthSettings {
  issuers: readonly string[];
  resource: URL;
  /** RFC 9728 §3.1: the metadata URL for `resource` (its path after the well-known prefix). */
  metadataUrl: string;
  jwksUrl: URL | undefined;
  introspection: IntrospectionOptions | undefined;
  clockSkewS: number;
  fetchTimeoutMs: number;
  jwksCacheMaxAgeMs: number;
  jwksCooldownMs: number;
  discoveryRetryMs: number;
  maxResponseBytes: number;
}

export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

function fail(message: string): never {
  throw new Error(`runServer: ${message}`);
}

/** https, or plain http on a loopback host (a test or a local provider). */
export function isSecureUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

/** An http(s) URL without fragment; https unless the host is loopback (a test or a local provider). */
function secureUrl(raw: string, what: string, variable: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    fail(`${variable} must be an absolute URL (like https://auth.example.com/), got "${raw}"`);
  }
  if (!isSecureUrl(url)) {
    fail(`${variable}: the ${what} must use https (plain http only on loopback), got "${raw}"`);
  }
  if (url.hash !== '' || url.username !== '' || url.password !== '') {
    fail(`${variable}: the ${what} must have no fragment and no credentials, got "${raw}"`);
  }
  return url;
}

function listFrom(raw: string | undefined): string[] | undefined {
  const entries = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.length === 0 ? undefined : entries;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function introspectionFrom(
  given: IntrospectionOptions | undefined,
  env: Env,
): IntrospectionOptions | undefined {
  if (given !== undefined) return given;
  const url = nonEmpty(env.SWITCHYARD_OAUTH_INTROSPECTION_URL);
  if (url === undefined) return undefined;
  const clientId = nonEmpty(env.SWITCHYARD_OAUTH_CLIENT_ID);
  const clientSecret = nonEmpty(env.SWITCHYARD_OAUTH_CLIENT_SECRET);
  if (clientId === undefined || clientSecret === undefined) {
    fail(
      'SWITCHYARD_OAUTH_INTROSPECTION_URL needs SWITCHYARD_OAUTH_CLIENT_ID and SWITCHYARD_OAUTH_CLIENT_SECRET ' +
        '(the credentials this server presents to the introspection endpoint)',
    );
  }
  return { url, clientId, clientSecret };
}

/** The PRM URL of a resource (RFC 9728 §3.1): the well-known prefix inserted before the resource's path. */
export function protectedResourceMetadataUrl(resource: URL): string {
  const path = resource.pathname.replace(/\/$/, '');
  return new URL(`${PROTECTED_RESOURCE_WELL_KNOWN}${path}`, resource.origin).href;
}

/**
 * The settings that mean nothing without an issuer. One of them set alone is an OAuth setup missing its
 * issuer: starting without OAuth would leave the server open where its operator meant to protect it.
 */
const ISSUER_ONLY_SETTINGS = [
  ['resourceUrl', 'SWITCHYARD_RESOURCE_URL'],
  ['jwksUrl', 'SWITCHYARD_OAUTH_JWKS_URL'],
  ['introspection', 'SWITCHYARD_OAUTH_INTROSPECTION_URL'],
  ['introspection', 'SWITCHYARD_OAUTH_CLIENT_ID'],
  ['introspection', 'SWITCHYARD_OAUTH_CLIENT_SECRET'],
] as const;

/** The OAuth settings from `options` and `env`, or undefined when nothing of OAuth is set (OAuth off). */
export function resolveOAuthSettings(options: OAuthOptions | undefined, env: Env): OAuthSettings | undefined {
  const issuerList = options?.issuers ?? listFrom(env.SWITCHYARD_OAUTH_ISSUER);
  if (issuerList === undefined || issuerList.length === 0) {
    const orphan = ISSUER_ONLY_SETTINGS.find(
      ([option, variable]) => options?.[option] !== undefined || nonEmpty(env[variable]) !== undefined,
    );
    if (orphan !== undefined) {
      fail(
        `${orphan[1]} is set but SWITCHYARD_OAUTH_ISSUER is not: set the issuer of the authorization server ` +
          'whose tokens this server accepts, or unset the OAuth settings to run without OAuth',
      );
    }
    return undefined;
  }
  const issuers = issuerList.map((issuer) => {
    const url = secureUrl(issuer, 'issuer', 'SWITCHYARD_OAUTH_ISSUER');
    if (url.search !== '') fail(`SWITCHYARD_OAUTH_ISSUER: an issuer has no query string, got "${issuer}"`);
    // Tokens carry the issuer exactly as the authorization server spells it: compare as given.
    return issuer.trim();
  });
  const resourceRaw = options?.resourceUrl ?? nonEmpty(env.SWITCHYARD_RESOURCE_URL);
  if (resourceRaw === undefined) {
    fail(
      "SWITCHYARD_OAUTH_ISSUER is set but SWITCHYARD_RESOURCE_URL is not: set it to this server's public " +
        'MCP URL (like https://mcp.example.com/mcp), the audience its tokens must carry',
    );
  }
  const resource = secureUrl(resourceRaw, 'resource URL', 'SWITCHYARD_RESOURCE_URL');
  const jwksRaw = options?.jwksUrl ?? nonEmpty(env.SWITCHYARD_OAUTH_JWKS_URL);
  if (jwksRaw !== undefined && issuers.length > 1) {
    fail(
      'SWITCHYARD_OAUTH_JWKS_URL works with one issuer only: with several, each issuer publishes its own keys',
    );
  }
  const introspection = introspectionFrom(options?.introspection, env);
  if (introspection !== undefined)
    secureUrl(introspection.url, 'introspection endpoint', 'SWITCHYARD_OAUTH_INTROSPECTION_URL');
  return {
    issuers,
    resource,
    metadataUrl: protectedResourceMetadataUrl(resource),
    jwksUrl: jwksRaw === undefined ? undefined : secureUrl(jwksRaw, 'JWKS URL', 'SWITCHYARD_OAUTH_JWKS_URL'),
    introspection,
    clockSkewS: resolveLimit('oauthClockSkewS', options?.clockSkewS, env),
    fetchTimeoutMs: resolveLimit('oauthFetchTimeoutMs', options?.fetchTimeoutMs, env),
    jwksCacheMaxAgeMs: resolveLimit('oauthJwksCacheMaxAgeMs', options?.jwksCacheMaxAgeMs, env),
    jwksCooldownMs: resolveLimit('oauthJwksCooldownMs', options?.jwksCooldownMs, env),
    discoveryRetryMs: resolveLimit('oauthDiscoveryRetryMs', options?.discoveryRetryMs, env),
    maxResponseBytes: resolveLimit('oauthMaxResponseBytes', options?.maxResponseBytes, env),
  };
}
