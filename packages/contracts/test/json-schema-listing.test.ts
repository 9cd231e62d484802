import fs from 'node:fs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  HslErrorPayloadSchema,
  JourneyErrorPayloadSchema,
  LaunchErrorPayloadSchema,
} from '../src/errors/index.js';
import { JOURNEY_TOOL_SCHEMAS } from '../src/journey/index.js';
import {
  contractSchemaName,
  convertForListing,
  listingJsonSchema,
  toolListingSchemas,
  type JsonSchema,
  type ListingFile,
} from '../src/json-schema/index.js';
import { LAUNCH_TOOL_SCHEMAS } from '../src/launch-runs/index.js';
import { PlaceInputSchema, TRANSIT_TOOL_SCHEMAS } from '../src/transit/index.js';

const TOOLS = { ...TRANSIT_TOOL_SCHEMAS, ...JOURNEY_TOOL_SCHEMAS, ...LAUNCH_TOOL_SCHEMAS };
const listing = JSON.parse(
  fs.readFileSync(new URL('../schemas/mcp-tools-list.json', import.meta.url), 'utf8'),
) as ListingFile;

describe('tools/list JSON Schemas', () => {
  it('name every tool schema and error payload of the contracts', () => {
    for (const [tool, { input, output }] of Object.entries(TOOLS)) {
      expect(contractSchemaName(input)).toBe(`${tool}.input`);
      expect(contractSchemaName(output)).toBe(`${tool}.output`);
    }
    expect(contractSchemaName(HslErrorPayloadSchema)).toBe('hsl-error');
    expect(contractSchemaName(LaunchErrorPayloadSchema)).toBe('launch-error');
    expect(contractSchemaName(JourneyErrorPayloadSchema)).toBe('journey-error');
  });

  it('are precomputed for every named schema, exactly as converting it gives', () => {
    for (const [tool, { input, output }] of Object.entries(TOOLS)) {
      expect(listing.input[`${tool}.input`]).toEqual(convertForListing(input, 'input'));
      expect(listing.output[`${tool}.output`]).toEqual(convertForListing(output, 'output'));
      expect(listingJsonSchema(input, 'input')).toEqual(listing.input[`${tool}.input`]);
    }
    expect(listingJsonSchema(HslErrorPayloadSchema, 'output')).toEqual(listing.output['hsl-error']);
  });

  it('are draft-07 without a $schema, with defaults on input and required fields on output', () => {
    const input = listingJsonSchema(JOURNEY_TOOL_SCHEMAS.query_journey_history.input, 'input');
    expect(input).not.toHaveProperty('$schema');
    expect(input).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { limit: { default: 10, minimum: 1, maximum: 100, description: expect.any(String) } },
    });
    const output = listingJsonSchema(JOURNEY_TOOL_SCHEMAS.query_journey_history.output, 'output');
    expect(output.required).toEqual(expect.arrayContaining(['journey_id', 'sessions', 'total_results']));
  });

  it('convert a schema that is not a contract schema, and hand out copies', () => {
    const own = z.object({ text: z.string().describe('Any text.') });
    expect(contractSchemaName(own)).toBeUndefined();
    const first = listingJsonSchema(own, 'input');
    expect(first).toEqual(convertForListing(own, 'input'));
    first.properties = {};
    expect(listingJsonSchema(own, 'input')).toMatchObject({ properties: { text: { type: 'string' } } });
    const named = listingJsonSchema(LAUNCH_TOOL_SCHEMAS.launch_get_status.input, 'input');
    named.properties = {};
    expect(listingJsonSchema(LAUNCH_TOOL_SCHEMAS.launch_get_status.input, 'input')).toMatchObject({
      properties: { run_id: { type: 'string' } },
    });
  });
});

describe('the compact listing form', () => {
  const convert = (schema: z.ZodType, io: 'input' | 'output') => convertForListing(schema, io);

  it("writes formats instead of zod's date-time and UUID regexes, exact for inputs", () => {
    const schema = z.object({ at: z.iso.datetime({ offset: true }), id: z.uuid() });
    expect(convert(schema, 'input').properties).toEqual({
      // With the format, exactly what the contract accepts: upper-case T and Z, seconds, Z or an offset.
      at: {
        type: 'string',
        format: 'date-time',
        pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)$',
      },
      id: { type: 'string', format: 'uuid' },
    });
    expect(convert(schema, 'output').properties).toEqual({
      at: { type: 'string', format: 'date-time' },
      id: { type: 'string', format: 'uuid' },
    });
    const pattern = new RegExp(
      (convert(schema, 'input').properties as Record<string, JsonSchema>).at!.pattern as string,
    );
    for (const at of ['2025-01-31T09:00:00Z', '2025-01-31T09:00:00.123+02:00'])
      expect(pattern.test(at)).toBe(true);
    for (const at of ['2025-01-31t09:00:00z', '2025-01-31 09:00:00Z', '2025-01-31T09:00Z'])
      expect(pattern.test(at)).toBe(false);
  });

  it('is portable: nullable as anyOf, free-form objects typed, no empty schemas, no bounds that go without saying', () => {
    const schema = z.strictObject({
      note: z.string().nullable().describe('A note.'),
      meta: z.record(z.string(), z.unknown()).describe('Anything.'),
      list: z.array(z.unknown()).describe('Anything in a list.'),
      count: z.number().int().describe('A count.'),
      email: z.email().describe('An email.'),
      site: z.url().describe('A URL.'),
    });
    expect(convert(schema, 'input').properties).toEqual({
      note: { description: 'A note.', anyOf: [{ type: 'string' }, { type: 'null' }] },
      meta: { type: 'object', description: 'Anything.' },
      list: { type: 'array', description: 'Anything in a list.' },
      count: { type: 'integer', description: 'A count.' },
      // Validators check these formats more strictly than zod: zod's own pattern (email) says it exactly.
      email: { type: 'string', pattern: expect.any(String), description: 'An email.' },
      site: { type: 'string', description: 'A URL.' },
    });
  });

  it("leaves the root description to the tool description and keeps every field's", () => {
    const input = listingJsonSchema(TRANSIT_TOOL_SCHEMAS.get_departures.input, 'input');
    expect(input).not.toHaveProperty('description');
    expect(input.properties).toMatchObject({ windowMinutes: { description: expect.any(String) } });
  });

  it("lists outputs as an outline: fields, types, formats, values and required, a list's objects with their fields, other objects as objects", () => {
    expect(listingJsonSchema(TRANSIT_TOOL_SCHEMAS.plan_trip.output, 'output')).toEqual({
      type: 'object',
      properties: {
        origin: { type: 'object' },
        destination: { type: 'object' },
        requested: { type: 'object' },
        constraints: { type: 'object' },
        itineraries: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              // Inside a list's object, objects are objects again, and values lose their enumerations.
              legs: { type: 'array', items: { type: 'object' } },
              startTime: { type: 'string', format: 'date-time' },
              endTime: { type: 'string', format: 'date-time' },
              durationSeconds: { type: 'integer' },
              walkDistanceMeters: { type: 'number' },
              transfers: { type: 'integer' },
              scheduleType: { type: 'string' },
              fingerprint: { type: 'string' },
              disrupted: { type: 'boolean' },
              disruptionFlag: { type: 'boolean' },
              lowWalkingDistance: { type: 'boolean' },
            },
            required: [
              'legs',
              'startTime',
              'endTime',
              'durationSeconds',
              'walkDistanceMeters',
              'transfers',
              'scheduleType',
              'fingerprint',
              'disrupted',
              'disruptionFlag',
            ],
          },
        },
        realtimeUsed: { type: 'string', enum: ['realtime', 'scheduled', 'mixed'] },
        dataFreshness: { type: 'string', format: 'date-time' },
        warnings: {
          type: 'array',
          items: {
            type: 'object',
            properties: { code: { type: 'string' }, message: { type: 'string' }, alert: { type: 'object' } },
            required: ['code', 'message'],
          },
        },
        correlationId: { type: 'string', format: 'uuid' },
        meta: { type: 'object' },
      },
      required: [
        'origin',
        'destination',
        'requested',
        'constraints',
        'itineraries',
        'realtimeUsed',
        'dataFreshness',
        'correlationId',
      ],
    });
    expect(listingJsonSchema(LAUNCH_TOOL_SCHEMAS.launch_list_runs.output, 'output').properties).toEqual({
      ok: { type: 'boolean', const: true },
      runs: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            run_id: { type: 'string' },
            product_slug: { type: 'string' },
            state: { type: 'string' },
            started_at: { type: 'string' },
            finished_at: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          },
          required: ['run_id', 'product_slug', 'state', 'started_at', 'finished_at'],
        },
      },
      next_cursor: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    });
    // A recursive shape: its $ref is resolved, and no definitions are left behind.
    const Node: z.ZodType = z.lazy(() => z.object({ children: z.array(Node) }));
    expect(convert(z.object({ root: Node, list: z.array(Node) }), 'output')).toEqual({
      type: 'object',
      properties: {
        root: { type: 'object' },
        list: {
          type: 'array',
          items: {
            type: 'object',
            properties: { children: { type: 'array', items: { type: 'object' } } },
            required: ['children'],
          },
        },
      },
      required: ['root', 'list'],
    });
  });

  it('writes a repeated sub-shape once, named after the field it first appears in', () => {
    const input = listingJsonSchema(TRANSIT_TOOL_SCHEMAS.plan_trip.input, 'input');
    expect(input.properties).toMatchObject({
      origin: { $ref: '#/definitions/origin' },
      destination: { $ref: '#/definitions/origin' },
    });
    expect(input.definitions).toEqual({
      origin: { ...convert(PlaceInputSchema, 'input'), description: PlaceInputSchema.description },
    });
    expect(JSON.stringify(input)).not.toContain('"$ref":"#/definitions/origin2"');
  });
});

describe('toolListingSchemas', () => {
  const Input = z.strictObject({ word: z.string().describe('A word.') });
  const Output = z.object({ echoed: z.string().describe('The echo.') });

  it('lists either the success or the error payload, which clients check error results against', () => {
    const listed = toolListingSchemas({ input: Input, output: Output, errorOutput: HslErrorPayloadSchema });
    expect(listed.inputSchema).toEqual(convertForListing(Input, 'input'));
    expect(listed.outputSchema).toEqual({
      type: 'object',
      anyOf: [
        { properties: { echoed: { type: 'string' } }, required: ['echoed'] },
        { properties: { error: { type: 'object' } }, required: ['error'] },
      ],
    });
  });

  it('lists any object with an error object without an error schema, and the envelope alone for isErrorOutput', () => {
    expect(toolListingSchemas({ input: Input, output: Output }).outputSchema.anyOf).toEqual([
      { properties: { echoed: { type: 'string' } }, required: ['echoed'] },
      { properties: { error: { type: 'object' } }, required: ['error'] },
    ]);
    const envelope = TRANSIT_TOOL_SCHEMAS.planJourney;
    const listed = toolListingSchemas({ ...envelope, isErrorOutput: () => false });
    expect(listed.outputSchema).toEqual(listingJsonSchema(envelope.output, 'output'));
  });

  it("moves definitions to the root, the error payload's prefixed", () => {
    const Shape = z.object({
      a: z.enum(['one-long-value', 'another-long-value', 'a-third-long-value', 'and-a-fourth']),
    });
    const Twice = z.object({ first: Shape.shape.a, second: Shape.shape.a });
    const listed = toolListingSchemas({
      input: Input,
      output: Twice,
      errorOutput: z.object({ error: Twice }).extend({ again: Shape.shape.a, more: Shape.shape.a }),
    });
    expect(listed.outputSchema.definitions).toEqual({
      first: {
        type: 'string',
        enum: ['one-long-value', 'another-long-value', 'a-third-long-value', 'and-a-fourth'],
      },
      error_again: {
        type: 'string',
        enum: ['one-long-value', 'another-long-value', 'a-third-long-value', 'and-a-fourth'],
      },
    });
    expect(listed.outputSchema.anyOf).toEqual([
      {
        properties: { first: { $ref: '#/definitions/first' }, second: { $ref: '#/definitions/first' } },
        required: ['first', 'second'],
      },
      {
        properties: {
          error: { type: 'object' },
          again: { $ref: '#/definitions/error_again' },
          more: { $ref: '#/definitions/error_again' },
        },
        required: ['error', 'again', 'more'],
      },
    ]);
  });
});
