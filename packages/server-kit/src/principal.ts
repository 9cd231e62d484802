import os from 'node:os';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

let localUser: string | undefined;

/**
 * Who is calling: the authenticated principal over HTTP (the token's client id), else the local OS user
 * (stdio, or HTTP without auth on loopback). Per-caller data (saved places) is keyed by this.
 */
export function callerPrincipal(extra: Pick<ToolExtra, 'authInfo'>): string {
  const clientId = extra.authInfo?.clientId;
  if (clientId !== undefined && clientId !== '') return `client:${clientId}`;
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
