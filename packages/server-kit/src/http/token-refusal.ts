/**
 * Why an access token was refused: a category, never the token or its claims. The category is what the
 * log records and, as `error_description`, what the client reads.
 */
export const REFUSALS = {
  missing: { status: 401, description: 'send the header "Authorization: Bearer <access token>"' },
  malformed: { status: 401, description: 'the access token is not a well-formed token' },
  expired: { status: 401, description: 'the access token has expired' },
  'not-yet-valid': { status: 401, description: 'the access token is not valid yet' },
  'bad-signature': { status: 401, description: 'the access token signature does not verify' },
  'unknown-key': {
    status: 401,
    description: "the access token is signed with a key the issuer doesn't publish",
  },
  'algorithm-not-allowed': {
    status: 401,
    description: 'the access token is signed with an algorithm not accepted',
  },
  'unknown-issuer': {
    status: 401,
    description: 'the access token comes from an issuer this server does not trust',
  },
  'wrong-audience': { status: 401, description: 'the access token was not issued for this resource' },
  'missing-claim': { status: 401, description: 'the access token lacks a required claim (sub, exp)' },
  inactive: { status: 401, description: 'the access token is not active' },
  'issuer-unavailable': {
    status: 503,
    description: 'the authorization server could not be reached to check the token; try again later',
  },
} as const satisfies Record<string, { status: 401 | 503; description: string }>;

export type RefusalReason = keyof typeof REFUSALS;

/** A token refused for `reason`; its message names only the category. */
export class TokenRefusal extends Error {
  override readonly name = 'TokenRefusal';

  constructor(
    readonly reason: RefusalReason,
    options?: { cause?: unknown },
  ) {
    super(`access token refused: ${reason}`, options);
  }
}

/** What a verified access token says about its caller. */
export interface VerifiedToken {
  issuer: string;
  subject: string;
  /** `client_id` (or `azp`) when the token names its client, else the subject. */
  clientId: string;
  scopes: string[];
  /** Seconds since the epoch. */
  expiresAt: number;
}

/** Checks an access token; throws `TokenRefusal` when it must be refused. */
export interface AccessTokenVerifier {
  verify(token: string): Promise<VerifiedToken>;
}

/**
 * The `sub` claim, undefined when absent. RFC 7519 §4.1.2 makes it a string: a number, an object, null or
 * the empty string makes the token malformed (an object would otherwise name the one principal
 * `oauth:[object Object]` for every such token).
 */
export function subjectClaim(claims: Readonly<Record<string, unknown>>): string | undefined {
  const { sub } = claims;
  if (sub === undefined) return undefined;
  if (typeof sub !== 'string' || sub === '') throw new TokenRefusal('malformed');
  return sub;
}

/** `scope` (space-separated, RFC 9068 / RFC 7662) or `scp` (a list or a string, Entra ID and Okta). */
export function scopesOf(claims: Readonly<Record<string, unknown>>): string[] {
  const raw = claims.scope ?? claims.scp;
  if (Array.isArray(raw)) return raw.filter((scope): scope is string => typeof scope === 'string');
  if (typeof raw === 'string') return raw.split(' ').filter((scope) => scope !== '');
  return [];
}
