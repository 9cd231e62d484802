import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { BoundedStdioServerTransport, recoverRequestId } from '../src/stdio/bounded-stdio-transport.js';
import { echoDomain } from './fixtures/echo-domain.js';
import { memoryLogger, startInProcessStdio, type InProcessStdio } from './helpers.js';

const LIMIT = 1024;

async function harness() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const received: JSONRPCMessage[] = [];
  const answers: Record<string, unknown>[] = [];
  let pending = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    answers.push(...lines.map((line) => JSON.parse(line) as Record<string, unknown>));
  });
  const { logger, lines } = memoryLogger();
  const transport = new BoundedStdioServerTransport(stdin, stdout, LIMIT, logger);
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { stdin, transport, received, answers, lines, settle };
}

const call = (id: number | string, text: string) =>
  JSON.stringify({ method: 'tools/call', params: { name: 'echo', arguments: { text } }, jsonrpc: '2.0', id });

describe('BoundedStdioServerTransport', () => {
  it('answers an oversized message with -32600 naming the limit and its id, then serves the next one', async () => {
    const { stdin, received, answers, lines, settle } = await harness();
    const big = call(7, 'x'.repeat(5 * LIMIT));
    // In pieces, the way a pipe delivers it, with the next message in the same chunk as the end.
    stdin.write(big.slice(0, 100));
    stdin.write(big.slice(100, 3000));
    stdin.write(`${big.slice(3000)}\n${call(8, 'small')}\n`);
    await settle();
    expect(answers).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32600,
          message: `Request too large: the message is ${big.length} bytes; this server accepts at most ${LIMIT} bytes per message`,
        },
      },
    ]);
    expect(received).toEqual([JSON.parse(call(8, 'small'))]);
    expect(lines.some((line) => line.includes('"level":"error"'))).toBe(false);
  });

  it('accepts a message of exactly the limit, and one byte more is refused', async () => {
    const { stdin, received, answers, settle } = await harness();
    const base = call(1, '');
    const exact = call(1, 'y'.repeat(LIMIT - base.length));
    expect(exact.length).toBe(LIMIT);
    stdin.write(`${exact}\n`);
    stdin.write(`${call(2, 'y'.repeat(LIMIT - base.length + 1))}\n`);
    stdin.write(`${call(3, 'crlf')}\r\n`);
    await settle();
    expect(received).toEqual([JSON.parse(exact), JSON.parse(call(3, 'crlf'))]);
    expect(answers).toMatchObject([{ id: 2, error: { code: -32600 } }]);
  });

  it('reads a line split over chunks: a character cut between them, and a carriage return arriving last', async () => {
    const { stdin, received, settle } = await harness();
    const bytes = Buffer.from(`${call(4, 'caf\u00e9 \u2603')}\r\n`, 'utf8');
    const cut = bytes.indexOf(0xe2) + 1;
    stdin.write(bytes.subarray(0, cut));
    stdin.write(bytes.subarray(cut, bytes.length - 2));
    stdin.write(bytes.subarray(bytes.length - 2, bytes.length - 1));
    stdin.write(bytes.subarray(bytes.length - 1));
    await settle();
    expect(received).toEqual([JSON.parse(call(4, 'caf\u00e9 \u2603'))]);
  });

  it('answers id null when the id cannot be read, and -32700 to a line that is not JSON', async () => {
    const { stdin, received, answers, settle } = await harness();
    stdin.write(`${'['.repeat(3 * LIMIT)}\n`);
    stdin.write('{"jsonrpc":"2.0","id":3,\n');
    stdin.write('{"jsonrpc":"2.0","id":4,"method":7}\n');
    // A broken response (to a request of the server's) is dropped: answering it would look like a request.
    stdin.write('{"jsonrpc":"2.0","id":5,"result":"not an object"}\n');
    stdin.write(`${call('last', 'still serving')}\n`);
    await settle();
    expect(answers).toMatchObject([
      { id: null, error: { code: -32600 } },
      { id: null, error: { code: -32700 } },
      { id: 4, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' } },
    ]);
    expect(received).toEqual([JSON.parse(call('last', 'still serving'))]);
  });
});

describe('recoverRequestId', () => {
  const pad = 'z'.repeat(50);
  it('reads a top-level id at the start or the end of the message', () => {
    expect(recoverRequestId(`{"jsonrpc":"2.0","id":12,"method":"x","params":{"a":"${pad}`, '')).toBe(12);
    expect(recoverRequestId(`{"method":"tools/call","id":"abc","params":{`, '')).toBe('abc');
    expect(recoverRequestId('{"params":{"a":"', `${pad}"}},"jsonrpc":"2.0","id":-3}`)).toBe(-3);
    expect(recoverRequestId('{"params":{"a":"', `${pad}"},"id":"q\\"x"}\r`)).toBe('q"x');
  });

  it('does not mistake an id nested in params or inside a string for the message id', () => {
    expect(recoverRequestId('{"params":{"id":5,"a":"', `${pad}"}}`)).toBeNull();
    expect(recoverRequestId('{"method":"x","params":{"a":"', `${pad}","id":5}}`)).toBeNull();
    expect(recoverRequestId('{"params":{"a":"', `text \\"id\\":5}"}`)).toBeNull();
    expect(recoverRequestId('[[[[', ']]]]')).toBeNull();
  });
});

describe.each(['modern', 'legacy'] as const)(
  'stdio served by serveStdio over the bounded transport (%s era)',
  (era) => {
    let stdio: InProcessStdio | undefined;
    afterEach(async () => {
      await stdio?.close();
      stdio = undefined;
    });

    it('refuses an oversized call with -32600 naming the limit, and serves the next call on the same connection', async () => {
      stdio = await startInProcessStdio([{ domain: echoDomain(), config: undefined }], {
        maxMessageBytes: 4096,
      });
      const client = await stdio.connectClient(era);
      const refused = await client
        .callTool({ name: 'echo_text', arguments: { text: 'x'.repeat(10_000) } })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: -32600,
        message: expect.stringContaining('this server accepts at most 4096 bytes per message'),
      });
      const served = await client.callTool({ name: 'echo_text', arguments: { text: 'still here' } });
      expect(served.structuredContent).toMatchObject({ text: 'still here' });
      // A line that is not JSON gets a parse error with id null; the connection goes on.
      stdio.write('this is not json\n');
      await expect(client.listTools()).resolves.toMatchObject({ tools: expect.any(Array) });
      expect(stdio.output).toContainEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: the message is not valid JSON' },
      });
      expect(stdio.lines.some((line) => line.includes('"level":"error"'))).toBe(false);
    });
  },
);
