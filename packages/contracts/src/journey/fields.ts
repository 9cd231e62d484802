import { z } from 'zod';

/** The four document types of seed 004, in the seed's order. */
export const DOCUMENT_TYPES = ['woop_plan', 'file_upload', 'artifact', 'note'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** An issue message that names the field: `<field> is required` when missing, else `message`. */
export function fieldError(field: string, message: string) {
  return (issue: { input?: unknown }): string =>
    issue.input === undefined ? `${field} is required` : message;
}

/** A UUID input field whose error names the field (`journey_id must be a valid UUID`). */
export function uuidField(field: string, hint = '') {
  return z.uuid({ error: fieldError(field, `${field} must be a valid UUID${hint}`) });
}

/** An ISO 8601 date-time input field with a time zone (`Z` or `±hh:mm`); the error names the field. */
export function dateTimeField(field: string) {
  return z.iso.datetime({
    offset: true,
    error: fieldError(
      field,
      `${field} must be an ISO 8601 date-time with a time zone, e.g. 2025-01-31T09:00:00Z`,
    ),
  });
}

/** Output timestamps: ISO 8601 as the server writes them (UTC, `Z`). */
export const TimestampSchema = z.iso.datetime({ offset: true });

const INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An ISO 8601 date-time as whole milliseconds since the epoch plus the sub-millisecond rest (0 <= rest < 1),
 * so that two instants compare exactly even beyond millisecond precision. Undefined when not a date-time.
 */
export function parseInstant(value: string): { millis: number; rest: number } | undefined {
  const match = INSTANT.exec(value);
  if (match === null) return undefined;
  const [, base, fraction = '', zone] = match;
  const whole = Date.parse(`${base}${zone === 'z' ? 'Z' : zone}`);
  if (Number.isNaN(whole)) return undefined;
  const digits = `${fraction}000`;
  const millis = whole + Number(digits.slice(0, 3));
  const rest = Number(`0.${digits.slice(3) || '0'}`);
  return { millis, rest };
}

/** Negative when `a` is earlier than `b`, zero when they are the same instant, positive when later. */
export function compareInstants(a: string, b: string): number {
  const x = parseInstant(a);
  const y = parseInstant(b);
  if (x === undefined || y === undefined) return Number.NaN;
  return x.millis - y.millis || x.rest - y.rest;
}
