import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod';
import type { ObjectSchema } from './tool-spec.js';

type Schema = z.core.$ZodType;
type Issues = z.core.$ZodIssue[];

/** A tool answer held to its contract: the payload to send, or why the answer breaks the contract. */
export type OutputVerdict =
  { success: true; payload: Record<string, unknown> } | { success: false; issues: Issues };

/**
 * The schema kinds whose parse gives back a valid value unchanged (equal, if a copy), by the fields that hold
 * their child schemas. A kind missing here (transforms, pipes, defaults, coercion, lazy, ...) may change the
 * value, so its schema is always parsed.
 */
const UNCHANGED_KINDS: Readonly<Record<string, readonly string[]>> = {
  string: [],
  number: [],
  boolean: [],
  null: [],
  literal: [],
  enum: [],
  unknown: [],
  any: [],
  never: [],
  optional: ['innerType'],
  nullable: ['innerType'],
  array: ['element'],
  record: ['keyType', 'valueType'],
  object: ['catchall'],
  union: ['options'],
};

/** Children of a schema node: the kind's fields, and an object's shape. */
function childrenOf(node: Schema): Schema[] {
  const def = node._zod.def as unknown as Record<string, unknown>;
  const fields = (UNCHANGED_KINDS[def.type as string] ?? []).flatMap((field) => def[field] ?? []);
  const shape = def.type === 'object' ? Object.values(def.shape as Record<string, Schema>) : [];
  return [...(fields as Schema[]), ...shape];
}

/** An object that drops keys its shape lacks (z.object's default), where the parse is no longer the value. */
const strips = (node: Schema): boolean =>
  node._zod.def.type === 'object' && (node._zod.def as z.core.$ZodObjectDef).catchall === undefined;

const somewhere = (node: Schema, test: (node: Schema) => boolean): boolean =>
  test(node) || childrenOf(node).some((child) => somewhere(child, test));

/** Whether the schema is a tree: a recursive one (a getter in its shape) holds itself somewhere below. */
const isTree = (node: Schema, above: ReadonlySet<Schema> = new Set()): boolean =>
  !above.has(node) && childrenOf(node).every((child) => isTree(child, new Set([...above, node])));

/**
 * Whether parsing a valid value gives it back unchanged once no object holds a key its shape lacks: every node of
 * a kind that keeps values (no coercion, no check that rewrites the value, like trim), and no union with a
 * stripping object inside (its first option could accept the value by dropping keys another option keeps).
 */
function keepsValues(node: Schema): boolean {
  const def = node._zod.def as unknown as Record<string, unknown>;
  if (UNCHANGED_KINDS[def.type as string] === undefined || def.coerce === true) return false;
  const checks = (def.checks ?? []) as z.core.$ZodCheck[];
  if (checks.some((check) => check._zod.def.check === 'overwrite')) return false;
  if (def.type === 'union' && childrenOf(node).some((option) => somewhere(option, strips))) return false;
  return childrenOf(node).every(keepsValues);
}

/** The schema with every stripping object refusing unknown keys instead: what it accepts parses to itself. */
function refusingUnknownKeys(node: Schema): Schema {
  if (!somewhere(node, strips)) return node;
  const def = node._zod.def as unknown as Record<string, unknown>;
  const rewritten: Record<string, unknown> = { ...def };
  for (const field of UNCHANGED_KINDS[def.type as string] ?? []) {
    const child = def[field];
    if (Array.isArray(child)) rewritten[field] = child.map((option: Schema) => refusingUnknownKeys(option));
    else if (child !== undefined) rewritten[field] = refusingUnknownKeys(child as Schema);
  }
  if (def.type === 'object') {
    const shape = def.shape as Record<string, Schema>;
    rewritten.shape = Object.fromEntries(
      Object.entries(shape).map(([key, child]) => [key, refusingUnknownKeys(child)]),
    );
    if (strips(node)) rewritten.catchall = z.never();
  }
  return (node as z.ZodType).clone(rewritten as unknown as z.core.$ZodTypeDef);
}

/**
 * Holds outputs to one contract schema as `safeParse` does, without its copy where that copy would equal the
 * output: a schema whose parse keeps values gets a validator (zod's compiled check, which builds no value unless
 * a refinement reads it) of its twin that refuses unknown keys, and an output it accepts is sent as it is. Any other output, and any output
 * of a schema that may change values, goes through `safeParse`, which describes a violation and strips keys.
 */
export function outputChecker(schema: ObjectSchema): (output: unknown) => OutputVerdict {
  const parse = (output: unknown): OutputVerdict => parsedOutput(schema, output);
  if (!isTree(schema) || !keepsValues(schema)) return parse;
  const twin = z.compile(refusingUnknownKeys(schema) as z.ZodType);
  return (output) =>
    twin.validate(output) ? { success: true, payload: output as Record<string, unknown> } : parse(output);
}

/** The output as `safeParse` holds it to the schema: its parsed copy, or the issues. */
export function parsedOutput(schema: ObjectSchema, output: unknown): OutputVerdict {
  const parsed = schema.safeParse(output);
  return parsed.success
    ? { success: true, payload: parsed.data }
    : { success: false, issues: parsed.error.issues };
}

const checkers = new WeakMap<ObjectSchema, (output: unknown) => OutputVerdict>();

/** The schema's checker, built on first use (a tool never called costs nothing at start). */
export function checkerOf(schema: ObjectSchema): (output: unknown) => OutputVerdict {
  let checker = checkers.get(schema);
  if (checker === undefined) {
    checker = outputChecker(schema);
    checkers.set(schema, checker);
  }
  return checker;
}

/** Whether two verdicts agree: both refuse, or both accept with equal payloads. */
export function sameVerdict(a: OutputVerdict, b: OutputVerdict): boolean {
  if (!a.success || !b.success) return a.success === b.success;
  return isDeepStrictEqual(a.payload, b.payload);
}
