import { afterEach, describe, expect, it } from 'vitest';
import { tooDeepArgument } from '../src/argument-depth.js';
import {
  connectInMemory,
  MODERN_PROTOCOL_VERSION,
  rawHttpRequest,
  type ProtocolEra,
} from '../src/testing.js';
import { echoDomain } from './fixtures/echo-domain.js';
import { httpTestHarness, INITIALIZE_BODY, MCP_POST_HEADERS, startInProcessStdio } from './helpers.js';

/** `levels` nested arrays around 1: `nested(2)` is `[[1]]`. */
function nested(levels: number, wrap: (inner: unknown) => unknown = (inner) => [inner]): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = wrap(value);
  return value;
}

const echoMount = () => ({ domain: echoDomain(), config: undefined });
const DEEP_LIMIT_MESSAGE =
  /^text nests objects and arrays more than 64 levels deep \(the limit\); send a flatter value$/;

describe('tooDeepArgument', () => {
  it('counts the arguments object as level 1 and names the first field past the limit', () => {
    // { a: [[1]] }: the arguments object, then two arrays: 3 levels.
    expect(tooDeepArgument({ a: nested(2) }, 3)).toBeUndefined();
    expect(tooDeepArgument({ a: nested(3) }, 3)).toBe('a');
    expect(tooDeepArgument({ ok: nested(1), deep: nested(5, (inner) => ({ x: inner })) }, 4)).toBe('deep');
    expect(tooDeepArgument({ text: 'plain', n: 1, none: null }, 1)).toBeUndefined();
    // A list of plain values is a level of its own.
    expect(tooDeepArgument({ lines: ['central', 'victoria'] }, 2)).toBeUndefined();
    expect(tooDeepArgument({ lines: ['central', 'victoria'] }, 1)).toBe('lines');
  });

  it('walks a million levels without a RangeError, and wide values without missing a deep branch', () => {
    expect(tooDeepArgument({ messages: nested(1_000_000) }, 64)).toBe('messages');
    const wide = Array.from({ length: 10_000 }, (_, index) => (index === 9_999 ? nested(70) : { x: 1 }));
    expect(tooDeepArgument({ rows: wide }, 64)).toBe('rows');
    expect(tooDeepArgument({ rows: wide.slice(0, -1) }, 64)).toBeUndefined();
  });
});

/** A tools/call for echo_text with `levels` nested arrays as its text, written by hand (no recursion). */
function deepCallBody(id: number, levels: number, era: ProtocolEra): string {
  const meta =
    era === 'modern'
      ? `,"_meta":${JSON.stringify({
          'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        })}`
      : '';
  const text = `${'['.repeat(levels)}1${']'.repeat(levels)}`;
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo_text","arguments":{"text":${text}}${meta}}}`;
}

describe.each(['modern', 'legacy'] as const)('deep tool arguments (%s era)', (era) => {
  it("answers the contract's validation error naming the field and the limit, before the schema runs", async () => {
    const { client, close } = await connectInMemory([echoMount()], { era });
    try {
      // The echo schema would reject the field anyway; the depth error comes first and says why. (3,000
      // levels: as deep as the SDK client's own serializer goes; deeper ones are sent raw below.)
      const deep = await client.callTool({ name: 'echo_text', arguments: { text: nested(3_000) } });
      expect(deep.isError).toBe(true);
      expect(deep.structuredContent).toMatchObject({
        error: { kind: 'validation', message: expect.stringMatching(DEEP_LIMIT_MESSAGE) },
      });
      const fine = await client.callTool({ name: 'echo_text', arguments: { text: 'shallow' } });
      expect(fine.structuredContent).toMatchObject({ text: 'shallow' });
    } finally {
      await close();
    }
  });

  it('takes its limit from maxArgumentDepth', async () => {
    const { client, close } = await connectInMemory([echoMount()], { era, maxArgumentDepth: 3 });
    try {
      const answer = await client.callTool({ name: 'echo_text', arguments: { text: nested(3) } });
      expect(answer.structuredContent).toMatchObject({
        error: { kind: 'validation', message: expect.stringContaining('more than 3 levels') },
      });
      const shallower = await client.callTool({ name: 'echo_text', arguments: { text: nested(2) } });
      expect(shallower.structuredContent).toMatchObject({
        error: { kind: 'validation', message: expect.not.stringContaining('levels') },
      });
    } finally {
      await close();
    }
  });

  describe('served by runServer', () => {
    const h = httpTestHarness();
    afterEach(() => h.closeAll());

    /** The message of the validation error echo_text answers to `levels` nested arrays. */
    async function refusalOf(url: string, levels: number): Promise<string | undefined> {
      const { client } = await h.connectClient(url, undefined, era);
      const answer = await client.callTool({ name: 'echo_text', arguments: { text: nested(levels) } });
      return (answer.structuredContent as { error?: { message: string } }).error?.message;
    }

    it('takes its limit from the maxArgumentDepth option, over SWITCHYARD_MAX_ARGUMENT_DEPTH', async () => {
      const { url } = await h.start(
        [echoMount()],
        {},
        { maxArgumentDepth: 3, env: { SWITCHYARD_MAX_ARGUMENT_DEPTH: '50' } },
      );
      expect(await refusalOf(url, 3)).toContain('more than 3 levels');
      // Two levels pass the depth check and reach the schema, which wants a string.
      expect(await refusalOf(url, 2)).not.toContain('levels');
    });

    it('takes its limit from SWITCHYARD_MAX_ARGUMENT_DEPTH without the option', async () => {
      const { url } = await h.start([echoMount()], {}, { env: { SWITCHYARD_MAX_ARGUMENT_DEPTH: '3' } });
      expect(await refusalOf(url, 3)).toContain('more than 3 levels');
    });
  });

  describe('100,000 levels, sent raw (past what an SDK client can serialize)', () => {
    const h = httpTestHarness();
    afterEach(() => h.closeAll());

    it('over HTTP get the same answer, never a 500', async () => {
      const { url, lines } = await h.start([echoMount()]);
      const headers =
        era === 'modern'
          ? {
              ...MCP_POST_HEADERS,
              'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
              'mcp-method': 'tools/call',
              'mcp-name': 'echo_text',
            }
          : MCP_POST_HEADERS;
      const answer = await rawHttpRequest(url, {
        method: 'POST',
        headers,
        body: deepCallBody(9, 100_000, era),
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('text nests objects and arrays more than 64 levels deep');
      expect(lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
    });

    it('over stdio get the same answer, and the connection goes on', async () => {
      const stdio = await startInProcessStdio([echoMount()]);
      try {
        if (era === 'legacy') {
          stdio.write(
            `${JSON.stringify(INITIALIZE_BODY)}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
          );
          await stdio.response(1);
        }
        stdio.write(`${deepCallBody(9, 100_000, era)}\n`);
        const answer = await stdio.response(9);
        expect(answer).toMatchObject({
          result: {
            isError: true,
            structuredContent: {
              error: { kind: 'validation', message: expect.stringMatching(DEEP_LIMIT_MESSAGE) },
            },
          },
        });
        expect(stdio.lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
      } finally {
        await stdio.close();
      }
    });
  });
});
