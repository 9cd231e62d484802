import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { authorizationServerFetch, fetchJsonObject } from './authorization-server-fetch.js';
import { isSecureUrl, type OAuthSettings } from './oauth-settings.js';
import { TokenRefusal } from './token-refusal.js';

/**
 * Where an issuer's metadata may be, in the order tried: OpenID Connect discovery (Keycloak, Auth0, Entra ID,
 * oidc-provider), then RFC 8414 with the well-known segment inserted before the issuer's path.
 */
function metadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  return [
    new URL(`${path}/.well-known/openid-configuration`, url.origin),
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
  ];
}

/** An issuer's key set, found or being found; a failed discovery is kept until `retryAt` (ms since the epoch). */
interface KeySetEntry {
  keySet: Promise<JWTVerifyGetKey>;
  retryAt: number;
}

/**
 * The signing keys of each trusted issuer: its JWKS (the configured URL, else `jwks_uri` from its metadata),
 * fetched on first use through jose's remote key set, which caches the keys for `jwksCacheMaxAgeMs` and
 * refetches them when a token names an unknown key (rotation), at most once per `jwksCooldownMs`. A failed
 * discovery is kept for `discoveryRetryMs`: the issuer's tokens meanwhile get its failure without a fetch,
 * and the first token after it tries again.
 */
export class IssuerKeys {
  private readonly keySets = new Map<string, KeySetEntry>();

  constructor(private readonly settings: OAuthSettings) {}

  keySetFor(issuer: string): Promise<JWTVerifyGetKey> {
    const known = this.keySets.get(issuer);
    if (known !== undefined && Date.now() < known.retryAt) return known.keySet;
    const entry: KeySetEntry = {
      keySet: this.jwksUrlOf(issuer).then((url) => this.remoteKeySet(url)),
      retryAt: Number.POSITIVE_INFINITY,
    };
    entry.keySet.catch(() => {
      entry.retryAt = Date.now() + this.settings.discoveryRetryMs;
    });
    this.keySets.set(issuer, entry);
    return entry.keySet;
  }

  private remoteKeySet(url: URL): JWTVerifyGetKey {
    return createRemoteJWKSet(url, {
      timeoutDuration: this.settings.fetchTimeoutMs,
      cacheMaxAge: this.settings.jwksCacheMaxAgeMs,
      cooldownDuration: this.settings.jwksCooldownMs,
      [customFetch]: authorizationServerFetch(this.settings),
    });
  }

  private async jwksUrlOf(issuer: string): Promise<URL> {
    if (this.settings.jwksUrl !== undefined) return this.settings.jwksUrl;
    const fetchFrom = authorizationServerFetch(this.settings);
    let lastFailure: unknown;
    for (const url of metadataUrls(issuer)) {
      try {
        const metadata = await fetchJsonObject(fetchFrom, url);
        // RFC 8414 §3.3: metadata for another issuer must not be used.
        if (metadata.issuer !== issuer || typeof metadata.jwks_uri !== 'string') continue;
        const jwksUrl = URL.parse(metadata.jwks_uri);
        if (jwksUrl !== null && isSecureUrl(jwksUrl)) return jwksUrl;
      } catch (error) {
        lastFailure = error;
      }
    }
    throw lastFailure instanceof TokenRefusal ? lastFailure : new TokenRefusal('issuer-unavailable');
  }
}
