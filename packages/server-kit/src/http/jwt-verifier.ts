import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { IssuerKeys } from './issuer-keys.js';
import type { OAuthSettings } from './oauth-settings.js';
import {
  scopesOf,
  subjectClaim,
  TokenRefusal,
  type AccessTokenVerifier,
  type RefusalReason,
  type VerifiedToken,
} from './token-refusal.js';

/** Asymmetric algorithms only: never `none`, never HS* (a public key must not double as a shared secret). */
export const ALLOWED_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'] as const;

/** jose's error codes, as refusal categories. */
const REASON_OF_CODE: Readonly<Record<string, RefusalReason>> = {
  [errors.JWTExpired.code]: 'expired',
  [errors.JWSSignatureVerificationFailed.code]: 'bad-signature',
  [errors.JWKSMultipleMatchingKeys.code]: 'bad-signature',
  [errors.JWKSNoMatchingKey.code]: 'unknown-key',
  [errors.JOSEAlgNotAllowed.code]: 'algorithm-not-allowed',
  [errors.JOSENotSupported.code]: 'algorithm-not-allowed',
  [errors.JWSInvalid.code]: 'malformed',
  [errors.JWTInvalid.code]: 'malformed',
  [errors.JWKSTimeout.code]: 'issuer-unavailable',
  [errors.JWKSInvalid.code]: 'issuer-unavailable',
  // A JWKS answered with something other than 200 and a JSON key set.
  [errors.JOSEError.code]: 'issuer-unavailable',
};

/** Claims that failed their check, as refusal categories. */
const REASON_OF_CLAIM: Readonly<Record<string, RefusalReason>> = {
  aud: 'wrong-audience',
  iss: 'unknown-issuer',
  nbf: 'not-yet-valid',
  iat: 'not-yet-valid',
};

function refusalOf(error: unknown): TokenRefusal {
  if (error instanceof TokenRefusal) return error;
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new TokenRefusal(REASON_OF_CLAIM[error.claim] ?? 'missing-claim', { cause: error });
  }
  if (error instanceof errors.JOSEError) {
    return new TokenRefusal(REASON_OF_CODE[error.code] ?? 'malformed', { cause: error });
  }
  // The key set's fetch failed (network, body over the limit).
  return new TokenRefusal('issuer-unavailable', { cause: error });
}

/** The resource URI as a token may carry it: as configured, and with or without a trailing slash. */
function audiencesOf(resource: URL): string[] {
  const href = resource.href;
  return [...new Set([href, href.replace(/\/$/, ''), href.endsWith('/') ? href : `${href}/`])];
}

/**
 * JWT access tokens (RFC 9068) checked locally: the header's algorithm is on the allowed list and the `iss`
 * claim names a trusted issuer before anything is fetched (an attacker's token never makes this server
 * fetch from an address of its choosing); then jose checks the signature against that issuer's keys,
 * `iss`, `aud` (this server's resource URI, RFC 8707), `exp` and `nbf` within the clock skew, and that
 * `sub` (a non-empty string) and `exp` are present.
 */
export class JwtAccessTokenVerifier implements AccessTokenVerifier {
  private readonly keys: IssuerKeys;
  private readonly trusted: ReadonlySet<string>;
  private readonly audiences: string[];

  constructor(private readonly settings: OAuthSettings) {
    this.keys = new IssuerKeys(settings);
    this.trusted = new Set(settings.issuers);
    this.audiences = audiencesOf(settings.resource);
  }

  /** The token's issuer, once its algorithm and issuer are acceptable (read unverified: nothing else is). */
  private trustedIssuerOf(token: string): string {
    let alg: string | undefined;
    let iss: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
      iss = decodeJwt(token).iss;
    } catch (error) {
      throw new TokenRefusal('malformed', { cause: error });
    }
    if (!(ALLOWED_ALGORITHMS as readonly (string | undefined)[]).includes(alg)) {
      throw new TokenRefusal('algorithm-not-allowed');
    }
    if (iss === undefined || !this.trusted.has(iss)) throw new TokenRefusal('unknown-issuer');
    return iss;
  }

  async verify(token: string): Promise<VerifiedToken> {
    try {
      const iss = this.trustedIssuerOf(token);
      const { payload } = await jwtVerify(token, await this.keys.keySetFor(iss), {
        issuer: iss,
        audience: this.audiences,
        algorithms: [...ALLOWED_ALGORITHMS],
        clockTolerance: this.settings.clockSkewS,
        requiredClaims: ['sub', 'exp'],
      });
      // Present: requiredClaims checked that.
      const subject = subjectClaim(payload) as string;
      const clientId = [payload.client_id, payload.azp].find((value) => typeof value === 'string') as
        string | undefined;
      return {
        issuer: iss,
        subject,
        clientId: clientId ?? subject,
        scopes: scopesOf(payload),
        expiresAt: payload.exp as number,
      };
    } catch (error) {
      throw refusalOf(error);
    }
  }
}
