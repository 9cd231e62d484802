import { isWordCharacter } from './fts-query.js';

/**
 * The most text FTS5's snippet() is given for one result. snippet() scores every candidate start against
 * every match in the text, so its work grows with the square of the number of matches (a 1 MiB document
 * full of them took minutes); over this many characters it stays well under a millisecond. A text this
 * long or shorter is given whole, so FTS5 picks its best excerpt as it always did.
 */
export const SNIPPET_WINDOW_CHARS = 1024;

/**
 * A longer text is searched for its first match in probe windows of PROBE_STRIDE characters plus the
 * next PROBE_OVERLAP (so a word or phrase of up to PROBE_OVERLAP characters lies whole in some window);
 * the snippet window then starts where the first matching probe window starts and ends PROBE_OVERLAP
 * past it, so a match at the probe window's end still has words after it.
 */
export const PROBE_OVERLAP = 128;
export const PROBE_STRIDE = SNIPPET_WINDOW_CHARS - 2 * PROBE_OVERLAP;

/** Reads `count` characters (UTF-16 code units) of a text from `start`: fewer at its end, none past it. */
export type TextReader = (start: number, count: number) => string;

/** A part of a text, and whether it reaches the text's start and end (else the snippet shows `…` there). */
export interface TextWindow {
  text: string;
  fromStart: boolean;
  toEnd: boolean;
}

/**
 * A part of a text read with one more character on each side where the text has one, so that a word cut
 * by the part's edges can be told from a whole one: `lead` is 1 when the character before is included.
 */
interface Piece {
  text: string;
  lead: number;
}

/** `count` characters from `start`, with the characters either side when there are. */
export function readPiece(read: TextReader, start: number, count: number): Piece {
  const lead = start > 0 ? 1 : 0;
  return { text: read(start - lead, lead + count + 1), lead };
}

/** How many of the `count` characters asked for the piece holds (fewer at the end of the text). */
export function pieceLength(piece: Piece, count: number): number {
  return Math.min(count, piece.text.length - piece.lead);
}

/** Whether a UTF-16 unit is part of a word; a surrogate half is, since an edge may fall inside an astral character. */
export const wordy = (unit: string | undefined) =>
  unit !== undefined && (/[\uD800-\uDFFF]/.test(unit) || isWordCharacter(unit));

/** Characters [from, to) of the piece (relative to its start), without a word cut at either edge. */
function wholeWords({ text, lead }: Piece, from: number, to: number): string {
  let first = lead + from;
  let end = lead + to;
  if (wordy(text[first - 1]) && wordy(text[first])) while (first < end && wordy(text[first])) first += 1;
  if (wordy(text[end]) && wordy(text[end - 1])) while (end > first && wordy(text[end - 1])) end -= 1;
  return text.slice(first, end);
}

/**
 * The probe windows of the first `length` characters of a piece read from a probe window's start, each
 * without the words its edges cut (the overlap holds them whole in the neighbouring window), so that a
 * window never matches part of a word.
 */
export function probeWindows(piece: Piece, length: number): string[] {
  const windows: string[] = [];
  for (let offset = 0; offset === 0 || offset + PROBE_OVERLAP < length; offset += PROBE_STRIDE) {
    windows.push(wholeWords(piece, offset, Math.min(offset + PROBE_STRIDE + PROBE_OVERLAP, length)));
  }
  return windows;
}

/** SNIPPET_WINDOW_CHARS characters of the text from `start`, without a word its edges cut. */
export function windowAt(read: TextReader, start: number): TextWindow {
  const piece = readPiece(read, start, SNIPPET_WINDOW_CHARS);
  const length = pieceLength(piece, SNIPPET_WINDOW_CHARS);
  const fromStart = start === 0;
  const toEnd = piece.text.length - piece.lead === length;
  let text = wholeWords(piece, 0, length);
  if (!fromStart) text = text.trimStart();
  if (!toEnd) text = text.trimEnd();
  return { text, fromStart, toEnd };
}

/** Marks where the snippet of a window continues beyond it, as FTS5 does where it cuts a text. */
export function continued(snippet: string, window: TextWindow, ellipsis: string): string {
  let shown = snippet;
  if (!window.fromStart && !shown.startsWith(ellipsis)) shown = `${ellipsis}${shown}`;
  if (!window.toEnd && !shown.endsWith(ellipsis)) shown = `${shown}${ellipsis}`;
  return shown;
}
