import { parseInstant } from '@switchyard/contracts/journey';

/** Earliest and latest instants JavaScript dates can hold: the open ends of a date range. */
const MIN_MILLIS = -8.64e15;
const MAX_MILLIS = 8.64e15;

export interface MillisRange {
  from: number;
  to: number;
}

/**
 * An inclusive range in the whole milliseconds the database stores. A bound finer than a millisecond is
 * rounded inwards (from up, to down), so no stored instant outside the caller's range is ever included.
 */
export function toMillisRange(fromDate?: string, toDate?: string): MillisRange {
  const from = fromDate === undefined ? undefined : parseInstant(fromDate);
  const to = toDate === undefined ? undefined : parseInstant(toDate);
  return {
    from: from === undefined ? MIN_MILLIS : from.millis + (from.rest > 0 ? 1 : 0),
    to: to === undefined ? MAX_MILLIS : to.millis,
  };
}

/** A date-time a caller wrote, as whole milliseconds (sub-millisecond digits dropped). */
export function toMillis(dateTime: string): number {
  const instant = parseInstant(dateTime);
  if (instant === undefined) throw new RangeError(`not an ISO 8601 date-time: ${dateTime}`);
  return instant.millis;
}

export function toIso(millis: number): string {
  return new Date(millis).toISOString();
}
