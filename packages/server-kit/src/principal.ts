import os from 'node:os';

let localUser: string | undefined;

/**
 * Who is calling: the authenticated principal over HTTP (the token's client id), else the local OS user
 * (stdio, or HTTP without auth on loopback). Per-caller data (saved places) is keyed by this.
 */
export function callerPrincipal(auth: { clientId?: string } | undefined): string {
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
