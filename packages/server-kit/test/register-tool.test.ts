import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger, registerContractTool, type DomainContext } from '../src/index.js';

const Input = z.strictObject({
  word: z.string().min(1).describe('A word to echo.'),
  times: z.number().int().min(1).max(3).default(1).describe('How many times.'),
  fail: z.enum(['none', 'domain', 'crash', 'contract']).default('none').describe('Failure to simulate.'),
});
const Output = z.object({ echoed: z.string().describe('The echo.') });

const lines: string[] = [];
const ctx = (strictOutput: boolean): DomainContext => ({
  logger: createLogger({ level: 'debug', write: (line) => lines.push(line) }),
  dataDir: '/nonexistent',
  strictOutput,
});

/** A real SDK client connected to a new server on which `register` registered its tool. */
async function connectTool(register: (server: McpServer) => void) {
  const server = new McpServer({ name: 'test', version: '0.0.0' });
  register(server);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '0.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

function connect(strictOutput = true) {
  return connectTool((server) =>
    registerContractTool(server, ctx(strictOutput), {
      name: 'echo_word',
      title: 'Echo a word',
      description: 'Echoes a word.',
      input: Input,
      output: Output,
      annotations: { readOnlyHint: true },
      errorPayload: (error, context) => ({
        error: {
          kind: error.kind,
          code: error.code ?? null,
          message: error.message,
          correlationId: context.correlationId,
        },
      }),
      handler: ({ word, times, fail }) => {
        if (fail === 'domain') throw new SwitchyardError('not-found', `No such word: ${word}`);
        if (fail === 'crash') throw new TypeError('boom');
        if (fail === 'contract') return { echoed: 42 } as unknown as { echoed: string };
        return { echoed: Array.from({ length: times }, () => word).join(' ') };
      },
    }),
  );
}

let close: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await close?.();
  lines.length = 0;
});

describe('registerContractTool', () => {
  it('lists the contract schemas, not the lenient ones used for transport', async () => {
    const c = await connect();
    close = c.close;
    const { tools } = await c.client.listTools();
    const tool = tools.find((t) => t.name === 'echo_word');
    expect(tool?.title).toBe('Echo a word');
    expect(tool?.annotations).toMatchObject({ title: 'Echo a word', readOnlyHint: true });
    expect(tool?.inputSchema).toMatchObject({
      type: 'object',
      required: ['word'],
      additionalProperties: false,
      properties: {
        word: { type: 'string', minLength: 1, description: 'A word to echo.' },
        times: { type: 'integer', minimum: 1, maximum: 3, default: 1 },
      },
    });
    // Success or the error payload: SDK clients validate structuredContent of error results too. Outputs
    // list as an outline of their fields (see toolListingSchemas in @switchyard/contracts/json-schema).
    expect(tool?.outputSchema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      anyOf: [
        { properties: { echoed: { type: 'string' } }, required: ['echoed'] },
        { properties: { error: { type: 'object' } }, required: ['error'] },
      ],
    });
  });

  it('keeps error payloads acceptable to an SDK client that validates against the listed output schema', async () => {
    const c = await connect();
    close = c.close;
    // listTools makes the client cache output validators; it then checks structuredContent of every result.
    await c.client.listTools();
    const ok = await c.client.callTool({ name: 'echo_word', arguments: { word: 'hi' } });
    expect(ok.structuredContent).toEqual({ echoed: 'hi' });
    const failed = await c.client.callTool({ name: 'echo_word', arguments: { word: 'x', fail: 'domain' } });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ error: { kind: 'not-found' } });
  });

  it('validates input with the contract schema, applies defaults and mirrors JSON in text', async () => {
    const c = await connect();
    close = c.close;
    const ok = await c.client.callTool({ name: 'echo_word', arguments: { word: 'hi', times: 2 } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toEqual({ echoed: 'hi hi' });
    expect(JSON.parse((ok.content as { text: string }[])[0]!.text)).toEqual({ echoed: 'hi hi' });

    const bad = await c.client.callTool({ name: 'echo_word', arguments: { word: '', times: 9, extra: 1 } });
    expect(bad.isError).toBe(true);
    const payload = bad.structuredContent as {
      error: { kind: string; message: string; correlationId: string };
    };
    expect(payload.error.kind).toBe('validation');
    expect(payload.error.message).toContain('word');
    expect(payload.error.message).toContain('times');
    expect(payload.error.message).toContain('extra');
    expect(payload.error.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('maps domain errors and crashes to the error payload, never a protocol error', async () => {
    const c = await connect();
    close = c.close;
    const domain = await c.client.callTool({ name: 'echo_word', arguments: { word: 'x', fail: 'domain' } });
    expect(domain.structuredContent).toMatchObject({
      error: { kind: 'not-found', message: 'No such word: x' },
    });
    const crash = await c.client.callTool({ name: 'echo_word', arguments: { word: 'x', fail: 'crash' } });
    expect(crash.isError).toBe(true);
    expect(crash.structuredContent).toMatchObject({
      error: { kind: 'internal', message: 'Unexpected internal failure' },
    });
    expect(lines.some((line) => line.includes('"level":"error"') && line.includes('boom'))).toBe(true);
  });

  it('turns a contract violation into an internal error when strict, and passes it through with a warning otherwise', async () => {
    const strict = await connect(true);
    const r1 = await strict.client.callTool({
      name: 'echo_word',
      arguments: { word: 'x', fail: 'contract' },
    });
    expect(r1.structuredContent).toMatchObject({ error: { kind: 'internal' } });
    await strict.close();
    const lenient = await connect(false);
    close = lenient.close;
    const r2 = await lenient.client.callTool({
      name: 'echo_word',
      arguments: { word: 'x', fail: 'contract' },
    });
    expect(r2.structuredContent).toEqual({ echoed: 42 });
    expect(lines.some((line) => line.includes('output breaks the contract'))).toBe(true);
  });
});

describe('registerContractTool with a declared error payload schema', () => {
  const ErrorPayload = z.strictObject({
    error: z.strictObject({ code: z.string().describe('Code.'), message: z.string().describe('Message.') }),
  });

  function connectWith(errorPayload: (error: SwitchyardError) => Record<string, unknown>) {
    return connectTool((server) =>
      registerContractTool(server, ctx(true), {
        name: 'always_fails',
        title: 'Always fails',
        description: 'Fails with a not-found error.',
        input: z.strictObject({}),
        output: Output,
        errorOutput: ErrorPayload,
        annotations: { readOnlyHint: true },
        errorPayload,
        handler: () => {
          throw new SwitchyardError('not-found', 'Nothing here');
        },
      }),
    );
  }

  it('lists it beside the success schema and returns conforming payloads', async () => {
    const c = await connectWith((error) => ({ error: { code: error.kind, message: error.message } }));
    close = c.close;
    const { tools } = await c.client.listTools();
    const anyOf = (tools[0]?.outputSchema as unknown as { anyOf: unknown[] }).anyOf;
    expect(anyOf[1]).toEqual({ properties: { error: { type: 'object' } }, required: ['error'] });
    const result = await c.client.callTool({ name: 'always_fails', arguments: {} });
    expect(result.structuredContent).toEqual({ error: { code: 'not-found', message: 'Nothing here' } });
  });

  it('fails the call visibly in strict mode when the error payload breaks its schema', async () => {
    const c = await connectWith((error) => ({ error: { status: 404, message: error.message } }));
    close = c.close;
    const result = await c.client.callTool({ name: 'always_fails', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.stringify(result.content)).toContain('Error payload breaks the contract');
    expect(lines.some((line) => line.includes('error payload breaks the contract'))).toBe(true);
  });
});

describe('registerContractTool for an envelope contract (isErrorOutput)', () => {
  it('lists only the envelope and flags failed envelopes as errors', async () => {
    const Envelope = z.strictObject({
      success: z.boolean().describe('Whether it worked.'),
      code: z.string().describe('Result code.'),
    });
    const { client, close: closeEnvelope } = await connectTool((server) =>
      registerContractTool(server, ctx(true), {
        name: 'envelope_tool',
        title: 'Envelope tool',
        description: 'Answers with an envelope.',
        input: z.strictObject({ succeed: z.boolean().describe('Outcome.') }),
        output: Envelope,
        annotations: { readOnlyHint: true },
        isErrorOutput: (output) => !output.success,
        errorPayload: (error) => ({ success: false, code: error.kind.toUpperCase() }),
        handler: ({ succeed }) => ({ success: succeed, code: succeed ? 'OK' : 'NO_RESULT' }),
      }),
    );
    close = closeEnvelope;
    const { tools } = await client.listTools();
    expect(tools[0]?.outputSchema).toMatchObject({ type: 'object', required: ['success', 'code'] });
    expect(tools[0]?.outputSchema).not.toHaveProperty('anyOf');
    const failed = await client.callTool({ name: 'envelope_tool', arguments: { succeed: false } });
    expect(failed).toMatchObject({ isError: true, structuredContent: { success: false, code: 'NO_RESULT' } });
    const invalid = await client.callTool({ name: 'envelope_tool', arguments: {} });
    expect(invalid).toMatchObject({
      isError: true,
      structuredContent: { success: false, code: 'VALIDATION' },
    });
    const ok = await client.callTool({ name: 'envelope_tool', arguments: { succeed: true } });
    expect(ok.isError).toBeFalsy();
  });
});

describe('registerContractTool in every session', () => {
  // A recursive schema: zod's JSON Schema keeps the shared part under `definitions`, which the outline resolves.
  const Category = z.object({
    name: z.string().describe('Name.'),
    get children() {
      return z.array(Category).describe('Sub-categories.');
    },
  });
  const TreeOutput = z.object({ root: Category.describe('The tree.') });

  async function session() {
    const { client, close: closeSession } = await connectTool((server) =>
      registerContractTool(server, ctx(true), {
        name: 'category_tree',
        title: 'Category tree',
        description: 'Returns a tree.',
        input: Input,
        output: TreeOutput,
        annotations: { readOnlyHint: true },
        errorPayload: (error) => ({ error: { message: error.message } }),
        handler: () => ({ root: { name: 'all', children: [{ name: 'trams', children: [] }] } }),
      }),
    );
    const { tools } = await client.listTools();
    const called = await client.callTool({ name: 'category_tree', arguments: { word: 'x' } });
    await closeSession();
    return { tool: tools[0], called };
  }

  it('lists the same schemas each time a server registers the tool again (a new session)', async () => {
    const first = await session();
    const second = await session();
    const third = await session();
    expect(first.tool?.outputSchema).toMatchObject({
      anyOf: [{ properties: { root: { type: 'object' } } }, {}],
    });
    expect(second.tool).toEqual(first.tool);
    expect(third.tool).toEqual(first.tool);
    expect(third.called.isError).toBeUndefined();
    expect(third.called.structuredContent).toEqual({
      root: { name: 'all', children: [{ name: 'trams', children: [] }] },
    });
  });
});
