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

/** A JSON string literal, or a number as long as epoch milliseconds of this era. */
const TOKEN = /"((?:[^"\\]|\\.)*)"|\b\d{13}\b/g;

/**
 * `value` as a function of how far its times move: `at(byMs)` is a fresh copy whose times (strings in one of
 * `formats`, or epoch milliseconds, within a day of `aroundMs`) are `byMs` later. The times are found once,
 * in the JSON text, so that each answer costs one parse.
 */
export function movableTimes<T>(
  value: T,
  aroundMs: number,
  formats: readonly TimeFormat[],
): (byMs: number) => T {
  const text = JSON.stringify(value);
  const pieces: string[] = [];
  const times: { readonly ms: number; readonly write: (ms: number) => string }[] = [];
  let cut = 0;
  for (const match of text.matchAll(TOKEN)) {
    const [token, literal] = match;
    const format = literal === undefined ? undefined : formats.find((f) => f.pattern.test(literal));
    const ms = literal === undefined ? Number(token) : format?.read(literal);
    if (ms === undefined || Math.abs(ms - aroundMs) > NEAR_MS) continue;
    pieces.push(text.slice(cut, match.index));
    times.push({ ms, write: format === undefined ? String : (at) => JSON.stringify(format.write(at)) });
    cut = match.index + token.length;
  }
  const rest = text.slice(cut);
  // Requests within the same minute move by the same amount: keep the last text.
  let last = { byMs: NaN, text };
  return (byMs) => {
    if (last.byMs !== byMs) {
      const moved = pieces.map((piece, i) => piece + times[i]!.write(times[i]!.ms + byMs)).join('') + rest;
      last = { byMs, text: moved };
    }
    return JSON.parse(last.text) as T;
  };
}
