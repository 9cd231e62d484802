// Lenient zod building blocks for upstream bodies. Real upstreams add fields, send null for absent ones,
// now and then send a number as a string ("interChangeDuration": "2") or an id as a number, and a single
// odd item must not sink a whole answer. Optional fields that cannot be read become undefined; required
// ones fail only the item that holds them (see parseEach).
import { z } from 'zod';

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function toNumber(value: unknown): unknown {
  if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value.trim());
  return value;
}

/** A finite number, or a string holding one. */
export const wireNumber = z.preprocess(toNumber, z.number());

/** An optional number: a number or numeric string; anything else (null, "n/a", an object) is undefined. */
export const optionalNumber = wireNumber.optional().catch(undefined);

/** An optional string: a string, or a number written as one; anything else is undefined. */
export const optionalText = z
  .preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string())
  .optional()
  .catch(undefined);

/** An optional flag: true/false, or "true"/"false"; anything else is undefined. */
export const optionalBoolean = z
  .preprocess((value) => {
    if (typeof value !== 'string') return value;
    const lower = value.trim().toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : value;
  }, z.boolean())
  .optional()
  .catch(undefined);

/** An optional nested object: parsed with `schema`, or undefined when absent, null or unreadable. */
export function optionalObject<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

/** A list (required) whose unreadable items are left out. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.array(z.unknown()).transform((items) => parseEach(item, items));
}

/** An optional list whose unreadable items are left out (absent, null or not a list: empty). */
export function lenientList<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .nullish()
    .catch(undefined)
    .transform((items) => parseEach(item, items ?? []));
}

/** The items that parse with `schema`; the others are left out. */
export function parseEach<T extends z.ZodType>(schema: T, items: readonly unknown[]): z.output<T>[] {
  const parsed: z.output<T>[] = [];
  for (const item of items) {
    const result = schema.safeParse(item);
    if (result.success) parsed.push(result.data);
  }
  return parsed;
}

/** The trimmed text, or undefined when it is missing or blank. */
export function nonEmpty(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
