/** The subset of JSON Schema (draft 2020-12) that the committed contract schemas use. */
export interface JsonSchema {
  $schema?: string;
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

/** A location inside an input, as the keys and indexes that lead to it. */
export type JsonPath = readonly (string | number)[];

export function pathText(path: JsonPath): string {
  return path.length === 0 ? '(root)' : path.map((part) => String(part)).join('.');
}

/** Keywords the generator understands; a schema using any other keyword is refused loudly. */
const KNOWN_KEYWORDS = new Set([
  '$schema',
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'enum',
  'const',
  'default',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'items',
  'minItems',
  'maxItems',
  'oneOf',
  'anyOf',
  'title',
]);

/** Throws when `schema` uses a keyword this generator would silently ignore (so a new contract feature is noticed). */
export function assertSupported(schema: JsonSchema, path: JsonPath = []): void {
  for (const key of Object.keys(schema)) {
    if (!KNOWN_KEYWORDS.has(key)) {
      throw new Error(`JSON Schema keyword "${key}" at ${pathText(path)} is not supported by the fuzzer`);
    }
  }
  for (const [name, child] of Object.entries(schema.properties ?? {}))
    assertSupported(child, [...path, name]);
  if (typeof schema.additionalProperties === 'object') assertSupported(schema.additionalProperties, path);
  if (schema.items !== undefined) assertSupported(schema.items, [...path, 0]);
  for (const [i, branch] of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].entries())
    assertSupported(branch, [...path, `|${i}`]);
}
