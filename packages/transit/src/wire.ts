// Lenient zod building blocks for upstream bodies. Real upstreams add fields, send null for absent ones,
// now and then send a number as a string ("interChangeDuration": "2") or an id as a number, and a single
// odd item must not sink a whole answer. Optional fields that cannot be read become undefined; required
// ones fail only the item that holds them (see parseEach).
//
// A field's value is read by one of the read* functions below, in a zod block or in a table (wire-record.ts,
// for records whose every field is lenient). The optional blocks call them inside one zod transform and never
// fail: `.optional().catch(undefined)` built and finalized a zod issue, its message formatted, for each null,
// and `z.array(z.unknown())` copied every list item by item before parseEach read it.
import { z } from 'zod';

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function toNumber(value: unknown): unknown {
  if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value.trim());
  return value;
}

/** The finite number a value is or holds as a string; undefined for anything else. */
export function readNumber(value: unknown): number | undefined {
  const number = toNumber(value);
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

/** A string, or a number written as one; undefined for anything else. */
export function readText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' ? String(value) : undefined;
}

/** A string as it is (a number is not one); undefined for anything else. */
export function readString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A string of at least one character (an id, a name); undefined for anything else. */
export function readNonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** true/false, or "true"/"false" in any case around white space; undefined for anything else. */
export function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const lower = value.trim().toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

/** An optional field read by `read`, which answers undefined for what it cannot read (absent keys stay absent). */
function optionalField<T>(read: (value: unknown) => T | undefined) {
  return z.unknown().transform(read).optional();
}

/** The value parsed with `schema`, or undefined when it does not fit. */
function parsedOrUndefined<T extends z.ZodType>(schema: T, value: unknown): z.output<T> | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** A finite number, or a string holding one. */
export const wireNumber = z.preprocess(toNumber, z.number());

/** An optional number: a number or numeric string; anything else (null, "n/a", an object) is undefined. */
export const optionalNumber = optionalField(readNumber);

/** An optional string: a string, or a number written as one; anything else is undefined. */
export const optionalText = optionalField(readText);

/** An optional flag: true/false, or "true"/"false"; anything else is undefined. */
export const optionalBoolean = optionalField(readBoolean);

/** An optional nested object: parsed with `schema`, or undefined when absent, null or unreadable. */
export function optionalObject<T extends z.ZodType>(schema: T) {
  return optionalField((value) => (value == null ? undefined : parsedOrUndefined(schema, value)));
}

/** An optional list whose unreadable items are left out (absent, null or not a list: empty). */
export function lenientList<T extends z.ZodType>(item: T) {
  return z
    .unknown()
    .optional() // an absent key is no issue: it reads as an empty list
    .transform((items) => (Array.isArray(items) ? parseEach(item, items) : []));
}

/** The items that parse with `schema`; the others are left out. */
export function parseEach<T extends z.ZodType>(schema: T, items: readonly unknown[]): z.output<T>[] {
  const parsed: z.output<T>[] = [];
  for (const item of items) {
    const read = parsedOrUndefined(schema, item);
    if (read !== undefined) parsed.push(read);
  }
  return parsed;
}

/** The trimmed text, or undefined when it is missing or blank. */
export function nonEmpty(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
