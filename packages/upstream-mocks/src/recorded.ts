// Recorded upstream answers (fixtures/) and the one transformation the mocks apply to them: moving the
// recorded times to the request's. Times are found by their format, not their key, and only those near the
// recording move: fixed dates in the same body (`created` of a line, planned works) stay as recorded.
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
 * A deep copy of `value` whose times (strings in one of `formats`, within a day of `aroundMs`) are `byMs`
 * later.
 */
export function shiftTimes<T>(value: T, byMs: number, aroundMs: number, formats: readonly TimeFormat[]): T {
  const shift = (text: string): string => {
    const format = formats.find((f) => f.pattern.test(text));
    const ms = format?.read(text);
    return format === undefined || ms === undefined || Math.abs(ms - aroundMs) > NEAR_MS
      ? text
      : format.write(ms + byMs);
  };
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
    typeof item === 'string' ? shift(item) : item,
  ) as T;
}
