import { SwitchyardError } from '@switchyard/contracts/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineDomain,
  specsFor,
  type DomainLifecycle,
  type FailureStage,
  type ToolMiddleware,
} from '../src/index.js';
import { connectInMemory, type InMemoryConnection, type ProtocolEra } from '../src/testing.js';
import { logEntry, memoryLogger } from './helpers.js';

/** What the word domain's configuration chooses: how its one always-failing tool builds its payload. */
interface WordConfig {
  /** The always_fails payload breaks its declared error schema. */
  breakErrorPayload?: boolean;
}

interface WordState extends DomainLifecycle {
  /** What the middleware and mapError saw, in order. */
  events: string[];
  /** The correlation id each handler call saw. */
  handlerIds: string[];
}

const { tool, middleware } = specsFor<WordState, WordConfig>();

const Input = z.strictObject({
  word: z.string().min(1).describe('A word to echo.'),
  times: z.number().int().min(1).max(3).default(1).describe('How many times.'),
  fail: z.enum(['none', 'domain', 'crash', 'contract']).default('none').describe('Failure to simulate.'),
});
const Output = z.strictObject({ echoed: z.string().describe('The echo.') });
const ErrorPayload = z.strictObject({
  error: z.strictObject({ code: z.string().describe('Code.'), message: z.string().describe('Message.') }),
});
const Envelope = z.strictObject({
  success: z.boolean().describe('Whether it worked.'),
  code: z.string().describe('Result code.'),
});
// A recursive schema: its JSON Schema keeps the shared part under `definitions`, which the listing moves.
const Category = z.object({
  name: z.string().describe('Name.'),
  get children() {
    return z.array(Category).describe('Sub-categories.');
  },
});

const echoWord = tool({
  name: 'echo_word',
  title: 'Echo a word',
  description: 'Echoes a word.',
  input: Input,
  output: Output,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorPayload: (error, context) => ({
    error: {
      kind: error.kind,
      code: error.code ?? null,
      message: error.message,
      correlationId: context.correlationId,
    },
  }),
  handler: ({ word, times, fail }, call) => {
    call.state.handlerIds.push(call.correlationId);
    call.state.events.push('handler');
    if (fail === 'domain') throw new SwitchyardError('not-found', `No such word: ${word}`);
    if (fail === 'crash') throw new TypeError('boom');
    if (fail === 'contract') return { echoed: 42 } as unknown as { echoed: string };
    return { echoed: Array.from({ length: times }, () => word).join(' ') };
  },
});

/** Refines failures with their stage: the contract's own validation code, a not-found made retryable. */
const mappedWord = tool({
  ...echoWord,
  name: 'mapped_word',
  mapError: (error, { stage, input }) => {
    mapErrorCalls.push({ stage, kind: error.kind, input });
    if (stage === 'input') return new SwitchyardError('validation', error.message, { code: 'WORD_INVALID' });
    if (error.kind === 'not-found')
      return new SwitchyardError('not-found', error.message, { code: 'NO_WORD' });
    return error;
  },
});
const mapErrorCalls: { stage: FailureStage; kind: string; input: unknown }[] = [];

const alwaysFails = tool({
  name: 'always_fails',
  title: 'Always fails',
  description: 'Fails with a not-found error.',
  input: z.strictObject({}),
  output: Output,
  errorOutput: ErrorPayload,
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorPayload: (error) => ({ error: { code: error.kind, message: error.message } }),
  handler: () => {
    throw new SwitchyardError('not-found', 'Nothing here');
  },
});
const alwaysFailsBadly = tool({
  ...alwaysFails,
  errorPayload: (error) => ({ error: { status: 404, message: error.message } }),
});

const envelopeTool = tool({
  name: 'envelope_tool',
  title: 'Envelope tool',
  description: 'Answers with an envelope.',
  input: z.strictObject({ succeed: z.boolean().describe('Outcome.') }),
  output: Envelope,
  annotations: { readOnlyHint: true, openWorldHint: false },
  isErrorOutput: (output) => !output.success,
  errorPayload: (error) => ({ success: false, code: error.kind.toUpperCase() }),
  handler: ({ succeed }) => ({ success: succeed, code: succeed ? 'OK' : 'NO_RESULT' }),
});

const categoryTree = tool({
  name: 'category_tree',
  title: 'Category tree',
  description: 'Returns a tree.',
  input: z.strictObject({}),
  output: z.strictObject({ root: Category.describe('The tree.') }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  errorPayload: (error) => ({ error: { message: error.message } }),
  handler: () => ({ root: { name: 'all', children: [{ name: 'trams', children: [] }] } }),
});

/** Records what it sees around every call, `name:before` and `name:after <outcome>`. */
function recording(name: string): ToolMiddleware<WordState> {
  return middleware({
    async around(invocation, next) {
      invocation.state.events.push(`${name}:before ${invocation.tool}`);
      const outcome = await next();
      const failure = outcome.error === undefined ? 'ok' : `${outcome.error.kind}@${outcome.stage ?? '?'}`;
      invocation.state.events.push(`${name}:after ${failure} ${invocation.correlationId}`);
      return outcome;
    },
  });
}

const wordDomain = defineDomain({
  name: 'words',
  version: '0.0.0',
  title: 'Words',
  instructions: 'A test domain for the call path.',
  toolPrefix: 'words',
  config: (): WordConfig => ({}),
  open: (): WordState => ({ events: [], handlerIds: [], async close() {} }),
  tools: [
    echoWord,
    mappedWord,
    { ...alwaysFails, when: (config) => config.breakErrorPayload !== true },
    { ...alwaysFailsBadly, when: (config) => config.breakErrorPayload === true },
    envelopeTool,
    categoryTree,
  ],
  middleware: [recording('outer'), recording('inner')],
});

const { logger, lines } = memoryLogger();
let connection: InMemoryConnection | undefined;

async function connect(options: { era?: ProtocolEra; strictOutput?: boolean; config?: WordConfig } = {}) {
  connection = await connectInMemory([{ domain: wordDomain, config: options.config ?? {} }], {
    era: options.era ?? 'modern',
    logger,
    ...(options.strictOutput === undefined ? {} : { strictOutput: options.strictOutput }),
  });
  return connection;
}

const stateOf = (c: InMemoryConnection) => c.domains.get('words') as WordState;
const logged = () => lines.map(logEntry).filter((entry) => entry !== undefined);

afterEach(async () => {
  await connection?.close();
  connection = undefined;
  lines.length = 0;
  mapErrorCalls.length = 0;
});

describe('the tool listing', () => {
  it('lists the contract schemas: input as the contract says, output as success or error payload', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const listed = tools.find((t) => t.name === 'echo_word');
    expect(listed?.title).toBe('Echo a word');
    // The title is the tool's own; annotations do not repeat it.
    expect(listed?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(listed?.inputSchema).toMatchObject({
      type: 'object',
      required: ['word'],
      additionalProperties: false,
      properties: {
        word: { type: 'string', minLength: 1, description: 'A word to echo.' },
        times: { type: 'integer', minimum: 1, maximum: 3, default: 1 },
      },
    });
    // Success or the error payload, each as an outline of its top-level fields (contracts' compact listing):
    // SDK clients validate structuredContent of error results too.
    expect(listed?.outputSchema).toEqual({
      type: 'object',
      anyOf: [
        { properties: { echoed: { type: 'string' } }, required: ['echoed'] },
        { properties: { error: { type: 'object' } }, required: ['error'] },
      ],
    });
    // A declared error payload schema is listed beside the success schema.
    const failing = tools.find((t) => t.name === 'always_fails');
    const anyOf = (failing?.outputSchema as unknown as { anyOf: unknown[] }).anyOf;
    expect(anyOf[1]).toMatchObject({ required: ['error'] });
    // An envelope contract lists only the envelope.
    const envelope = tools.find((t) => t.name === 'envelope_tool');
    expect(envelope?.outputSchema).toMatchObject({ type: 'object', required: ['success', 'code'] });
    expect(envelope?.outputSchema).not.toHaveProperty('anyOf');
  });

  it('lists the same schemas on every request (each request has its own server)', async () => {
    const { client } = await connect();
    const listings = [];
    for (let round = 0; round < 3; round += 1) {
      const { tools } = await client.listTools({}, { cacheMode: 'bypass' });
      listings.push(tools.find((t) => t.name === 'category_tree'));
    }
    // A recursive output lists as an outline: the nested object by its type only.
    expect(listings[0]?.outputSchema).toMatchObject({
      anyOf: [{ properties: { root: { type: 'object' } }, required: ['root'] }, expect.any(Object)],
    });
    expect(listings[1]).toEqual(listings[0]);
    expect(listings[2]).toEqual(listings[0]);
    const called = await client.callTool({ name: 'category_tree', arguments: {} });
    expect(called.isError).toBeUndefined();
    expect(called.structuredContent).toEqual({
      root: { name: 'all', children: [{ name: 'trams', children: [] }] },
    });
  });
});

describe.each(['modern', 'legacy'] as const)('a tool call (%s era)', (era) => {
  it('validates input with the contract schema, applies defaults and mirrors JSON in text', async () => {
    const { client } = await connect({ era });
    const ok = await client.callTool({ name: 'echo_word', arguments: { word: 'hi', times: 2 } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toEqual({ echoed: 'hi hi' });
    expect(JSON.parse((ok.content as { text: string }[])[0]!.text)).toEqual({ echoed: 'hi hi' });

    const bad = await client.callTool({ name: 'echo_word', arguments: { word: '', times: 9, extra: 1 } });
    expect(bad.isError).toBe(true);
    const payload = bad.structuredContent as {
      error: { kind: string; message: string; correlationId: string };
    };
    expect(payload.error.kind).toBe('validation');
    expect(payload.error.message).toContain('word');
    expect(payload.error.message).toContain('times');
    expect(payload.error.message).toContain('extra');
    expect(payload.error.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse((bad.content as { text: string }[])[0]!.text)).toEqual(payload);
  });

  it('maps domain errors and crashes to the error payload, never a protocol error', async () => {
    const { client } = await connect({ era });
    // listTools makes the client cache output validators; it then checks structuredContent of every result.
    await client.listTools();
    const domain = await client.callTool({ name: 'echo_word', arguments: { word: 'x', fail: 'domain' } });
    expect(domain).toMatchObject({
      isError: true,
      structuredContent: { error: { kind: 'not-found', message: 'No such word: x' } },
    });
    const crash = await client.callTool({ name: 'echo_word', arguments: { word: 'x', fail: 'crash' } });
    expect(crash).toMatchObject({
      isError: true,
      structuredContent: { error: { kind: 'internal', message: 'Unexpected internal failure' } },
    });
    const crashId = (crash.structuredContent as { error: { correlationId: string } }).error.correlationId;
    // The cause is logged (never sent), on the line that carries the call's correlation id.
    const failure = logged().find((entry) => entry.level === 'error' && entry.msg === 'tool call failed');
    expect(failure).toMatchObject({ correlationId: crashId, domain: 'words', tool: 'echo_word' });
    expect(JSON.stringify(failure)).toContain('boom');
    expect(JSON.stringify(crash)).not.toContain('boom');
  });

  it('answers an unknown tool with a protocol error that points to tools/list', async () => {
    const { client } = await connect({ era });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /Unknown tool "no_such_tool": tools\/list names the tools this server offers/,
    );
  });

  it('turns a contract violation into an internal error when strict, and passes it through with a warning otherwise', async () => {
    const strict = await connect({ era, strictOutput: true });
    const r1 = await strict.client.callTool({
      name: 'echo_word',
      arguments: { word: 'x', fail: 'contract' },
    });
    expect(r1).toMatchObject({ isError: true, structuredContent: { error: { kind: 'internal' } } });
    await strict.close();
    const lenient = await connect({ era, strictOutput: false });
    const r2 = await lenient.client.callTool({
      name: 'echo_word',
      arguments: { word: 'x', fail: 'contract' },
    });
    expect(r2.structuredContent).toEqual({ echoed: 42 });
    expect(
      logged().some((entry) => entry.level === 'warn' && entry.msg === 'output breaks the contract'),
    ).toBe(true);
  });

  it('returns error payloads that conform to a declared error schema', async () => {
    const { client } = await connect({ era });
    await client.listTools();
    const result = await client.callTool({ name: 'always_fails', arguments: {} });
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'not-found', message: 'Nothing here' } },
    });
  });

  it('fails the call visibly in strict mode when the error payload breaks its declared schema', async () => {
    const { client } = await connect({ era, config: { breakErrorPayload: true } });
    const outcome = await client.callTool({ name: 'always_fails', arguments: {} }).then(
      (result) => JSON.stringify(result),
      (error: Error) => error.message,
    );
    expect(outcome).toContain('Error payload breaks the contract');
    expect(logged().some((entry) => entry.msg === 'error payload breaks the contract')).toBe(true);
  });

  it('logs, but sends, an error payload that breaks its schema when not strict', async () => {
    const { client } = await connect({ era, strictOutput: false, config: { breakErrorPayload: true } });
    const result = await client.callTool({ name: 'always_fails', arguments: {} });
    expect(result).toMatchObject({ isError: true, structuredContent: { error: { status: 404 } } });
    expect(
      logged().some((entry) => entry.level === 'error' && entry.msg === 'error payload breaks the contract'),
    ).toBe(true);
  });

  it('flags failed envelopes as errors for an envelope contract (isErrorOutput)', async () => {
    const { client } = await connect({ era });
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

  it('refines a failure with mapError, told the stage and the raw input', async () => {
    const { client } = await connect({ era });
    const invalid = await client.callTool({ name: 'mapped_word', arguments: { word: 7 } });
    expect(invalid.structuredContent).toMatchObject({ error: { kind: 'validation', code: 'WORD_INVALID' } });
    const missing = await client.callTool({ name: 'mapped_word', arguments: { word: 'x', fail: 'domain' } });
    expect(missing.structuredContent).toMatchObject({ error: { kind: 'not-found', code: 'NO_WORD' } });
    const crash = await client.callTool({ name: 'mapped_word', arguments: { word: 'x', fail: 'crash' } });
    expect(crash.structuredContent).toMatchObject({ error: { kind: 'internal', code: null } });
    expect(mapErrorCalls).toEqual([
      { stage: 'input', kind: 'validation', input: { word: 7 } },
      { stage: 'handler', kind: 'not-found', input: { word: 'x', fail: 'domain' } },
      { stage: 'handler', kind: 'internal', input: { word: 'x', fail: 'crash' } },
    ]);
    // A successful call never reaches mapError.
    await client.callTool({ name: 'mapped_word', arguments: { word: 'fine' } });
    expect(mapErrorCalls).toHaveLength(3);
  });

  it('runs the domain middleware outermost first around the call, validation failures included', async () => {
    const c = await connect({ era });
    const ok = await c.client.callTool({ name: 'echo_word', arguments: { word: 'hi' } });
    expect(ok.isError).toBeFalsy();
    const [okId] = stateOf(c).handlerIds;
    expect(stateOf(c).events).toEqual([
      'outer:before echo_word',
      'inner:before echo_word',
      'handler',
      `inner:after ok ${okId}`,
      `outer:after ok ${okId}`,
    ]);
    stateOf(c).events.length = 0;
    const invalid = await c.client.callTool({ name: 'echo_word', arguments: { word: '' } });
    const invalidId = (invalid.structuredContent as { error: { correlationId: string } }).error.correlationId;
    // The handler never ran; the middleware saw the failure and where it happened.
    expect(stateOf(c).events).toEqual([
      'outer:before echo_word',
      'inner:before echo_word',
      `inner:after validation@input ${invalidId}`,
      `outer:after validation@input ${invalidId}`,
    ]);
    stateOf(c).events.length = 0;
    await c.client.callTool({ name: 'echo_word', arguments: { word: 'x', fail: 'domain' } });
    expect(stateOf(c).events.at(-1)).toMatch(/^outer:after not-found@handler /);
  });

  it('gives every call its own correlation id, the same in the handler, the middleware, the payload and the log', async () => {
    const c = await connect({ era });
    await c.client.callTool({ name: 'echo_word', arguments: { word: 'a' } });
    await c.client.callTool({ name: 'echo_word', arguments: { word: 'b' } });
    const failed = await c.client.callTool({ name: 'echo_word', arguments: { word: 'c', fail: 'domain' } });
    const ids = stateOf(c).handlerIds;
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(failed.structuredContent).toMatchObject({ error: { correlationId: ids[2] } });
    expect(
      stateOf(c)
        .events.filter((event) => event.startsWith('outer:after'))
        .map((e) => e.split(' ')[2]),
    ).toEqual(ids);
    const callLines = logged().filter(
      (entry) => entry.msg === 'tool call' || entry.msg === 'tool call failed',
    );
    expect(callLines.map((entry) => entry.correlationId)).toEqual(ids);
    expect(callLines.map((entry) => entry.outcome)).toEqual(['ok', 'ok', 'not-found']);
  });
});
