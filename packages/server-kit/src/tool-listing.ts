import { toolListingSchemas, type JsonSchema } from '@switchyard/contracts/json-schema';
import { viewUri } from '@switchyard/views';
import type { ListedIcon } from './icons.js';
import { statedInputSchema } from './json-schema-input.js';
import type { ToolAnnotations, ToolSpec } from './tool-spec.js';

/** A tool as `tools/list` shows it. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolSpec['annotations'];
  icons?: ListedIcon[];
  /** The MCP Apps view of its answers, when it has one (clients without the extension ignore `_meta`). */
  _meta?: { ui: { resourceUri: string } };
}

/**
 * The `tools/list` entry of a tool under the name a client sees it by: the schemas as contracts lists them
 * (`toolListingSchemas`: the input as the contract says, the output as an outline of the success payload or
 * the error payload), or a stated input (`jsonSchemaInput`) exactly as written. The title is the tool's
 * `title`; annotations do not repeat it.
 */
export function listedTool(spec: ToolSpec, exposedName: string, icons?: ListedIcon[]): ListedTool {
  const stated = statedInputSchema(spec.input);
  return {
    name: exposedName,
    title: spec.title,
    description: spec.description,
    ...toolListingSchemas(spec),
    ...(stated === undefined ? {} : { inputSchema: stated }),
    annotations: listedAnnotations(spec.annotations),
    icons,
    ...(spec.view === undefined ? {} : { _meta: { ui: { resourceUri: viewUri(spec.view) } } }),
  };
}

/**
 * The hints as listed. The specification gives `destructiveHint` and `idempotentHint` meaning only when
 * `readOnlyHint` is false, so a read-only tool's listing leaves them out (bytes in every model's context).
 */
function listedAnnotations(annotations: ToolAnnotations): ToolAnnotations {
  if (!annotations.readOnlyHint) return annotations;
  const { destructiveHint: _destructive, idempotentHint: _idempotent, ...meaningful } = annotations;
  return meaningful;
}
