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
  type ListingFile,
} from '../src/json-schema/index.js';
import { LAUNCH_TOOL_SCHEMAS } from '../src/launch-runs/index.js';
import { TRANSIT_TOOL_SCHEMAS } from '../src/transit/index.js';

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
    expect(input).toMatchObject({ type: 'object', properties: { limit: { default: 10 } } });
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
