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

/**
 * The signing keys of each trusted issuer: its JWKS (the configured URL, else `jwks_uri` from its metadata),
 * fetched on first use through jose's remote key set, which caches the keys for `jwksCacheMaxAgeMs` and
 * refetches them when a token names an unknown key (rotation), at most once per `jwksCooldownMs`. A failed
 * discovery is not kept: the next token tries again.
 */
export class IssuerKeys {
  private readonly keySets = new Map<string, Promise<JWTVerifyGetKey>>();

  constructor(private readonly settings: OAuthSettings) {}

  keySetFor(issuer: string): Promise<JWTVerifyGetKey> {
    let keySet = this.keySets.get(issuer);
    if (keySet === undefined) {
      keySet = this.jwksUrlOf(issuer).then((url) => this.remoteKeySet(url));
      keySet.catch(() => this.keySets.delete(issuer));
      this.keySets.set(issuer, keySet);
    }
    return keySet;
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
