import type { JsonSchema } from '@switchyard/contracts/json-schema';

/**
 * The schema keyword that mirrors a tool parameter into an HTTP header (SEP-2243): `{ type: 'string',
 * 'x-mcp-header': 'Region' }` asks a 2026-07-28 client to send the argument as `Mcp-Param-Region` too, so that a
 * gateway can route on it without reading the body. Written in a stated JSON Schema (`jsonSchemaInput`) or on a
 * zod field with `.meta({ [X_MCP_HEADER]: 'Region' })`; the listed input schema is what is read.
 */
export const X_MCP_HEADER = 'x-mcp-header';

/** The prefix of every mirrored parameter's header name. */
export const PARAM_HEADER_PREFIX = 'Mcp-Param-';

/** The JSON types a mirrored parameter may have: a header carries one primitive, and `number` is excluded. */
export type MirroredType = 'string' | 'integer' | 'boolean';

/** One parameter mirrored into a header. */
export interface HeaderMirror {
  /** The chain of `properties` keys from the arguments' root to the parameter. */
  path: readonly string[];
  /** The header it travels in: `Mcp-Param-` and the annotation's value. */
  header: string;
  type: MirroredType;
}

/** RFC 9110's `token` (`1*tchar`): no spaces, control characters or delimiters. */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const MIRRORED_TYPES: ReadonlySet<string> = new Set<MirroredType>(['string', 'integer', 'boolean']);

/**
 * The keywords a chain of `properties` keys must not pass through: under them a parameter is not statically
 * reachable from the root, so an annotation there makes the tool definition invalid. The value of each is one
 * subschema, a list of them, or a map of names to them.
 */
const UNREACHABLE_UNDER = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
]);

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function subschemas(schema: JsonSchema, keyword: string): unknown[] {
  const value = schema[keyword];
  if (Array.isArray(value)) return value;
  if (SCHEMA_MAPS.has(keyword) && isObject(value)) return Object.values(value);
  return value === undefined ? [] : [value];
}

/** `arguments.address.city`: a parameter as a caller reads it in the tool's arguments. */
export function argumentPath(path: readonly string[]): string {
  return ['arguments', ...path].join('.');
}

/**
 * The parameters `inputSchema` mirrors into headers, checked against SEP-2243's rules for `x-mcp-header`: a
 * non-empty RFC 9110 token, case-insensitively unique, on a string, integer or boolean property reachable from
 * the root through `properties` only. A broken rule throws (the tool is refused where it is defined), naming
 * `owner` (`Tool "x"`), the property and the rule: conforming clients would drop such a tool from their listing.
 */
export function headerMirrorsOf(inputSchema: JsonSchema, owner: string): HeaderMirror[] {
  const mirrors: HeaderMirror[] = [];
  const refuse = (path: readonly string[], rule: string): never => {
    const where = path.length === 0 ? 'the input schema root' : `the property ${path.join('.')}`;
    throw new Error(`${owner}: ${X_MCP_HEADER} on ${where} ${rule}`);
  };
  const visit = (schema: unknown, path: readonly string[], reachable: boolean): void => {
    if (!isObject(schema)) return;
    if (X_MCP_HEADER in schema) {
      if (!reachable || path.length === 0) {
        refuse(
          path,
          'is not allowed: only a property reached from the root through `properties` alone may be mirrored ' +
            '(not under items, composition or conditional keywords, $defs or $ref)',
        );
      }
      const name = schema[X_MCP_HEADER];
      if (typeof name !== 'string' || !HEADER_TOKEN.test(name)) {
        refuse(
          path,
          `must be a non-empty HTTP token (letters, digits and !#$%&'*+-.^_\`|~), got ${JSON.stringify(name)}`,
        );
      }
      const type = schema.type;
      if (typeof type !== 'string' || !MIRRORED_TYPES.has(type)) {
        refuse(
          path,
          `needs a property of type string, integer or boolean, got ${JSON.stringify(type ?? null)}`,
        );
      }
      const header = `${PARAM_HEADER_PREFIX}${name as string}`;
      const clash = mirrors.find((mirror) => mirror.header.toLowerCase() === header.toLowerCase());
      if (clash !== undefined) refuse(path, `repeats the header ${clash.header} of ${clash.path.join('.')}`);
      mirrors.push({ path, header, type: type as MirroredType });
    }
    const properties = schema.properties;
    if (isObject(properties)) {
      for (const [key, child] of Object.entries(properties)) visit(child, [...path, key], reachable);
    }
    for (const keyword of UNREACHABLE_UNDER) {
      for (const child of subschemas(schema, keyword)) visit(child, [...path, `<${keyword}>`], false);
    }
  };
  visit(inputSchema, [], true);
  return mirrors;
}
