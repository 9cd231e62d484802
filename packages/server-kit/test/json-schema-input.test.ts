import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildCatalog,
  defineDomain,
  jsonSchemaInput,
  specsFor,
  STATED_SCHEMA_BOUNDS,
  X_MCP_HEADER,
  type DomainLifecycle,
  type Mount,
  type ObjectSchema,
} from '../src/index.js';
import {
  callTool,
  connectInMemory,
  errorOf,
  type InMemoryConnection,
  type ProtocolEra,
} from '../src/testing.js';
import { DELIVERY_SCHEMA, statedMount, TENANT_SCHEMA } from './fixtures/stated-domain.js';

let connection: InMemoryConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

async function connect(era: ProtocolEra = 'modern'): Promise<InMemoryConnection> {
  connection = await connectInMemory([statedMount], { era });
  return connection;
}

describe('a tool input stated as a JSON Schema 2020-12 document', () => {
  it.each(['modern', 'legacy'] as const)('is listed exactly as written (%s era)', async (era) => {
    const { client } = await connect(era);
    const { tools } = await client.listTools();
    expect(tools.find((listed) => listed.name === 'deliver')?.inputSchema).toEqual(DELIVERY_SCHEMA);
    expect(tools.find((listed) => listed.name === 'tenant_note')?.inputSchema).toEqual(TENANT_SCHEMA);
  });

  it('validates with 2020-12 semantics: $ref to an $anchor, allOf/anyOf, if/then/else, no other fields', async () => {
    const { client } = await connect();
    const courier = { recipient: 'Ada', method: 'courier', address: { city: 'Espoo' }, phone: '555' };
    expect((await callTool(client, 'deliver', courier)).structured).toEqual({ text: 'Ada in Espoo' });
    expect((await callTool(client, 'deliver', { locker: 'L7', email: 'a@b.c' })).structured).toEqual({
      text: 'someone in L7',
    });
  });

  it.each([
    [{}, 'one of these must hold: phone is required, or email is required'],
    [{ method: 'courier', phone: '555', locker: 'L7' }, 'address is required'],
    [{ method: 'courier', phone: '555', address: {} }, 'address.city is required'],
    [{ locker: 'L7', email: 'a@b.c', nickname: 'A' }, 'nickname is not a field this tool takes'],
    [{ locker: 'L7', email: 'a@b.c', address: { city: 3 } }, 'address.city: must be string'],
    [{ locker: 'L7', email: 'a@b.c', method: 'drone' }, 'method: must be one of "courier", "pickup"'],
  ])('refuses %j with the validation error naming the field', async (args, message) => {
    const { client } = await connect();
    const answer = await callTool(client, 'deliver', args);
    expect(answer.isError).toBe(true);
    expect(errorOf(answer)).toMatchObject({ kind: 'validation', message });
  });

  it('names the position of an array item as a caller writes it', () => {
    const input = jsonSchemaInput({
      type: 'object',
      properties: { stops: { type: 'array', items: { type: 'string', minLength: 1 } } },
    });
    const parsed = input.safeParse({ stops: ['a', ''] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['stops', 1] });
  });

  it.each([
    [
      'a $ref that leaves the document',
      { type: 'object', properties: { profile: { $ref: 'https://example.com/profile.json' } } },
      /leaves the document: server-kit never fetches a schema/,
    ],
    [
      'another dialect',
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' },
      /must be JSON Schema 2020-12/,
    ],
    ['a root that is not an object', { type: 'string' }, /`type: "object"` at its root/],
    ['an unknown keyword (a typo)', { type: 'object', requried: ['a'] }, /unknown keyword: "requried"/],
    [
      'a schema past the size bound',
      { type: 'object', description: 'x'.repeat(STATED_SCHEMA_BOUNDS.maxBytes) },
      /at most 65536 are listed/,
    ],
    [
      'a schema past the depth bound',
      { type: 'object', properties: nested(STATED_SCHEMA_BOUNDS.maxDepth) },
      /nests deeper than 32 levels/,
    ],
  ])('is refused where it is defined: %s', (_what, document, message) => {
    expect(() => jsonSchemaInput(document)).toThrow(message);
  });
});

/** `{ a: { type: 'object', properties: { a: ... } } }`, `levels` deep. */
function nested(levels: number): Record<string, unknown> {
  let properties: Record<string, unknown> = { a: { type: 'string' } };
  for (let level = 0; level < levels; level += 1) properties = { a: { type: 'object', properties } };
  return properties;
}

const { tool } = specsFor<DomainLifecycle>();

function mountWithInput(input: ObjectSchema): Mount<unknown, DomainLifecycle> {
  const domain = defineDomain({
    name: 'mirrors',
    version: '0.0.0',
    title: 'Mirrors',
    instructions: 'A tool with a mirrored parameter.',
    toolPrefix: 'mirrors',
    config: () => undefined,
    open: () => ({ async close() {} }),
    tools: [
      tool({
        name: 'mirrored',
        title: 'Mirrored',
        description: 'A tool whose input mirrors a parameter into a header.',
        input,
        output: z.strictObject({}),
        annotations: { readOnlyHint: true, openWorldHint: false },
        errorPayload: (error) => ({ error: { message: error.message } }),
        handler: () => ({}),
      }),
    ],
  });
  return { domain, config: undefined } as Mount<unknown, DomainLifecycle>;
}

describe("x-mcp-header (SEP-2243's rules, checked where a tool is defined)", () => {
  const header = (name: unknown, type = 'string') => ({ type, [X_MCP_HEADER]: name });

  it.each([
    ['an empty name', { properties: { region: header('') } }, /must be a non-empty HTTP token/],
    ['a name with a space', { properties: { region: header('Cloud Region') } }, /HTTP token/],
    ['a non-ASCII name', { properties: { region: header('Région') } }, /HTTP token/],
    ['a control character', { properties: { region: header('Region\t1') } }, /HTTP token/],
    ['a number property', { properties: { load: header('Load', 'number') } }, /string, integer or boolean/],
    ['an object property', { properties: { spot: header('Spot', 'object') } }, /string, integer or boolean/],
    [
      'a name repeated in another case',
      { properties: { a: header('Region'), b: header('REGION') } },
      /repeats the header Mcp-Param-Region of a/,
    ],
    [
      'a property under items',
      { properties: { list: { type: 'array', items: header('Item') } } },
      /not allowed/,
    ],
    ['a property under anyOf', { anyOf: [{ properties: { a: header('A') } }] }, /not allowed/],
    ['a property under if', { if: { properties: { a: header('A') } } }, /not allowed/],
    ['a definition under $defs', { $defs: { a: header('A') } }, /not allowed/],
  ])('refuses %s in a stated document', (_what, schema, message) => {
    expect(() => jsonSchemaInput({ type: 'object', ...schema })).toThrow(message);
  });

  it('accepts a nested property reached through properties alone', () => {
    const document = {
      type: 'object',
      properties: { target: { type: 'object', properties: { region: header('Region') } } },
    };
    const { tools } = buildCatalog([mountWithInput(jsonSchemaInput(document))], {});
    expect(tools.get('mirrored')?.headers).toEqual([
      { path: ['target', 'region'], header: 'Mcp-Param-Region', type: 'string' },
    ]);
  });

  it("refuses a zod contract's bad annotation when the catalog is built, naming the tool", () => {
    const input = z.strictObject({ spot: z.number().meta({ [X_MCP_HEADER]: 'Spot' }) });
    expect(() => buildCatalog([mountWithInput(input)], {})).toThrow(
      /Tool "mirrored" of domain "mirrors": x-mcp-header on the property spot needs a property of type string/,
    );
  });

  it("reads a zod contract's annotations from its listed input", () => {
    const { tools } = buildCatalog([statedMount], {});
    expect(tools.get('run_query')?.headers.map((mirror) => mirror.header)).toEqual([
      'Mcp-Param-Region',
      'Mcp-Param-Priority',
      'Mcp-Param-Verbose',
    ]);
    expect(tools.get('run_query')?.listing.inputSchema).toMatchObject({
      properties: { region: { type: 'string', [X_MCP_HEADER]: 'Region' } },
    });
  });
});
