/**
 * Names for the contracts' own schemas (`planJourney.input`, `hsl-error`), so that their JSON Schema can be
 * looked up in the committed listing file instead of being converted at start (see json-schema/listing.ts).
 * Keyed by schema object: a schema that is not one of these has no name.
 */
const names = new WeakMap<object, string>();

export function nameContractSchema(schema: object, name: string): void {
  names.set(schema, name);
}

/** Names every tool's `input` and `output` schema `<tool>.input` / `<tool>.output`. */
export function nameToolSchemas(tools: Record<string, { input: object; output: object }>): void {
  for (const [tool, { input, output }] of Object.entries(tools)) {
    nameContractSchema(input, `${tool}.input`);
    nameContractSchema(output, `${tool}.output`);
  }
}

export function contractSchemaName(schema: object): string | undefined {
  return names.get(schema);
}
