import { z } from 'zod';
import {
  HslErrorPayloadSchema,
  JourneyErrorPayloadSchema,
  LaunchErrorPayloadSchema,
} from '../src/errors/index.js';
import { JOURNEY_TOOL_SCHEMAS } from '../src/journey/index.js';
import { convertForListing, LISTING_FILE_NAME, type ListingFile } from '../src/json-schema/index.js';
import { LAUNCH_TOOL_SCHEMAS, RunConfigSchema, ValidationReportSchema } from '../src/launch-runs/index.js';
import { TRANSIT_TOOL_SCHEMAS } from '../src/transit/index.js';

type ToolSchemas = Record<string, { input: z.ZodType; output: z.ZodType }>;

function toJson(schema: z.ZodType, io: 'input' | 'output'): string {
  return JSON.stringify(z.toJSONSchema(schema, { io, target: 'draft-2020-12' }), null, 2) + '\n';
}

function toolFiles(tools: ToolSchemas): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, { input, output }] of Object.entries(tools)) {
    files[`${name}.input.schema.json`] = toJson(input, 'input');
    files[`${name}.output.schema.json`] = toJson(output, 'output');
  }
  return files;
}

/**
 * The draft-07 JSON Schemas `tools/list` shows, precomputed so that servers do not convert them at start
 * (`listingJsonSchema` reads this file): every tool's input and output, and the error payloads.
 */
function listingFile(tools: ToolSchemas): string {
  const listing: ListingFile = { input: {}, output: {} };
  for (const [name, { input, output }] of Object.entries(tools)) {
    listing.input[`${name}.input`] = convertForListing(input, 'input');
    listing.output[`${name}.output`] = convertForListing(output, 'output');
  }
  listing.output['hsl-error'] = convertForListing(HslErrorPayloadSchema, 'output');
  listing.output['launch-error'] = convertForListing(LaunchErrorPayloadSchema, 'output');
  listing.output['journey-error'] = convertForListing(JourneyErrorPayloadSchema, 'output');
  return JSON.stringify(listing) + '\n';
}

/** Every JSON Schema file in `schemas/`, by file name, generated from the zod schemas (zod's own export). */
export function generateJsonSchemas(): Record<string, string> {
  const files: Record<string, string> = {
    ...toolFiles(TRANSIT_TOOL_SCHEMAS),
    ...toolFiles(JOURNEY_TOOL_SCHEMAS),
    ...toolFiles(LAUNCH_TOOL_SCHEMAS),
    'run_config.schema.json': toJson(RunConfigSchema, 'input'),
    'validation_report.schema.json': toJson(ValidationReportSchema, 'output'),
    'hsl-error.schema.json': toJson(HslErrorPayloadSchema, 'output'),
    'launch-error.schema.json': toJson(LaunchErrorPayloadSchema, 'output'),
    'journey-error.schema.json': toJson(JourneyErrorPayloadSchema, 'output'),
    [LISTING_FILE_NAME]: listingFile({
      ...TRANSIT_TOOL_SCHEMAS,
      ...JOURNEY_TOOL_SCHEMAS,
      ...LAUNCH_TOOL_SCHEMAS,
    }),
  };
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
