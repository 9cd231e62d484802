import type { Tool } from '@modelcontextprotocol/client';
import { JOURNEY_TOOL_SCHEMAS } from '@switchyard/contracts/journey';
import { LAUNCH_TOOL_SCHEMAS } from '@switchyard/contracts/launch-runs';
import { TRANSIT_TOOL_SCHEMAS } from '@switchyard/contracts/transit';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { validArbitrary } from '../src/fuzz/arbitraries.js';
import type { JsonSchema } from '../src/fuzz/json-schema.js';
import { spawnSwitchyardStdio, type StdioSwitchyard } from '../src/harness/stdio.js';
import { removeTempDir, tempDir } from '../src/harness/temp.js';
import { committedSchema, TOOL_CONTRACTS } from '../src/tools.js';

/**
 * What `tools/list` advertises is true to the contracts: every input the contract accepts passes the listed
 * input schema, and every success and error payload the contract allows passes the listed output schema
 * (SDK clients check `structuredContent` against it, error results included). Values come from the
 * published JSON Schemas and are kept when the zod contract accepts them; Ajv (draft-07 with formats, what
 * SDK clients validate with) judges them against the listing of the real combined server.
 */
const SEED = 1207;
const RUNS = 120;
const INPUTS: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries({ ...TRANSIT_TOOL_SCHEMAS, ...LAUNCH_TOOL_SCHEMAS, ...JOURNEY_TOOL_SCHEMAS }).map(
    ([name, { input }]) => [name, input],
  ),
);
const ERROR_SCHEMA_FILES: Record<string, string> = {
  hsl: 'hsl-error',
  launch: 'launch-error',
  journey: 'journey-error',
};

/** `type: [T, 'null']` (zod's nullable) as `anyOf`, which the generator understands. */
function generatable(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
    if (!Array.isArray(out.type)) return out;
    const { type, ...rest } = out as { type: string[] };
    return { anyOf: type.map((t) => (t === 'null' ? { type: t } : { ...rest, type: t })) };
  };
  return walk(schema) as JsonSchema;
}

/** Values the contract schema accepts, generated from its published JSON Schema. */
function contractValues(published: JsonSchema, contract: z.ZodType): fc.Arbitrary<unknown> {
  return validArbitrary(generatable(published)).filter((value) => contract.safeParse(value).success);
}

let switchyard: StdioSwitchyard;
let dataDir: string;
const listed = new Map<string, Tool>();
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);

function validator(schema: unknown): ValidateFunction {
  return ajv.compile(schema as object);
}

function expectAccepted(validate: ValidateFunction, arbitrary: fc.Arbitrary<unknown>): void {
  fc.assert(
    fc.property(arbitrary, (value) => {
      expect(validate(value), `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }),
    { seed: SEED, numRuns: RUNS },
  );
}

beforeAll(async () => {
  dataDir = tempDir('listing-truth-');
  switchyard = await spawnSwitchyardStdio({
    SWITCHYARD_DATA_DIR: dataDir,
    TFL_API_KEY: 'dummy-tfl-key',
    DIGITRANSIT_SUBSCRIPTION_KEY: 'dummy-digitransit-key',
    SWITCHYARD_LOG_LEVEL: 'warn',
  });
  for (const tool of (await switchyard.client.listTools()).tools) listed.set(tool.name, tool);
});

afterAll(async () => {
  await switchyard?.close();
  if (dataDir !== undefined) removeTempDir(dataDir);
});

describe('the tools/list schemas of the combined server', () => {
  it('list every tool of the contracts', () => {
    expect([...listed.keys()].sort()).toEqual(TOOL_CONTRACTS.map((tool) => tool.name).sort());
  });

  for (const tool of TOOL_CONTRACTS) {
    it(`${tool.name}: accept every input, success and error payload the contract accepts`, () => {
      const { inputSchema, outputSchema } = listed.get(tool.name)!;
      expectAccepted(validator(inputSchema), contractValues(tool.inputJsonSchema, INPUTS[tool.name]!));
      const output = validator(outputSchema);
      expectAccepted(output, contractValues(committedSchema(`${tool.name}.output`), tool.output));
      if (tool.error !== undefined) {
        const errors = committedSchema(ERROR_SCHEMA_FILES[tool.errorStyle]!);
        expectAccepted(output, contractValues(errors, tool.error));
      }
    });
  }
});
