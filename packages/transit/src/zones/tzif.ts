// A TZif file (RFC 8536), as the system's time-zone database keeps one per zone: the instants a zone's offset
// changed, the offsets, and the rule for instants after the last change.
import { parsePosixRule, posixOffsetAt, type PosixRule } from './posix-rule.js';

/** One zone's offsets: `offsets[i]` (seconds east of UTC) from `transitions[i]` (epoch seconds) on. */
export interface ZoneTable {
  transitions: readonly number[];
  offsets: readonly number[];
  /** The offset before the first transition (the file's first local time type). */
  initial: number;
  /** The rule after the last transition; without one, its offset goes on. */
  after?: PosixRule;
}

const HEADER_BYTES = 44;

interface Counts {
  isut: number;
  isstd: number;
  leap: number;
  time: number;
  type: number;
  char: number;
}

function countsAt(bytes: Uint8Array, at: number): Counts | undefined {
  if (bytes.length < at + HEADER_BYTES) return undefined;
  if (String.fromCharCode(...bytes.subarray(at, at + 4)) !== 'TZif') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset + at + 20, 24);
  const count = (index: number) => view.getUint32(index * 4);
  return { isut: count(0), isstd: count(1), leap: count(2), time: count(3), type: count(4), char: count(5) };
}

function dataBytes(counts: Counts, timeBytes: number): number {
  const { isut, isstd, leap, time, type, char } = counts;
  return time * timeBytes + time + type * 6 + char + leap * (timeBytes + 4) + isstd + isut;
}

/**
 * The zone a TZif file describes, or undefined for bytes that are not one this reader takes: not TZif, cut
 * short, indices out of range, leap seconds (the `right/` zones count them into their instants), or a footer
 * rule it cannot read.
 */
export function readTzif(bytes: Uint8Array): ZoneTable | undefined {
  const first = countsAt(bytes, 0);
  if (first === undefined) return undefined;
  const version = bytes[4] ?? 0;
  // Version 2 and later repeat the data with 64-bit instants after the version 1 block, then a footer.
  const modern = version >= 0x32;
  const counts = modern ? countsAt(bytes, HEADER_BYTES + dataBytes(first, 4)) : first;
  if (counts === undefined || counts.leap > 0 || counts.type === 0) return undefined;
  const timeBytes = modern ? 8 : 4;
  const start = modern ? 2 * HEADER_BYTES + dataBytes(first, 4) : HEADER_BYTES;
  const end = start + dataBytes(counts, timeBytes);
  if (bytes.length < end) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, end - start);
  const typesAt = counts.time * (timeBytes + 1);
  const offsetOfType = (type: number) => view.getInt32(typesAt + type * 6);
  const transitions: number[] = [];
  const offsets: number[] = [];
  for (let index = 0; index < counts.time; index += 1) {
    const type = view.getUint8(counts.time * timeBytes + index);
    if (type >= counts.type) return undefined;
    transitions.push(modern ? Number(view.getBigInt64(index * 8)) : view.getInt32(index * 4));
    offsets.push(offsetOfType(type));
  }
  const table: ZoneTable = { transitions, offsets, initial: offsetOfType(0) };
  if (!modern) return table;
  const footer = new TextDecoder('latin1').decode(bytes.subarray(end)).match(/^\n([^\n]*)\n/)?.[1];
  if (footer === undefined || footer === '') return table;
  const after = parsePosixRule(footer);
  return after === undefined ? undefined : { ...table, after };
}

/** The zone's offset (seconds east of UTC) at `epochSeconds`. */
export function tableOffsetAt(table: ZoneTable, epochSeconds: number): number {
  const { transitions, offsets } = table;
  const count = transitions.length;
  if (count === 0 || epochSeconds < transitions[0]!) {
    return count === 0 && table.after !== undefined
      ? posixOffsetAt(table.after, epochSeconds)
      : table.initial;
  }
  if (epochSeconds >= transitions[count - 1]! && table.after !== undefined) {
    return posixOffsetAt(table.after, epochSeconds);
  }
  // The last transition at or before the instant.
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (transitions[middle]! <= epochSeconds) low = middle;
    else high = middle - 1;
  }
  return offsets[low]!;
}
