import os from 'node:os';

let localUser: string | undefined;

interface AuthLike {
  clientId?: string;
  scopes?: string[];
  extra?: Record<string, unknown>;
}

/** What the HTTP auth layer records about an OAuth caller (in `AuthInfo.extra`). */
export interface OAuthIdentity {
  subject: string;
  /** The token's issuer when several issuers are trusted (principals then carry it), else undefined. */
  qualifyingIssuer: string | undefined;
}

/** An OAuth caller as tool handlers see it: the token's subject and scopes. */
export interface OAuthCaller {
  subject: string;
  scopes: ReadonlySet<string>;
  /** The principal `subject` has when it calls with a token of this caller's issuer. */
  principalOf(subject: string): string;
  /** The prefix every principal of this caller's issuer starts with. */
  readonly issuerPrefix: string;
}

/** The principal of an OAuth subject: `oauth:<sub>`, or `oauth:<iss>#<sub>` when several issuers are trusted. */
export function oauthPrincipal(subject: string, qualifyingIssuer: string | undefined): string {
  return `${oauthPrefix(qualifyingIssuer)}${subject}`;
}

function oauthPrefix(qualifyingIssuer: string | undefined): string {
  return qualifyingIssuer === undefined ? 'oauth:' : `oauth:${qualifyingIssuer}#`;
}

/**
 * Who is calling: over HTTP with OAuth the access token's subject (`oauth:<sub>`, or `oauth:<iss>#<sub>`
 * when several issuers are trusted), with the static token its fingerprint (`client:token-...`), else the
 * local OS user (stdio, or HTTP without auth on loopback). Per-caller data is keyed by this.
 */
export function callerPrincipal(auth: AuthLike | undefined): string {
  const principal = auth?.extra?.principal;
  if (typeof principal === 'string' && principal !== '') return principal;
  const clientId = auth?.clientId;
  if (clientId !== undefined && clientId !== '') return `client:${clientId}`;
  return localPrincipal();
}

/** The OAuth side of a caller, when it authenticated with an OAuth access token (else undefined). */
export function callerOAuth(auth: AuthLike | undefined): OAuthCaller | undefined {
  const identity = auth?.extra?.oauth as OAuthIdentity | undefined;
  if (identity === undefined) return undefined;
  const issuerPrefix = oauthPrefix(identity.qualifyingIssuer);
  return {
    subject: identity.subject,
    scopes: new Set(auth?.scopes ?? []),
    principalOf: (subject) => `${issuerPrefix}${subject}`,
    issuerPrefix,
  };
}

/** The principal of the OS user running the server: stdio callers, and data from before owners were kept. */
export function localPrincipal(): string {
  localUser ??= `local:${safeUserName()}`;
  return localUser;
}

function safeUserName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'default';
  }
}
