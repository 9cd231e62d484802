// Recorded upstream answers (fixtures/) and the one transformation the mocks apply to them: moving the
// recorded times to the request's. Times are found by their format (strings) or size (epoch milliseconds), not
// their key, and only those near the recording move: fixed dates in the same body (`created` of a line, planned
// works) stay as recorded.
import { readFileSync } from 'node:fs';

/** A fixture of this package, parsed (fixtures/ sits beside src/ and dist/). */
export function readFixture<T>(relativePath: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/${relativePath}`, import.meta.url), 'utf8')) as T;
}

/** One way an upstream writes an instant, read and written back. */
export interface TimeFormat {
  readonly pattern: RegExp;
  read(text: string): number;
  write(epochMs: number): string;
}

const NEAR_MS = 24 * 3600_000;

/**
 * A deep copy of `value` whose times (strings in one of `formats`, or epoch milliseconds, within a day of
 * `aroundMs`) are `byMs` later.
 */
export function shiftTimes<T>(value: T, byMs: number, aroundMs: number, formats: readonly TimeFormat[]): T {
  const near = (ms: number): boolean => Math.abs(ms - aroundMs) <= NEAR_MS;
  const shift = (item: unknown): unknown => {
    if (typeof item === 'number') return near(item) ? item + byMs : item;
    if (typeof item !== 'string') return item;
    const format = formats.find((f) => f.pattern.test(item));
    return format !== undefined && near(format.read(item)) ? format.write(format.read(item) + byMs) : item;
  };
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) => shift(item)) as T;
}
