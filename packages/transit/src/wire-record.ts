// Upstream records read from a table of field readers (wire.ts's read* functions, or another table's record or
// list reader) without zod per field: a zod object of the lenient blocks runs three or four schemas for each
// field, each with payload objects of its own, which was most of what parsing a 100 KB TfL journey answer
// allocated. The rules are wire.ts's: extra fields are ignored, an absent, null or unreadable field is left
// out, an item that is not a readable record is left out of its list. A field marked `required` is one the
// record cannot do without: when it cannot be read, the record is unreadable (and left out of its list).
import { z } from 'zod';

/** Reads one field's value: undefined when it is absent or cannot be read. */
export type FieldReader<T> = (value: unknown) => T | undefined;

/** What a reader gives when it can read its value. */
export type ReadValue<R extends FieldReader<unknown>> = Exclude<ReturnType<R>, undefined>;

/** A reader whose field the record cannot do without (see `required`). */
export type RequiredReader<T> = FieldReader<T> & { readonly required: true };

/** Marks a field the record cannot do without: a record whose field `read` cannot read is itself unreadable. */
export function required<T>(read: FieldReader<T>): RequiredReader<T> {
  return Object.assign((value: unknown) => read(value), { required: true as const });
}

type FieldTable = Record<string, FieldReader<unknown>>;
type Read<F extends FieldTable, K extends keyof F> = Exclude<ReturnType<F[K]>, undefined>;
type AlwaysRead<F extends FieldTable> = {
  [K in keyof F]: F[K] extends RequiredReader<unknown> ? K : undefined extends ReturnType<F[K]> ? never : K;
}[keyof F];

/** A record read with table `F`: lists are always there (maybe empty), other fields only when readable. */
export type RecordOf<F extends FieldTable> = { [K in AlwaysRead<F>]: Read<F, K> } & {
  [K in Exclude<keyof F, AlwaysRead<F>>]?: Read<F, K>;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequired(read: FieldReader<unknown>): boolean {
  return (read as Partial<RequiredReader<unknown>>).required === true;
}

/**
 * A record's fields, each read with its reader from the table; undefined when the value is not a record or a
 * required field cannot be read.
 */
export function lenientRecord<F extends FieldTable>(fields: F): FieldReader<RecordOf<F>> {
  const table = Object.entries(fields).map(([key, read]) => ({ key, read, required: isRequired(read) }));
  return (value) => {
    if (!isRecord(value)) return undefined;
    const record: Record<string, unknown> = {};
    for (const { key, read, required } of table) {
      const field = read(value[key]);
      if (field !== undefined) record[key] = field;
      else if (required) return undefined;
    }
    return record as RecordOf<F>;
  };
}

/** A list's readable items (absent, null or not a list: empty). */
export function lenientItems<T>(readItem: FieldReader<T>): (value: unknown) => T[] {
  return (value) => {
    if (!Array.isArray(value)) return [];
    const items: T[] = [];
    for (const item of value) {
      const read = readItem(item);
      if (read !== undefined) items.push(read);
    }
    return items;
  };
}

/** A list of which every item must be readable, `min` items at least; undefined otherwise. */
export function everyItem<T>(readItem: FieldReader<T>, min: number): FieldReader<T[]> {
  return (value) => {
    if (!Array.isArray(value) || value.length < min) return undefined;
    const items: T[] = [];
    for (const item of value) {
      const read = readItem(item);
      if (read === undefined) return undefined;
      items.push(read);
    }
    return items;
  };
}

/** A body that must be a list, its readable items kept (read with a table reader). */
export function listSchema<T>(readItem: FieldReader<T>) {
  return z.custom<unknown[]>(Array.isArray).transform(lenientItems(readItem));
}

/** A table reader as a field of a zod object: absent or unreadable reads as the reader says, never an issue. */
export function readerField<R extends FieldReader<unknown>>(reader: R) {
  return z
    .unknown()
    .optional()
    .transform((value) => reader(value) as ReturnType<R>);
}

/** A body's schema read with `reader`: it fails only when the body is not a record. */
export function recordSchema<T>(reader: FieldReader<T>) {
  return z.unknown().transform((value, context) => {
    const read = reader(value);
    if (read !== undefined) return read;
    context.addIssue({ code: 'custom', message: 'expected an object' });
    return z.NEVER;
  });
}
