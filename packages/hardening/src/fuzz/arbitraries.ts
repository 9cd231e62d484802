import fc from 'fast-check';
import { HOSTILE_STRINGS } from './hostile-strings.js';
import type { JsonPath, JsonSchema } from './json-schema.js';

export interface ArbitraryOptions {
  /**
   * Generators that replace the schema's at a path (dotted property names, array indexes left out), e.g.
   * `run_config.source.repo` (repositories must stay local paths: a fuzzer never reaches the network).
   */
  overrides?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /**
   * Known-good values mixed into a property's generator by property name (existing journey ids, run ids,
   * saved-place keys), so that generated calls also reach the code behind the lookups.
   */
  pools?: Readonly<Record<string, readonly unknown[]>>;
  /** Longest generated string for a string without maxLength (default 300); huge ones are added separately. */
  freeStringLength?: number;
}

/**
 * Within [min, max] both as zod counts (UTF-16 code units) and as JSON Schema counts (code points): at most
 * `max` units (never more code points than units) and at least `min` code points (never fewer units).
 */
function clip(text: string, min: number, max: number): string {
  let out = text.length > max ? text.slice(0, max) : text;
  while ([...out].length < min) out += 'x';
  return out.length > max ? 'x'.repeat(Math.max(min, 0)) : out;
}

function freeText(maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: Math.min(maxLength, 40) }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: Math.min(maxLength, 40) }) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...HOSTILE_STRINGS),
          fc.string({ maxLength: 10 }),
          fc.constantFrom(...HOSTILE_STRINGS),
        )
        .map(([a, b, c]) => `${a}${b}${c}`),
    },
    { weight: 1, arbitrary: fc.nat({ max: maxLength }).map((n) => 'w'.repeat(n)) },
  );
}

const isoInstant = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .chain((date) =>
    fc.constantFrom(
      date.toISOString(),
      date.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      date.toISOString().replace(/Z$/, '+02:00'),
      date.toISOString().replace(/\.\d{3}Z$/, '-05:30'),
    ),
  );

function stringArbitrary(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? options.freeStringLength ?? 300;
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  const candidates: fc.Arbitrary<string>[] = [];
  if (schema.format === 'uuid') candidates.push(fc.uuid());
  if (schema.format === 'date-time') candidates.push(isoInstant);
  if (schema.format === 'email') candidates.push(fc.emailAddress());
  if (schema.format === 'uri') candidates.push(fc.webUrl());
  if (pattern !== undefined) candidates.push(fc.stringMatching(pattern));
  if (candidates.length === 0) candidates.push(freeText(max));
  const base = candidates.length === 1 ? candidates[0]! : fc.oneof(...candidates);
  if (pattern === undefined && schema.format === undefined) return base.map((text) => clip(text, min, max));
  // Patterned and formatted strings must still match after length bounds; those that do not are dropped.
  return base.filter((text) => text.length >= min && text.length <= max && (pattern?.test(text) ?? true));
}

function numberArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const integer = schema.type === 'integer';
  const min = schema.minimum ?? schema.exclusiveMinimum;
  const max = schema.maximum ?? schema.exclusiveMaximum;
  const bounds = [schema.minimum, schema.maximum].filter((b): b is number => b !== undefined);
  const range = integer
    ? fc.integer({
        min: min === undefined ? -1_000_000 : Math.ceil(min),
        max: max === undefined ? 1_000_000 : Math.floor(max),
      })
    : fc.double({
        ...(min === undefined ? { min: -1e6 } : { min, minExcluded: schema.exclusiveMinimum !== undefined }),
        ...(max === undefined ? { max: 1e6 } : { max, maxExcluded: schema.exclusiveMaximum !== undefined }),
        noNaN: true,
        noDefaultInfinity: true,
      });
  return bounds.length === 0
    ? range
    : fc.oneof({ weight: 4, arbitrary: range }, { weight: 1, arbitrary: fc.constantFrom(...bounds) });
}

function withPool(
  arbitrary: fc.Arbitrary<unknown>,
  pool: readonly unknown[] | undefined,
): fc.Arbitrary<unknown> {
  if (pool === undefined || pool.length === 0) return arbitrary;
  return fc.oneof({ weight: 1, arbitrary }, { weight: 2, arbitrary: fc.constantFrom(...pool) });
}

/** Any JSON value, for schema `{}` (metadata, messages). */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 });

/**
 * Values that are valid against `schema` (as far as JSON Schema says: refinements the schema cannot express,
 * like "destination differs from origin", are the server's to reject with a validation error).
 */
export function validArbitrary(
  schema: JsonSchema,
  options: ArbitraryOptions = {},
  path: JsonPath = [],
): fc.Arbitrary<unknown> {
  const key = path.filter((part) => typeof part === 'string').join('.');
  const override = options.overrides?.[key];
  if (override !== undefined) return override;
  const name = path.at(-1);
  const pool = typeof name === 'string' ? options.pools?.[name] : undefined;

  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches !== undefined)
    return fc.oneof(...branches.map((branch) => validArbitrary(branch, options, path)));

  switch (schema.type) {
    case 'string':
      return withPool(stringArbitrary(schema, options), pool);
    case 'integer':
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items =
        schema.items === undefined ? anyJson : validArbitrary(schema.items, options, [...path, 0]);
      const minLength = schema.minItems ?? 0;
      return fc.array(items, {
        minLength,
        maxLength: Math.min(schema.maxItems ?? minLength + 4, minLength + 4),
      });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      if (Object.keys(properties).length === 0 && schema.additionalProperties !== false) {
        return fc.dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 5 });
      }
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [property, child] of Object.entries(properties)) {
        model[property] = validArbitrary(child, options, [...path, property]);
      }
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in model) });
    }
    default:
      return anyJson;
  }
}
