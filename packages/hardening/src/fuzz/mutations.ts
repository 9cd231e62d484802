import fc from 'fast-check';
import type { JsonPath, JsonSchema } from './json-schema.js';

/** One way of making a valid input invalid, with where it was applied (for failure messages). */
export interface Mutation {
  kind: string;
  path: JsonPath;
  value: unknown;
}

interface Site {
  path: JsonPath;
  schema: JsonSchema;
  value: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The branch of a oneOf/anyOf that `value` was generated from: the one whose `const` properties it carries. */
function branchFor(branches: readonly JsonSchema[], value: unknown): JsonSchema | undefined {
  return branches.find((branch) => {
    if (branch.const !== undefined) return branch.const === value;
    if (branch.type === 'object') {
      if (!isObject(value)) return false;
      return Object.entries(branch.properties ?? {}).every(
        ([key, child]) => child.const === undefined || value[key] === child.const,
      );
    }
    return typeof value === branch.type || (branch.type === 'integer' && Number.isInteger(value));
  });
}

function collectSites(schema: JsonSchema, value: unknown, path: JsonPath, out: Site[]): void {
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches !== undefined) {
    out.push({ path, schema, value });
    const branch = branchFor(branches, value);
    if (branch !== undefined) collectSites({ ...branch, description: schema.description }, value, path, out);
    return;
  }
  out.push({ path, schema, value });
  if (schema.type === 'object' && isObject(value)) {
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      if (key in value) collectSites(child, value[key], [...path, key], out);
    }
  }
  if (schema.type === 'array' && Array.isArray(value) && schema.items !== undefined) {
    value.forEach((item, index) => collectSites(schema.items!, item, [...path, index], out));
  }
}

function setAt(root: unknown, path: JsonPath, replace: (current: unknown) => unknown): unknown {
  if (path.length === 0) return replace(root);
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  node[last] = replace(node[last]);
  return copy;
}

const WRONG_TYPES: readonly unknown[] = [
  42,
  -1.5,
  'a string',
  true,
  null,
  [],
  {},
  [1, 'two'],
  { nested: { x: 1 } },
];

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Every mutation that applies at one site (each makes the input invalid against the schema). */
function mutationsAt(site: Site, root: unknown): fc.Arbitrary<Mutation>[] {
  const { path, schema, value } = site;
  const at = (kind: string, replacement: fc.Arbitrary<unknown>) =>
    replacement.map((next) => ({ kind, path, value: setAt(root, path, () => next) }));
  const found: fc.Arbitrary<Mutation>[] = [];
  if (path.length > 0) {
    found.push(at('wrong type', fc.constantFrom(...WRONG_TYPES.filter((w) => typeOf(w) !== typeOf(value)))));
  }
  if (schema.enum !== undefined || schema.const !== undefined) {
    found.push(
      at('not one of the allowed values', fc.constantFrom('not-a-valid-choice', 'ID', 'LOCATION', '')),
    );
  }
  if (schema.type === 'object' && isObject(value)) {
    for (const key of schema.required ?? []) {
      found.push(
        fc.constant({
          kind: `missing required "${key}"`,
          path: [...path, key],
          value: setAt(root, path, (current) => {
            const copy = { ...(current as Record<string, unknown>) };
            delete copy[key];
            return copy;
          }),
        }),
      );
    }
    if (schema.additionalProperties === false) {
      found.push(
        fc
          .tuple(
            fc.constantFrom('unexpected', 'limitt', '__proto__x', 'Stop', 'journeyId'),
            fc.jsonValue({ maxDepth: 1 }),
          )
          .map(([key, extra]) => ({
            kind: `unknown field "${key}"`,
            path: [...path, key],
            value: setAt(root, path, (current) => ({
              ...(current as Record<string, unknown>),
              [key]: extra,
            })),
          })),
      );
    }
  }
  if (schema.type === 'string' && typeof value === 'string') {
    if (schema.maxLength !== undefined) {
      found.push(
        at(
          'too long',
          fc.integer({ min: 1, max: 20 }).map((extra) => 'L'.repeat(schema.maxLength! + extra)),
        ),
      );
      found.push(at('huge string', fc.constant('H'.repeat(Math.max(schema.maxLength * 50, 70_000)))));
    }
    if (schema.minLength !== undefined && schema.minLength > 0) {
      found.push(at('too short', fc.constant('s'.repeat(schema.minLength - 1))));
    }
    if (schema.pattern !== undefined) {
      const pattern = new RegExp(schema.pattern, 'u');
      found.push(
        at(
          'does not match the pattern',
          fc
            .constantFrom('!!', ' spaced out ', '\u0000', '../x', `${value}\n`, 'ZZ:')
            .filter((s) => !pattern.test(s)),
        ),
      );
    }
  }
  if ((schema.type === 'number' || schema.type === 'integer') && typeof value === 'number') {
    if (schema.minimum !== undefined) {
      found.push(at('below the minimum', fc.constantFrom(schema.minimum - 1, schema.minimum - 1000, -1e308)));
    }
    if (schema.maximum !== undefined) {
      found.push(at('above the maximum', fc.constantFrom(schema.maximum + 1, schema.maximum + 1000, 1e308)));
    }
    if (schema.type === 'integer') {
      const low = schema.minimum ?? 0;
      found.push(at('not a whole number', fc.constant(low + 0.5)));
    }
  }
  if (schema.type === 'array' && Array.isArray(value)) {
    if ((schema.minItems ?? 0) > 0) found.push(at('too few items', fc.constant([])));
    found.push(at('item of the wrong type', fc.constant([...value, { not: 'an item' }, 17])));
  }
  return found;
}

/**
 * Invalid inputs: a valid input with one thing broken (a wrong type, a missing or unknown field, a string or
 * number past its bound, a pattern or enum miss), plus the empty object.
 */
export function invalidArbitrary(schema: JsonSchema, valid: fc.Arbitrary<unknown>): fc.Arbitrary<Mutation> {
  return valid.chain((root) => {
    const sites: Site[] = [];
    collectSites(schema, root, [], sites);
    const options = sites.flatMap((site) => mutationsAt(site, root));
    options.push(fc.constant({ kind: 'empty arguments', path: [], value: {} }));
    return fc.oneof(...options);
  });
}
