import { afterEach, describe, expect, it } from 'vitest';
import { MODERN_PROTOCOL_VERSION, rawHttpRequest } from '../src/testing.js';
import { echoDomain } from './fixtures/echo-domain.js';
import { httpTestHarness, MCP_POST_HEADERS, MODERN_META } from './helpers.js';

/** How the HTTP host writes the SDK's answers (http/fetch-bridge.ts). */
const { start, closeAll } = httpTestHarness();
afterEach(closeAll);

const echo = () => ({ domain: echoDomain(), config: undefined });

describe('the answers of /mcp', () => {
  it('sends a JSON answer whole, with its length rather than in chunks', async () => {
    const { url } = await start([echo()]);
    const answer = await rawHttpRequest(url, {
      method: 'POST',
      headers: {
        ...MCP_POST_HEADERS,
        'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: MODERN_META } }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(JSON.parse(answer.body)).toMatchObject({ id: 7, result: { tools: expect.any(Array) } });
  });

  it('sends an answer of multi-byte text whole: its length counts bytes, and every byte arrives', async () => {
    const { url } = await start([echo()]);
    // 1000 characters, 2 to 4 bytes each: the answer is read from the SDK's body stream as bytes, never as text.
    const text = 'ü€😀'.repeat(250);
    const answer = await rawHttpRequest(url, {
      method: 'POST',
      headers: {
        ...MCP_POST_HEADERS,
        'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': 'echo_text',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'echo_text', arguments: { text }, _meta: MODERN_META },
      }),
    });
    expect(answer.status).toBe(200);
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(Buffer.byteLength(answer.body)).toBeGreaterThan(Buffer.byteLength(text));
    expect(JSON.parse(answer.body)).toMatchObject({ id: 8, result: { structuredContent: { text } } });
  });

  it('frames every event of a stream written in one turn, and serves the next request on the connection', async () => {
    const { url } = await start([echo()]);
    const batch = JSON.stringify([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })));
    // fetch keeps the connection: a stream framed out of order would break the second answer, or the first.
    for (let round = 0; round < 2; round += 1) {
      const answer = await fetch(url, { method: 'POST', headers: MCP_POST_HEADERS, body: batch });
      expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = (await answer.text()).split('\n\n').filter((event) => event.includes('data: '));
      const ids = events.map((event) => (JSON.parse(event.split('data: ')[1]!) as { id: number }).id);
      expect(ids.sort()).toEqual([1, 2, 3]);
    }
  });
});
