import { wordy } from './text-windows.js';

// What a history answer quotes of a stored text (a summary, a snippet, a title) is counted as the answer
// carries it: in JSON, where a control character takes six bytes (`\u0001`) and a quote two. A budget in
// characters would let a text of control characters grow sixfold on the wire, and again in the text mirror.

/** How far back a cut looks for the start of the word it falls in, before cutting inside the word. */
const WORD_SLACK = 32;

/** JSON's two-character escapes among the control characters: \b \t \n \f \r. */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** The bytes JSON writes for the character at `i` (UTF-8, escapes included) and how many units it spans. */
function jsonCharacter(text: string, i: number): { bytes: number; units: number } {
  const unit = text.charCodeAt(i);
  if (unit < 0x20) return { bytes: SHORT_ESCAPES.has(unit) ? 2 : 6, units: 1 };
  if (unit === 0x22 || unit === 0x5c) return { bytes: 2, units: 1 };
  if (unit < 0x80) return { bytes: 1, units: 1 };
  if (unit < 0x800) return { bytes: 2, units: 1 };
  if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(i + 1))) return { bytes: 4, units: 2 };
  // A lone surrogate is written as an escape (`\udc00`); stored text has none, but count it right.
  if (isHighSurrogate(unit) || isLowSurrogate(unit)) return { bytes: 6, units: 1 };
  return { bytes: 3, units: 1 };
}

/** The bytes of `text` as a JSON string, without its quotes (what JSON.stringify writes, less two). */
export function jsonBytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length;) {
    const character = jsonCharacter(text, i);
    bytes += character.bytes;
    i += character.units;
  }
  return bytes;
}

export interface Excerpt {
  text: string;
  /** Whether `text` is only the start of the text. */
  cut: boolean;
}

/**
 * The longest start of `text` that JSON writes in at most `maxBytes` bytes (quotes not counted), cut
 * between characters (never inside a surrogate pair) and, where the cut falls inside a word of at most
 * WORD_SLACK units, before that word.
 */
export function excerpt(text: string, maxBytes: number): Excerpt {
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const character = jsonCharacter(text, end);
    if (bytes + character.bytes > maxBytes) break;
    bytes += character.bytes;
    end += character.units;
  }
  if (end === text.length) return { text, cut: false };
  return { text: text.slice(0, beforeCutWord(text, end)), cut: true };
}

/** `end`, or the start of the word `end` falls inside when that word starts at most WORD_SLACK units back. */
function beforeCutWord(text: string, end: number): number {
  if (!wordy(text[end - 1]) || !wordy(text[end])) return end;
  let start = end - 1;
  while (start > 0 && end - start <= WORD_SLACK && wordy(text[start - 1])) start -= 1;
  return start > 0 && end - start <= WORD_SLACK ? start : end;
}
