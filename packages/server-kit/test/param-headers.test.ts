import { afterEach, describe, expect, it } from 'vitest';
import { callTool, jsonRpcAnswerOf, modernRequest, postModern, rawHttpRequest } from '../src/testing.js';
import { statedMount } from './fixtures/stated-domain.js';
import { httpTestHarness, MCP_POST_HEADERS } from './helpers.js';

const { start, connectClient, closeAll } = httpTestHarness();
afterEach(closeAll);

type Json = Record<string, unknown>;

const QUERY = { query: 'SELECT 1' };

/** A 2026-07-28 tools/call of `name` with `args`, its standard headers and `headers` more. */
async function call(url: string, name: string, args: Json, headers: Record<string, string> = {}) {
  const response = await postModern(
    url,
    modernRequest(7, 'tools/call', { name, arguments: args }, {}),
    undefined,
    headers,
  );
  return { status: response.status, answer: jsonRpcAnswerOf(response.body) };
}

describe("SEP-2243's Mcp-Param-* headers of a 2026-07-28 tools/call, over HTTP", () => {
  it('lets a real SDK client call: it mirrors the annotated arguments itself, encoded where needed', async () => {
    const { url } = await start([statedMount]);
    const { client } = await connectClient(url);
    await client.listTools();
    for (const region of ['us-west1', 'Hello, 世界', ' padded ', '=?base64?literal?=']) {
      const answer = await callTool(client, 'run_query', { region, priority: 3, verbose: true, ...QUERY });
      expect(answer.structured, region).toEqual({ text: `SELECT 1 in ${region} at 3` });
    }
    expect((await callTool(client, 'tenant_note', { tenant: 'acme', note: 'hi' })).structured).toEqual({
      text: 'acme: hi',
    });
  });

  it.each([
    ['a plain value', 'us-west1', { 'mcp-param-region': 'us-west1' }],
    ['whitespace around the value (not part of it)', 'us-west1', { 'mcp-param-region': '  us-west1\t' }],
    ['the header name in any case', 'us-west1', { 'MCP-PARAM-REGION': 'us-west1' }],
    ['a Base64 value, decoded', 'Hello, 世界', { 'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=' }],
    [
      'a Base64 value with edge whitespace inside',
      ' padded ',
      { 'mcp-param-region': '=?base64?IHBhZGRlZCA=?=' },
    ],
    [
      'a sentinel-looking value without the suffix, as a literal',
      '=?base64?SGk',
      { 'mcp-param-region': '=?base64?SGk' },
    ],
  ])('accepts %s', async (_what, region, headers) => {
    const { url } = await start([statedMount]);
    const { status, answer } = await call(url, 'run_query', { region, ...QUERY }, headers);
    expect(status).toBe(200);
    expect(answer.result).toMatchObject({ structuredContent: { text: `SELECT 1 in ${region} at 0` } });
  });

  it('compares an integer as a number and a boolean as its lowercase text', async () => {
    const { url } = await start([statedMount]);
    const headers = { 'mcp-param-region': 'eu', 'mcp-param-priority': '42.0', 'mcp-param-verbose': 'true' };
    const args = { region: 'eu', priority: 42, verbose: true, ...QUERY };
    expect((await call(url, 'run_query', args, headers)).status).toBe(200);
    const wrongCase = { ...headers, 'mcp-param-verbose': 'True' };
    expect((await call(url, 'run_query', args, wrongCase)).status).toBe(400);
  });

  it('expects no header for a parameter left out or null', async () => {
    const { url } = await start([statedMount]);
    const { status } = await call(
      url,
      'tenant_note',
      { tenant: 'acme', note: null },
      { 'mcp-param-tenant': 'acme' },
    );
    // The note is not mirrored; a refusal here would be the contract's (null is no string), not the headers'.
    expect(status).toBe(200);
    expect(
      (await call(url, 'run_query', { region: 'eu', ...QUERY }, { 'mcp-param-region': 'eu' })).status,
    ).toBe(200);
  });

  it.each([
    [
      'missing',
      {},
      /arguments\.region is set but the Mcp-Param-Region header is missing: send Mcp-Param-Region/,
    ],
    [
      'different',
      { 'mcp-param-region': 'eu-north1' },
      /the Mcp-Param-Region header does not match arguments\.region/,
    ],
    ['a value that differs in case', { 'mcp-param-region': 'US-WEST1' }, /does not match arguments\.region/],
    ['Base64 with bad padding', { 'mcp-param-region': '=?base64?SGVsbG8?=' }, /not canonical Base64/],
    [
      'Base64 with characters outside its alphabet',
      { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' },
      /not canonical Base64/,
    ],
    // Node sends Latin-1 as it is: a client must send non-ASCII in the Base64 form.
    [
      'non-ASCII sent as it is',
      { 'mcp-param-region': 'us-wést1' },
      /holds characters a header value may not/,
    ],
    [
      'Base64 of bytes that are not UTF-8',
      { 'mcp-param-region': '=?base64?/w==?=' },
      /not canonical Base64 of UTF-8/,
    ],
  ])(
    'refuses a header that is %s: HTTP 400, HeaderMismatch (-32020), the request id',
    async (_what, headers, message) => {
      const { url, lines } = await start([statedMount]);
      const { status, answer } = await call(url, 'run_query', { region: 'us-west1', ...QUERY }, headers);
      expect(status).toBe(400);
      expect(answer).toMatchObject({ id: 7, error: { code: -32020 } });
      expect(String((answer.error as Json).message)).toMatch(message);
      // What the client sent stays out of the answer and the log: a header value may be anything.
      expect(String((answer.error as Json).message)).not.toContain('us-west1');
      expect(lines.join('\n')).not.toContain('us-west1');
    },
  );

  it("checks a stated document's annotations as a zod contract's", async () => {
    const { url } = await start([statedMount]);
    const { status, answer } = await call(
      url,
      'tenant_note',
      { tenant: 'acme' },
      { 'mcp-param-tenant': 'other' },
    );
    expect(status).toBe(400);
    expect(answer).toMatchObject({ error: { code: -32020 } });
  });

  it('leaves a 2025-era request alone: its clients mirror nothing', async () => {
    const { url } = await start([statedMount]);
    const response = await rawHttpRequest(url, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'run_query', arguments: { region: 'eu', ...QUERY } },
      }),
    });
    expect(response.status).toBe(200);
    expect(jsonRpcAnswerOf(response.body).result).toMatchObject({
      structuredContent: { text: 'SELECT 1 in eu at 0' },
    });
  });

  it('allows the mirrored headers in a CORS preflight of an allowed origin', async () => {
    const origin = 'https://app.example';
    const { url } = await start([statedMount], { allowedOrigins: [origin] });
    const preflight = await rawHttpRequest(url, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'mcp-param-region',
      },
    });
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('Mcp-Param-Region');
  });
});
