import { listingJsonSchema, type JsonSchema } from '@switchyard/contracts/json-schema';
import type { ListedIcon } from './icons.js';
import type { ToolSpec } from './tool-spec.js';

/** A tool as `tools/list` shows it. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolSpec['annotations'];
  icons?: ListedIcon[];
}

/** Any object with an `error` object: the common shape of the HSL, launch and journey error payloads. */
const GENERIC_ERROR_PAYLOAD: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'object' } },
};

/**
 * The output schema a client sees: the success payload, or either it or the error payload (clients check
 * `structuredContent` against it even on `isError` results). Definitions move to the root, where their
 * `$ref`s point.
 */
function outputListing(spec: ToolSpec): JsonSchema {
  const success = listingJsonSchema(spec.output, 'output');
  if (spec.isErrorOutput !== undefined && spec.errorOutput === undefined) return success;
  const failure =
    spec.errorOutput === undefined ? GENERIC_ERROR_PAYLOAD : listingJsonSchema(spec.errorOutput, 'output');
  const definitions: JsonSchema = {};
  for (const branch of [success, failure]) {
    const defs = branch.definitions;
    if (defs !== undefined && typeof defs === 'object') Object.assign(definitions, defs);
    delete branch.definitions;
  }
  return {
    type: 'object',
    anyOf: [success, failure],
    ...(Object.keys(definitions).length > 0 ? { definitions } : {}),
  };
}

/**
 * The `tools/list` entry of a tool under the name a client sees it by. The title is the tool's `title`;
 * annotations do not repeat it (the spec reads `title` first).
 */
export function listedTool(spec: ToolSpec, exposedName: string, icons?: ListedIcon[]): ListedTool {
  return {
    name: exposedName,
    title: spec.title,
    description: spec.description,
    inputSchema: listingJsonSchema(spec.input, 'input'),
    outputSchema: outputListing(spec),
    annotations: spec.annotations,
    ...(icons === undefined ? {} : { icons }),
  };
}
