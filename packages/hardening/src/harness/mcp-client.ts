import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { clientFor, type ProtocolEra } from '@switchyard/server-kit/testing';
import { defaultEra } from '../profile.js';

export interface ToolAnswer {
  isError: boolean;
  /** The structured content (every Switchyard tool answers with one). */
  structured: Record<string, unknown> | undefined;
  /** The text mirror(s). */
  text: string;
}

export interface HttpClientOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** The protocol era the client speaks (pinned, never negotiated); default HARDENING_ERA, else modern. */
  era?: ProtocolEra;
  name?: string;
}

/**
 * A real v2 SDK client over Streamable HTTP that speaks exactly one era: 2026-07-28 (modern: no handshake,
 * every request carries its envelope) or the 2025 `initialize` handshake (legacy). The server keeps nothing
 * between requests in either era.
 */
export async function connectHttp(url: string, options: HttpClientOptions = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit:
      options.token === undefined ? undefined : { headers: { Authorization: `Bearer ${options.token}` } },
  });
  const client = clientFor(options.era ?? defaultEra(), options.name ?? 'switchyard-hardening');
  await client.connect(transport);
  return client;
}

export async function callTool(
  client: Client,
  name: string,
  args: unknown,
  options: { timeoutMs?: number } = {},
): Promise<ToolAnswer> {
  const result = await client.callTool(
    { name, arguments: args as Record<string, unknown> },
    options.timeoutMs === undefined ? undefined : { timeout: options.timeoutMs },
  );
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('\n');
  return {
    isError: result.isError === true,
    structured: result.structuredContent as Record<string, unknown> | undefined,
    text,
  };
}
