import type { Tool } from '@modelcontextprotocol/client';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TOOLS, connectStdio, DUMMY_KEYS, tempDir, type StdioConnection } from './helpers.js';

/**
 * `tools/list` has to fit in a model's context next to everything else: the listing of today's 21 tools
 * stays under 40,000 bytes (JSON, as clients receive it), and each tool added may bring 1,900 bytes more.
 * A change that needs more makes room elsewhere (shorter descriptions, shared definitions) or raises the
 * budget here on purpose.
 */
const BUDGET_BYTES = 40_000;
const BUDGET_TOOLS = 21;
const BYTES_PER_ADDED_TOOL = 1_900;
/** No one tool takes a seventh of the budget (launch_start_run, with the whole run_config, is the largest). */
const MAX_TOOL_BYTES = 6_000;

type Schema = Record<string, unknown>;

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

// The portability rules of the MCP Inspector's schema lint (`--strict` fails on them), as checks.
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_VALUES = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
];
/** Where `true`/`false` is a keyword's value rather than a schema standing in for one. */
const BOOLEAN_VALUED = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
]);
/** A schema with none of these accepts any value (the Inspector's "untyped schema"). */
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'prefixItems',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'dependencies',
  '$ref',
]);

/** Every portability problem of `schema`, as `path: problem`. */
function portabilityProblems(root: Schema): string[] {
  const problems: string[] = [];
  const visit = (node: unknown, path: string, keyword: string | undefined): void => {
    if (typeof node === 'boolean') {
      if (keyword === undefined || !BOOLEAN_VALUED.has(keyword)) problems.push(`${path}: bare ${node}`);
      return;
    }
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    const schema = node as Schema;
    if (Array.isArray(schema.type)) problems.push(`${path}: type array ${JSON.stringify(schema.type)}`);
    if (keyword !== 'not' && !Object.keys(schema).some((key) => CONSTRAINING.has(key))) {
      problems.push(`${path}: constrains nothing`);
    }
    if (typeof schema.$ref === 'string') {
      const target = schema.$ref.startsWith('#/')
        ? schema.$ref
            .slice(2)
            .split('/')
            .reduce<unknown>((at, part) => (at as Schema | undefined)?.[part], root)
        : undefined;
      if (target === undefined) problems.push(`${path}: $ref ${schema.$ref} does not resolve here`);
    }
    for (const key of SUBSCHEMA_MAPS) {
      const map = schema[key];
      if (map === null || typeof map !== 'object') continue;
      for (const [name, child] of Object.entries(map)) visit(child, `${path}.${key}.${name}`, key);
    }
    for (const key of SUBSCHEMA_LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) list.forEach((child, i) => visit(child, `${path}.${key}[${i}]`, key));
    }
    for (const key of SUBSCHEMA_VALUES) if (key in schema) visit(schema[key], `${path}.${key}`, key);
  };
  visit(root, '', undefined);
  return problems;
}

let connection: StdioConnection;
let tools: Tool[];

beforeAll(async () => {
  connection = await connectStdio({ ...DUMMY_KEYS, SWITCHYARD_DATA_DIR: tempDir() });
  tools = (await connection.client.listTools()).tools;
});

afterAll(async () => {
  await connection?.close();
});

describe('the tools/list of the combined server', () => {
  it('fits the budget: 40,000 bytes for 21 tools, 1,900 more for each tool added', () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual([...ALL_TOOLS].sort());
    const budget = BUDGET_BYTES + Math.max(0, tools.length - BUDGET_TOOLS) * BYTES_PER_ADDED_TOOL;
    const perTool = Object.fromEntries(tools.map((tool) => [tool.name, bytes(tool)]));
    expect(bytes(tools), `tools/list is ${bytes(tools)} bytes: ${JSON.stringify(perTool)}`).toBeLessThan(
      budget,
    );
    for (const [name, size] of Object.entries(perTool)) {
      expect(size, `${name} lists ${size} bytes`).toBeLessThanOrEqual(MAX_TOOL_BYTES);
    }
  });

  it('averages under 1,900 bytes a tool, and repeats no icon beside its tools', () => {
    expect(bytes(tools) / tools.length).toBeLessThan(BYTES_PER_ADDED_TOOL);
    expect(tools.filter((tool) => tool.icons !== undefined).map((tool) => tool.name)).toEqual([]);
  });

  it("outlines the objects of every output's lists with their fields, for typed clients", () => {
    const bareLists: string[] = [];
    for (const tool of tools) {
      const output = (tool.outputSchema ?? {}) as Schema;
      const branches = Array.isArray(output.anyOf) ? (output.anyOf as Schema[]) : [output];
      for (const branch of branches) {
        for (const [name, field] of Object.entries((branch.properties ?? {}) as Record<string, Schema>)) {
          const items = field.items as Schema | undefined;
          if (items?.type === 'object' && items.properties === undefined)
            bareLists.push(`${tool.name}.${name}`);
        }
      }
    }
    expect(bareLists).toEqual([]);
  });

  it('writes formats, not the date-time (300 characters) and UUID (170) regexes zod generates', () => {
    for (const tool of tools) {
      const patterns = [...JSON.stringify(tool).matchAll(/"pattern":("(?:[^"\\]|\\.)*")/g)].map((m) => m[1]!);
      expect(
        patterns.filter((pattern) => pattern.length > 150),
        tool.name,
      ).toEqual([]);
    }
  });

  it('is portable: no type arrays, no schema that constrains nothing, no bare booleans, local $refs only', () => {
    const problems = tools.flatMap((tool) => [
      ...portabilityProblems(tool.inputSchema as Schema).map((p) => `${tool.name} inputSchema${p}`),
      ...portabilityProblems((tool.outputSchema ?? {}) as Schema).map((p) => `${tool.name} outputSchema${p}`),
    ]);
    expect(problems).toEqual([]);
  });

  it('compiles in a draft-07 validator with formats, as SDK clients compile it', () => {
    const ajv = new Ajv({ strict: true, strictTypes: false, allErrors: true });
    addFormats.default(ajv);
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema), `${tool.name} inputSchema`).not.toThrow();
      expect(() => ajv.compile(tool.outputSchema ?? {}), `${tool.name} outputSchema`).not.toThrow();
    }
  });
});

describe('the portability check', () => {
  it('finds what the Inspector warns about', () => {
    expect(
      portabilityProblems({
        type: 'object',
        properties: {
          a: { type: ['string', 'null'] },
          b: { description: 'anything' },
          c: true,
          d: { $ref: '#/definitions/missing' },
        },
        additionalProperties: {},
      }),
    ).toEqual([
      '.properties.a: type array ["string","null"]',
      '.properties.b: constrains nothing',
      '.properties.c: bare true',
      '.properties.d: $ref #/definitions/missing does not resolve here',
      '.additionalProperties: constrains nothing',
    ]);
  });
});
