import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface ToolAnswer {
  isError: boolean;
  /** The structured content (every Switchyard tool answers with one). */
  structured: Record<string, unknown> | undefined;
  /** The text mirror(s). */
  text: string;
}

/** A real SDK client over Streamable HTTP, with the bearer token when given. */
export async function connectHttp(
  url: string,
  token?: string,
  name = 'switchyard-hardening',
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  });
  const client = new Client({ name, version: '0.0.0' });
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
    undefined,
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
