import fs from 'node:fs';
import { createRequire } from 'node:module';
import {
  HslErrorPayloadSchema,
  JourneyErrorPayloadSchema,
  LaunchErrorPayloadSchema,
} from '@switchyard/contracts/errors';
import { JOURNEY_TOOL_SCHEMAS } from '@switchyard/contracts/journey';
import { LAUNCH_TOOL_SCHEMAS } from '@switchyard/contracts/launch-runs';
import { TRANSIT_TOOL_SCHEMAS } from '@switchyard/contracts/transit';
import type { z } from 'zod';
import type { JsonSchema } from './fuzz/json-schema.js';

const require = createRequire(import.meta.url);

export type Domain = 'transit' | 'launch-runs' | 'journey-continuity';
/** How a tool reports failure on the wire (each contract keeps its own). */
export type ErrorStyle = 'plan-journey-envelope' | 'hsl' | 'launch' | 'journey';

export interface ToolContract {
  name: string;
  domain: Domain;
  errorStyle: ErrorStyle;
  /** Whether the tool calls an upstream (TfL, Digitransit). */
  upstream: 'tfl' | 'digitransit' | undefined;
  /** The committed JSON Schema of the input (what tools/list publishes). */
  inputJsonSchema: JsonSchema;
  output: z.ZodType;
  error: z.ZodType | undefined;
  /** The codes that mean "your input is invalid". */
  validationCodes: readonly string[];
  /** Codes that must never appear for any input: internal failures. */
  internalCodes: readonly string[];
}

/** The committed JSON Schema `name` from @switchyard/contracts/schemas. */
export function committedSchema(name: string): JsonSchema {
  const file = require.resolve(`@switchyard/contracts/schemas/${name}.schema.json`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as JsonSchema;
}

const TRANSIT_UPSTREAM: Record<string, ToolContract['upstream']> = {
  planJourney: 'tfl',
  get_london_arrivals: 'tfl',
  get_line_status: 'tfl',
  find_london_stops: 'tfl',
  get_departures: 'digitransit',
  plan_trip: 'digitransit',
  find_stops: 'digitransit',
};

/** The London tools answer in planJourney's envelope (`{ success, code, message, ... }`), the others in HSL's. */
const ENVELOPE_TOOLS: ReadonlySet<string> = new Set([
  'planJourney',
  'get_london_arrivals',
  'get_line_status',
  'find_london_stops',
]);

function build(): ToolContract[] {
  const tools: ToolContract[] = [];
  for (const [name, schemas] of Object.entries(TRANSIT_TOOL_SCHEMAS)) {
    const envelope = ENVELOPE_TOOLS.has(name);
    tools.push({
      name,
      domain: 'transit',
      errorStyle: envelope ? 'plan-journey-envelope' : 'hsl',
      upstream: TRANSIT_UPSTREAM[name],
      inputJsonSchema: committedSchema(`${name}.input`),
      output: schemas.output,
      error: envelope ? undefined : HslErrorPayloadSchema,
      validationCodes: envelope ? ['VALIDATION_ERROR'] : ['validation-error'],
      internalCodes: envelope ? ['INTERNAL_ERROR'] : ['internal-error'],
    });
  }
  for (const [name, schemas] of Object.entries(LAUNCH_TOOL_SCHEMAS)) {
    tools.push({
      name,
      domain: 'launch-runs',
      errorStyle: 'launch',
      upstream: undefined,
      inputJsonSchema: committedSchema(`${name}.input`),
      output: schemas.output,
      error: LaunchErrorPayloadSchema,
      validationCodes: ['INVALID_INPUT', 'SCHEMA_VALIDATION_FAILED'],
      internalCodes: ['INTERNAL'],
    });
  }
  for (const [name, schemas] of Object.entries(JOURNEY_TOOL_SCHEMAS)) {
    tools.push({
      name,
      domain: 'journey-continuity',
      errorStyle: 'journey',
      upstream: undefined,
      inputJsonSchema: committedSchema(`${name}.input`),
      output: schemas.output,
      error: JourneyErrorPayloadSchema,
      validationCodes: ['VALIDATION_ERROR'],
      internalCodes: ['INTERNAL_ERROR', 'DATABASE_ERROR'],
    });
  }
  return tools;
}

/** Every tool of every domain, with its contract. */
export const TOOL_CONTRACTS: readonly ToolContract[] = build();

export function toolContract(name: string): ToolContract {
  const tool = TOOL_CONTRACTS.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no contract for tool ${name}`);
  return tool;
}
