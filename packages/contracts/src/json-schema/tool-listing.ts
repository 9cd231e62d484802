import type { z } from 'zod';
import { isSchema } from './compact.js';
import { listingJsonSchema } from './listing.js';
import type { JsonSchema } from './types.js';

/** What `toolListingSchemas` needs of a tool: server-kit's tool spec has these fields. */
export interface ListedToolSchemas {
  /** The contract's input schema. */
  input: z.ZodType;
  /** The contract's success payload schema. */
  output: z.ZodType;
  /** The contract's error payload schema; without it, any object with an `error` object is listed. */
  errorOutput?: z.ZodType;
  /** Set (to anything) when failures share the success envelope (planJourney): no error branch is listed. */
  isErrorOutput?: unknown;
}

/** Any object with an `error` object: the common shape of the HSL, launch and journey error payloads. */
const GENERIC_ERROR_PAYLOAD: JsonSchema = {
  type: 'object',
  properties: { error: { type: 'object' } },
  required: ['error'],
};

/** `schema` with its definitions, and every `$ref` to them, renamed `<prefix><name>`. */
function prefixDefinitions(schema: JsonSchema, prefix: string): JsonSchema {
  const json = JSON.stringify(schema).replaceAll('"$ref":"#/definitions/', `"$ref":"#/definitions/${prefix}`);
  const renamed = JSON.parse(json) as JsonSchema;
  if (isSchema(renamed.definitions)) {
    renamed.definitions = Object.fromEntries(
      Object.entries(renamed.definitions).map(([name, definition]) => [`${prefix}${name}`, definition]),
    );
  }
  return renamed;
}

function withoutObjectType(schema: JsonSchema): JsonSchema {
  const { type, ...rest } = schema;
  return type === 'object' ? rest : schema;
}

/**
 * The success payload or the error payload, as one output schema: SDK clients check `structuredContent`
 * against the listed output schema even on `isError` results. The branches' definitions move to the root,
 * where `$ref`s point; the error payload's are prefixed `error_`, so that names never clash.
 */
function successOrError(success: JsonSchema, failure: JsonSchema): JsonSchema {
  const { definitions: own, ...successBranch } = success;
  const { definitions: theirs, ...failureBranch } = prefixDefinitions(failure, 'error_');
  const definitions = { ...(isSchema(own) ? own : {}), ...(isSchema(theirs) ? theirs : {}) };
  return {
    type: 'object',
    // Both are objects: the root says so once.
    anyOf: [withoutObjectType(successBranch), withoutObjectType(failureBranch)],
    ...(Object.keys(definitions).length > 0 ? { definitions } : {}),
  };
}

/**
 * A tool's `inputSchema` and `outputSchema` exactly as `tools/list` shows them (copies the caller may
 * change): the input as the contract defines it, and the output as an outline of the success payload, or
 * of either it or the error payload (`errorOutput`, else any object with an `error` object), unless
 * failures share the success envelope (`isErrorOutput`). Contract schemas come precomputed from
 * `schemas/mcp-tools-list.json`; any other schema is converted once per process.
 */
export function toolListingSchemas(tool: ListedToolSchemas): {
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
} {
  const inputSchema = listingJsonSchema(tool.input, 'input');
  const success = listingJsonSchema(tool.output, 'output');
  if (tool.isErrorOutput !== undefined && tool.errorOutput === undefined) {
    return { inputSchema, outputSchema: success };
  }
  const failure =
    tool.errorOutput === undefined ? GENERIC_ERROR_PAYLOAD : listingJsonSchema(tool.errorOutput, 'output');
  return { inputSchema, outputSchema: successOrError(success, failure) };
}
