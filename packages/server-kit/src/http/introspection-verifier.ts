import { registerSecret } from '@switchyard/resilience/context';
import { authorizationServerFetch, fetchJsonObject } from './authorization-server-fetch.js';
import type { IntrospectionOptions, OAuthSettings } from './oauth-settings.js';
import {
  scopesOf,
  subjectClaim,
  TokenRefusal,
  type AccessTokenVerifier,
  type VerifiedToken,
} from './token-refusal.js';

/** RFC 6749 §2.3.1: each part form-encoded before the Basic credentials are built. */
function basicCredentials({ clientId, clientSecret }: IntrospectionOptions): string {
  const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((entry): entry is string => typeof entry === 'string') : [];
}

/**
 * Tokens checked by the authorization server (RFC 7662), for opaque tokens or an operator who wants
 * revocation to take effect at once. The answer must say `active`, and carry what a JWT would: a trusted
 * `iss` (may be omitted with one trusted issuer), `aud` naming this resource, `sub` (a non-empty string; when
 * absent, `client_id`), and `exp`/`nbf` within
 * the clock skew. The credentials go to the introspection endpoint only (no redirect is followed) and are
 * never logged.
 */
export class IntrospectionVerifier implements AccessTokenVerifier {
  private readonly fetchFrom: typeof fetch;
  private readonly url: string;
  private readonly authorization: string;

  constructor(private readonly settings: OAuthSettings & { introspection: IntrospectionOptions }) {
    const { introspection } = settings;
    registerSecret(introspection.clientSecret);
    this.authorization = basicCredentials(introspection);
    registerSecret(this.authorization);
    this.url = introspection.url;
    this.fetchFrom = authorizationServerFetch(settings);
  }

  async verify(token: string): Promise<VerifiedToken> {
    const answer = await fetchJsonObject(this.fetchFrom, this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: this.authorization },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
    });
    if (answer.active !== true) throw new TokenRefusal('inactive');
    const { issuers, resource, clockSkewS } = this.settings;
    const issuer = answer.iss ?? (issuers.length === 1 ? issuers[0] : undefined);
    if (typeof issuer !== 'string' || !issuers.includes(issuer)) throw new TokenRefusal('unknown-issuer');
    const resourceForms = new Set([resource.href, resource.href.replace(/\/$/, '')]);
    if (!audiencesOf(answer.aud).some((aud) => resourceForms.has(aud))) {
      throw new TokenRefusal('wrong-audience');
    }
    const { exp, nbf } = answer;
    const clientId = nonEmptyString(answer.client_id);
    // RFC 7662 makes `sub` optional; a client-credentials token acts for its client (as RFC 9068 §2.2 has it).
    const subject = subjectClaim(answer) ?? clientId;
    if (subject === undefined || typeof exp !== 'number') throw new TokenRefusal('missing-claim');
    const now = Date.now() / 1000;
    if (exp + clockSkewS <= now) throw new TokenRefusal('expired');
    if (typeof nbf === 'number' && nbf - clockSkewS > now) throw new TokenRefusal('not-yet-valid');
    return { issuer, subject, clientId: clientId ?? subject, scopes: scopesOf(answer), expiresAt: exp };
  }
}
