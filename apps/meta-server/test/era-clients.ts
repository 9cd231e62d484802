// The clients of the era matrix behind one small interface: a v2 SDK client pinned to 2026-07-28, a v2 client
// in the 2025 handshake, and the v1 SDK's client. @modelcontextprotocol/sdk (1.32.2) is a devDependency of this
// package for this file only: clients built on the old SDK must keep working against the v2 server.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as V1Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { clientFor } from '@switchyard/server-kit/testing';
import { cleanEnv, requireBuiltBin } from './helpers.js';

/** Which client: v2 pinned to 2026-07-28, v2 with the 2025 handshake, or the v1 SDK (2025 handshake). */
export type ClientKind = 'modern' | 'legacy' | 'v1';
export const CLIENT_KINDS: readonly ClientKind[] = ['modern', 'legacy', 'v1'];

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

/** What the acceptance flows need from a client, whichever SDK it comes from. */
export interface EraClient {
  readonly kind: ClientKind;
  /** The protocol revision the connection speaks. */
  readonly protocolVersion: string | undefined;
  listToolNames(): Promise<string[]>;
  /**
   * Calls a tool; with `onprogress` the request carries a progress token and `onprogress` gets every
   * `notifications/progress` that reached the client during the call, as read from the transport (see
   * `tapProgress`). One call at a time.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    onprogress?: (update: ProgressUpdate) => void,
  ): Promise<ToolAnswer>;
  /** The `data` of every `notifications/message` the server sent, in order. */
  readonly logMessages: unknown[];
  close(): Promise<void>;
}

/** Where the client connects: the built bin over stdio (with this environment), or an HTTP URL. */
export type Target = { transport: 'stdio'; env: Record<string, string> } | { transport: 'http'; url: string };

interface TappableTransport {
  onmessage?: (message: never, extra?: never) => void;
}

/**
 * Forwards every progress notification the transport delivers to whoever `listener()` names at that moment.
 * Read at the transport, not through the SDK's progress callback: both SDKs hand notifications to their
 * handlers a tick later than responses, so a progress notification that arrives in the same read as its
 * answer (stdio, a loaded machine) is dropped by the client (modelcontextprotocol/typescript-sdk#2580),
 * although the server sent it in time. The matrix checks what the server sends.
 */
function tapProgress(
  transport: TappableTransport,
  listener: () => ((update: ProgressUpdate) => void) | undefined,
): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) throw new Error('tapProgress: connect the client first');
  transport.onmessage = ((
    message: { method?: string; params?: { progressToken?: unknown } & ProgressUpdate },
    extra?: never,
  ) => {
    if (message.method === 'notifications/progress' && message.params !== undefined) {
      const { progressToken: _token, ...update } = message.params;
      listener()?.(update);
    }
    deliver(message as never, extra);
  }) as TappableTransport['onmessage'];
}

/** Runs one call with `onprogress` as the current progress listener of the tap. */
function progressScope() {
  let current: ((update: ProgressUpdate) => void) | undefined;
  return {
    listener: () => current,
    async during<T>(
      onprogress: ((update: ProgressUpdate) => void) | undefined,
      run: () => Promise<T>,
    ): Promise<T> {
      current = onprogress;
      try {
        return await run();
      } finally {
        current = undefined;
      }
    },
  };
}

/** The SDK needs a callback to send a progress token; what arrives is counted by the tap. */
const ignoreProgress = (): void => {};

function stdioParameters(env: Record<string, string>) {
  return {
    command: process.execPath,
    args: [requireBuiltBin()],
    env: cleanEnv(env),
    stderr: 'ignore' as const,
  };
}

/** The one SDK-specific part of an EraClient, once connected. */
interface SdkCalls {
  listTools(): Promise<{ tools: { name: string }[] }>;
  /** `withProgress`: send a progress token (what arrives is read by the tap). */
  callTool(name: string, args: Record<string, unknown>, withProgress: boolean): Promise<ToolAnswer>;
  close(): Promise<void>;
}

function eraClient(
  kind: ClientKind,
  connected: { transport: TappableTransport; protocolVersion: string | undefined; logMessages: unknown[] },
  sdk: SdkCalls,
): EraClient {
  const progress = progressScope();
  tapProgress(connected.transport, progress.listener);
  return {
    kind,
    protocolVersion: connected.protocolVersion,
    logMessages: connected.logMessages,
    listToolNames: async () => (await sdk.listTools()).tools.map((tool) => tool.name),
    callTool: (name, args, onprogress) =>
      progress.during(onprogress, () => sdk.callTool(name, args, onprogress !== undefined)),
    close: () => sdk.close(),
  };
}

async function connectV2(kind: 'modern' | 'legacy', target: Target): Promise<EraClient> {
  const client = clientFor(kind, `era-matrix-${kind}`);
  const logMessages: unknown[] = [];
  client.setNotificationHandler('notifications/message', (notification) => {
    logMessages.push(notification.params.data);
  });
  const transport =
    target.transport === 'stdio'
      ? new StdioClientTransport(stdioParameters(target.env))
      : new StreamableHTTPClientTransport(new URL(target.url));
  await client.connect(transport);
  const connected = {
    transport: transport as TappableTransport,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    logMessages,
  };
  return eraClient(kind, connected, {
    listTools: () => client.listTools(),
    callTool: async (name, args, withProgress) =>
      (await client.callTool(
        { name, arguments: args },
        withProgress ? { onprogress: ignoreProgress } : undefined,
      )) as ToolAnswer,
    close: () => client.close(),
  });
}

async function connectV1(target: Target): Promise<EraClient> {
  const client = new V1Client({ name: 'era-matrix-v1', version: '0.0.0' });
  let protocolVersion: string | undefined;
  const logMessages: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logMessages.push(notification.params.data);
  });
  const transport: V1Transport =
    target.transport === 'stdio'
      ? new V1StdioClientTransport(stdioParameters(target.env))
      : new V1StreamableHTTPClientTransport(new URL(target.url));
  // The v1 client keeps the negotiated revision to itself, but hands it to a transport that asks.
  const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version: string) => {
    protocolVersion = version;
    setProtocolVersion?.(version);
  };
  await client.connect(transport);
  return eraClient(
    'v1',
    { transport: transport as TappableTransport, protocolVersion, logMessages },
    {
      listTools: () => client.listTools(),
      callTool: async (name, args, withProgress) =>
        (await client.callTool(
          { name, arguments: args },
          CallToolResultSchema,
          withProgress ? { onprogress: ignoreProgress } : undefined,
        )) as ToolAnswer,
      close: () => client.close(),
    },
  );
}

export function connectEraClient(kind: ClientKind, target: Target): Promise<EraClient> {
  return kind === 'v1' ? connectV1(target) : connectV2(kind, target);
}
