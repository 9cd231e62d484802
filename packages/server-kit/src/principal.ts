import os from 'node:os';

let localUser: string | undefined;

/**
 * Who is calling: over HTTP with OAuth the access token's subject (`oauth:<sub>`, or `oauth:<iss>#<sub>`
 * when several issuers are trusted), with the static token its fingerprint (`client:token-...`), else the
 * local OS user (stdio, or HTTP without auth on loopback). Per-caller data is keyed by this.
 */
export function callerPrincipal(
  auth: { clientId?: string; extra?: Record<string, unknown> } | undefined,
): string {
  const principal = auth?.extra?.principal;
  if (typeof principal === 'string' && principal !== '') return principal;
  const clientId = auth?.clientId;
  if (clientId !== undefined && clientId !== '') return `client:${clientId}`;
  return localPrincipal();
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
