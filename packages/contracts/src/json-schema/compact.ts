// zod's JSON Schema export made into what `tools/list` shows: portable (no `type` arrays, no schema that
// constrains nothing), without repeated regexes or descriptions the tool's own description already gives,
// outputs as an outline of their fields, and any sub-shape that repeats written once under `definitions`.
import type { JsonSchema, SchemaIo } from './types.js';

/** Keywords whose value maps names to subschemas, holds a list of them, or is one (or a tuple of them). */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'];
const SCHEMA_VALUES = [
  'items',
  'additionalProperties',
  'propertyNames',
  'not',
  'contains',
  'if',
  'then',
  'else',
];

/** Keywords that describe a value without constraining it. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples']);

/**
 * The date-time and UUID regexes zod writes beside `format` (300 and 170 characters, repeated in every
 * such field), by the format they spell out, and what the listing writes instead. An input date-time keeps
 * a short pattern: with `format: 'date-time'` it is exactly what the contract accepts (upper-case `T` and
 * `Z`, seconds, `Z` or `±hh:mm`), where the format alone would also allow a lower-case `t` or a space. A
 * UUID's format says enough (the ids a client sends are ones Switchyard gave it); outputs need no more than
 * the format either, as a listed output may be looser than the contract but never stricter.
 */
const FORMAT_PATTERNS: Readonly<Record<string, Record<SchemaIo, string | undefined>>> = {
  'date-time': {
    input: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)$',
    output: undefined,
  },
  uuid: { input: undefined, output: undefined },
};

/**
 * Formats zod writes that validators check more strictly than zod does (ajv-formats refuses the email
 * `-@a-.A.aa` and the URL `http://a.b/c d`, which the contracts accept): the listing leaves them out, since
 * it must never be stricter than the contract. zod's own pattern (email) or the description says the rest.
 */
const STRICTER_FORMATS = new Set(['email', 'uri']);

/** zod's bounds for `.int()` without its own: JSON's interoperable integer range, which goes without saying. */
const SAFE_INTEGER_BOUNDS: Readonly<Record<string, number>> = {
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};

/** A definition is worth a `$ref` from this size of the shape it replaces (JSON characters). */
const MIN_SHARED_LENGTH = 100;

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function omit(schema: JsonSchema, keys: ReadonlySet<string>): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.has(key)));
}

/** The subschemas directly under `schema`, each with the property name it sits under (if any). */
function childSchemas(schema: JsonSchema): { child: JsonSchema; name?: string }[] {
  const out: { child: JsonSchema; name?: string }[] = [];
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (!isSchema(map)) continue;
    for (const [name, child] of Object.entries(map)) if (isSchema(child)) out.push({ child, name });
  }
  for (const key of [...SCHEMA_LISTS, ...SCHEMA_VALUES]) {
    const value = schema[key];
    for (const child of Array.isArray(value) ? value : [value]) if (isSchema(child)) out.push({ child });
  }
  return out;
}

/** `schema` with `change` applied to every subschema, children before their parent. */
function mapSchemas(schema: JsonSchema, change: (schema: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  const map = (value: unknown): unknown => (isSchema(value) ? mapSchemas(value, change) : value);
  for (const key of SCHEMA_MAPS) {
    const value = out[key];
    if (isSchema(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, map(v)]));
  }
  for (const key of [...SCHEMA_LISTS, ...SCHEMA_VALUES]) {
    const value = out[key];
    if (value !== undefined) out[key] = Array.isArray(value) ? value.map(map) : map(value);
  }
  return change(out);
}

function isEmptySchema(value: unknown): boolean {
  return isSchema(value) && Object.keys(value).length === 0;
}

/** `type: [T, 'null']` as `anyOf` branches of one type each; annotations stay on the field. */
function splitTypeUnion(schema: JsonSchema, types: unknown[]): JsonSchema {
  if (schema.anyOf !== undefined) throw new Error('a schema with both a type array and anyOf');
  const { type: _type, ...rest } = schema;
  const annotations = Object.fromEntries(Object.entries(rest).filter(([key]) => ANNOTATIONS.has(key)));
  const assertions = omit(rest, ANNOTATIONS);
  return {
    ...annotations,
    anyOf: types.map((type) => (type === 'null' ? { type } : { type, ...assertions })),
  };
}

/** One schema node in a form every client reads alike, and without what goes without saying. */
function portableNode(schema: JsonSchema, io: SchemaIo, formatPatterns: ReadonlySet<string>): JsonSchema {
  const out = { ...schema };
  if (typeof out.pattern === 'string' && typeof out.format === 'string' && formatPatterns.has(out.pattern)) {
    const replacement = FORMAT_PATTERNS[out.format]?.[io];
    if (replacement === undefined) delete out.pattern;
    else out.pattern = replacement;
  }
  if (typeof out.format === 'string' && STRICTER_FORMATS.has(out.format)) delete out.format;
  for (const [keyword, bound] of Object.entries(SAFE_INTEGER_BOUNDS))
    if (out[keyword] === bound) delete out[keyword];
  // Object keys are strings; `{}` for additional properties or items is the default (anything).
  if (
    isSchema(out.propertyNames) &&
    out.propertyNames.type === 'string' &&
    Object.keys(out.propertyNames).length === 1
  )
    delete out.propertyNames;
  if (isEmptySchema(out.additionalProperties)) delete out.additionalProperties;
  if (isEmptySchema(out.items)) delete out.items;
  return Array.isArray(out.type) ? splitTypeUnion(out, out.type) : out;
}

/**
 * What an output outline leaves to the full schema: how a value is bounded (the server guarantees it; a
 * client that validates needs no more than what the value is).
 */
const OUTPUT_GUARANTEES = new Set([
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
]);
const NOT_IN_OUTLINE = new Set([...ANNOTATIONS, ...OUTPUT_GUARANTEES]);
const NOT_AT_PAYLOAD_ROOT = new Set([...ANNOTATIONS, 'additionalProperties']);

/**
 * An output payload as `tools/list` shows it: its fields with their types, formats and values (`enum`,
 * `const`, `null`), and which are always present; the objects of its lists (`departures`, `runs`) with their
 * own fields' types, formats and which are always present; other nested objects as `{ type: 'object' }` (a
 * `$ref` is resolved first); no descriptions. A client validates results against it (it accepts every
 * payload the contract does) and a typed client learns the shape of what it iterates over; a model reads the
 * result itself. The full, described schema of every output is `schemas/<tool>.output.schema.json`. (Each
 * list's objects cost about 4 KB over the 24 tools; every nested object, or their enumerations too, would
 * cost 8 to 10 KB more, past the listing's budget.)
 */
function outputOutline(schema: JsonSchema): JsonSchema {
  const { definitions: defs, ...root } = schema;
  const definitions = isSchema(defs) ? defs : {};
  const resolving = new Set<string>();
  /** Whether a list's objects are outlined with their fields: at the payload's level, not inside one. */
  let outliningItems = true;

  /** `node`'s outline; `isItem`: it is what a list holds. */
  const field = (node: JsonSchema, isItem = false): JsonSchema => {
    const name = typeof node.$ref === 'string' ? /^#\/definitions\/(.+)$/.exec(node.$ref)?.[1] : undefined;
    const target = name === undefined ? undefined : definitions[name];
    if (name !== undefined && isSchema(target)) {
      // A shape that contains itself is outlined by its type the second time.
      if (resolving.has(name)) return { type: typeof target.type === 'string' ? target.type : 'object' };
      const { $ref: _ref, ...siblings } = node;
      resolving.add(name);
      const resolved = field({ ...target, ...siblings }, isItem);
      resolving.delete(name);
      return resolved;
    }
    const out = omit(node, NOT_IN_OUTLINE);
    if (out.type === 'object' || out.properties !== undefined) {
      return isItem && outliningItems ? itemOutline(out) : { type: 'object' };
    }
    for (const key of SCHEMA_LISTS) {
      const branches = out[key];
      if (!Array.isArray(branches)) continue;
      // Alternatives that read alike in the outline (two kinds of object) are one.
      const outlined = branches.map((branch) => (isSchema(branch) ? field(branch, isItem) : branch));
      const distinct = [...new Map(outlined.map((branch) => [JSON.stringify(branch), branch])).values()];
      if (distinct.length === 1 && isSchema(distinct[0])) {
        delete out[key];
        Object.assign(out, distinct[0]);
      } else out[key] = distinct;
    }
    if (isSchema(out.items)) out.items = field(out.items, true);
    return out;
  };

  /** An object a list holds: its fields' outlines without their enumerations, and which are always there. */
  const itemOutline = (node: JsonSchema): JsonSchema => {
    const out: JsonSchema = { type: 'object' };
    if (isSchema(node.properties)) {
      outliningItems = false;
      out.properties = Object.fromEntries(
        Object.entries(node.properties).map(([key, value]) => [
          key,
          isSchema(value) ? withoutEnumerations(field(value)) : value,
        ]),
      );
      outliningItems = true;
    }
    if (Array.isArray(node.required) && node.required.length > 0) out.required = node.required;
    return out;
  };

  const payload = (node: JsonSchema): JsonSchema => {
    const out = omit(node, NOT_AT_PAYLOAD_ROOT);
    if (isSchema(out.properties)) {
      out.properties = Object.fromEntries(
        Object.entries(out.properties).map(([key, value]) => [key, isSchema(value) ? field(value) : value]),
      );
    }
    for (const key of SCHEMA_LISTS) {
      const branches = out[key];
      if (Array.isArray(branches))
        out[key] = branches.map((branch) => (isSchema(branch) ? payload(branch) : branch));
    }
    return out;
  };

  return payload(root);
}

/** `schema` without `enum`, in it and in its alternatives. */
function withoutEnumerations(schema: JsonSchema): JsonSchema {
  const out = omit(schema, new Set(['enum']));
  for (const key of SCHEMA_LISTS) {
    const branches = out[key];
    if (Array.isArray(branches)) {
      out[key] = branches.map((branch) => (isSchema(branch) ? withoutEnumerations(branch) : branch));
    }
  }
  return out;
}

/** A definition name from a field name, kept to `[A-Za-z0-9_]` so a `$ref` needs no escaping, and unused. */
function definitionName(name: string | undefined, taken: ReadonlySet<string>): string {
  const base = (name ?? '').replace(/[^A-Za-z0-9_]/g, '_') || 'shared';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}${n}`;
  return candidate;
}

/** The largest sub-shape that occurs twice or more (and is worth a `$ref`), with where it first occurs. */
function largestRepeat(root: JsonSchema): { json: string; name?: string } | undefined {
  const seen = new Map<string, { count: number; name?: string }>();
  const visit = (schema: JsonSchema, name: string | undefined, isRoot: boolean): void => {
    if (!isRoot) {
      const json = JSON.stringify(schema);
      const entry = seen.get(json);
      if (entry === undefined) seen.set(json, { count: 1, name });
      else entry.count += 1;
    }
    for (const { child, name: childName } of childSchemas(schema)) visit(child, childName ?? name, false);
  };
  visit(root, undefined, true);
  let best: { json: string; name?: string } | undefined;
  for (const [json, { count, name }] of seen) {
    if (
      count < 2 ||
      json.length < MIN_SHARED_LENGTH ||
      (best !== undefined && json.length <= best.json.length)
    )
      continue;
    best = { json, name };
  }
  return best;
}

/**
 * Every sub-shape that occurs more than once (e.g. plan_trip's origin and destination), written once under
 * `definitions` (draft-07) and referenced with `$ref`. A definition is named after the field it first
 * appears in, so `destination: { $ref: '#/definitions/origin' }` reads "the same as origin".
 */
export function shareRepeatedSchemas(root: JsonSchema): JsonSchema {
  let out = root;
  for (let repeat = largestRepeat(out); repeat !== undefined; repeat = largestRepeat(out)) {
    const taken = new Set(isSchema(out.definitions) ? Object.keys(out.definitions) : []);
    const name = definitionName(repeat.name, taken);
    const shape = repeat.json;
    const ref = `#/definitions/${name}`;
    const replaced = mapSchemas(out, (schema) => (JSON.stringify(schema) === shape ? { $ref: ref } : schema));
    out = {
      ...replaced,
      definitions: { ...(replaced.definitions as JsonSchema), [name]: JSON.parse(shape) as JsonSchema },
    };
  }
  return out;
}

/**
 * zod's JSON Schema of a contract schema (`formatPatterns`: the regexes zod writes for its formats) in the
 * form `tools/list` shows it: portable, outputs outlined, no description at the root (the tool's own
 * description says what the tool takes and returns), repeated sub-shapes shared.
 */
export function compactForListing(
  schema: JsonSchema,
  io: SchemaIo,
  formatPatterns: ReadonlySet<string>,
): JsonSchema {
  const portable = mapSchemas(schema, (node) => portableNode(node, io, formatPatterns));
  const { description: _description, ...listed } = io === 'output' ? outputOutline(portable) : portable;
  return shareRepeatedSchemas(listed);
}
