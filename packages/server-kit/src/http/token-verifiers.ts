import { IntrospectionVerifier } from './introspection-verifier.js';
import { JwtAccessTokenVerifier } from './jwt-verifier.js';
import type { OAuthSettings } from './oauth-settings.js';
import type { AccessTokenVerifier } from './token-refusal.js';

/**
 * The verifier the settings ask for: introspection when an endpoint is configured, else local JWT checks.
 * Its own module so that jose and the HTTP client load only when OAuth is on.
 */
export function createTokenVerifier(oauth: OAuthSettings): AccessTokenVerifier {
  return oauth.introspection === undefined
    ? new JwtAccessTokenVerifier(oauth)
    : new IntrospectionVerifier({ ...oauth, introspection: oauth.introspection });
}
