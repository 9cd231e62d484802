import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MODERN_PROTOCOL_VERSION, rawHttpRequest, type ProtocolEra } from '../src/testing.js';
import { echoDomain } from './fixtures/echo-domain.js';
import {
  httpTestHarness,
  MCP_POST_HEADERS,
  MODERN_META,
  startInProcessStdio,
  type InProcessStdio,
} from './helpers.js';

/**
 * A request whose params break the spec is the caller's mistake: -32602 saying what to fix, never -32603
 * with the SDK's issue list (issue #34: `logging/setLevel {level: "bogus"}`).
 */
const echo = () => ({ domain: echoDomain(), config: undefined });
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

const { start, connectClient, closeAll } = httpTestHarness();
let stdio: InProcessStdio | undefined;
afterEach(async () => {
  await closeAll();
  await stdio?.close();
  stdio = undefined;
});

const TRANSPORTS = {
  stdio: async (era: ProtocolEra): Promise<Client> => {
    stdio = await startInProcessStdio([echo()]);
    return stdio.connectClient(era);
  },
  http: async (era: ProtocolEra): Promise<Client> => {
    const { url } = await start([echo()]);
    return (await connectClient(url, undefined, era)).client;
  },
};

/** The JSON-RPC error `method` with `params` answers, as the client sees it. */
async function failureOf(client: Client, method: string, params: Record<string, unknown>) {
  const outcome = await client.request({ method, params } as never).then(
    () => undefined,
    (error: unknown) => error as { code?: unknown; message?: unknown },
  );
  return { code: outcome?.code, message: String(outcome?.message) };
}

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('over %s', (transport) => {
  it('answers logging/setLevel with an unknown level -32602 naming the levels (2025 era)', async () => {
    const client = await TRANSPORTS[transport]('legacy');
    const { code, message } = await failureOf(client, 'logging/setLevel', { level: 'bogus' });
    expect(code).toBe(-32602);
    expect(message).toContain('Invalid params for logging/setLevel: params.level:');
    for (const level of LEVELS) expect(message).toContain(`"${level}"`);
    expect(message).not.toContain('"path"');
    // A known level is still taken.
    await expect(client.setLoggingLevel('warning')).resolves.toBeDefined();
  });

  it.each(['legacy', 'modern'] as const)(
    'answers resources/read with a uri that is not text -32602 (%s era)',
    async (era) => {
      const client = await TRANSPORTS[transport](era);
      const { code, message } = await failureOf(client, 'resources/read', { uri: 5 });
      expect(code).toBe(-32602);
      expect(message).toContain('Invalid params for resources/read: params.uri: Invalid input');
      expect(message).not.toContain('"path"');
    },
  );
});

describe('logging/setLevel in the 2026-07-28 era, which has no such method', () => {
  const request = {
    jsonrpc: '2.0',
    id: 1,
    method: 'logging/setLevel',
    params: { level: 'bogus', _meta: MODERN_META },
  };
  const methodNotFound = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } };

  it('is an unknown method over HTTP', async () => {
    const { url } = await start([echo()]);
    const answer = await rawHttpRequest(url, {
      method: 'POST',
      headers: {
        ...MCP_POST_HEADERS,
        'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
        'mcp-method': 'logging/setLevel',
      },
      body: JSON.stringify(request),
    });
    expect(JSON.parse(answer.body)).toEqual(methodNotFound);
  });

  it('is an unknown method over stdio', async () => {
    stdio = await startInProcessStdio([echo()]);
    stdio.write(`${JSON.stringify(request)}\n`);
    expect(await stdio.response(1)).toEqual(methodNotFound);
  });
});
