/**
 * What an answer costs on the wire, in bytes, so that every answer can be held to the answer limit
 * (SWITCHYARD_MAX_ANSWER_BYTES) at its serialized size: a control character is six bytes in JSON (`\u0001`),
 * and a tool answer carries its payload twice, as structured content and as a JSON text mirror, whose
 * characters JSON escapes once more.
 */

/** How an answer carries a text: once (a resource's contents) or twice (a tool's payload and its mirror). */
export type AnswerForm = 'resource' | 'tool';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Control characters JSON writes as two characters (`\b \t \n \f \r`); the others take six (`\u001f`). */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/** How many `"` and `\` a string holds: each costs one more byte when the string is escaped again. */
function quotesAndBackslashes(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE || code === BACKSLASH) count++;
  }
  return count;
}

/**
 * The bytes of a tool answer whose payload serializes to `json` (`JSON.stringify(payload)`): the structured
 * content as that JSON, plus the text mirror, which is that JSON as a JSON string. Exact, not an estimate.
 */
export function toolAnswerBytes(json: string): number {
  return 2 * Buffer.byteLength(json, 'utf8') + quotesAndBackslashes(json) + 2;
}

/** Whether a tool answer whose payload serializes to `json` fits in `limit` bytes (cheap when far below). */
export function toolAnswerFits(json: string, limit: number): boolean {
  const bytes = Buffer.byteLength(json, 'utf8');
  // Escaping adds at most one byte per character: no need to count them when even that fits.
  if (3 * bytes + 2 <= limit) return true;
  return 2 * bytes + quotesAndBackslashes(json) + 2 <= limit;
}

/** The bytes one UTF-16 code unit of a text costs inside a JSON string (a surrogate pair: each half 2). */
function jsonBytes(code: number, pairedSurrogate: boolean): number {
  if (code === QUOTE || code === BACKSLASH) return 2;
  if (code < 0x20) return SHORT_ESCAPES.has(code) ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return pairedSurrogate ? 2 : 6; // a lone surrogate is escaped
  return 3;
}

/** The same code unit in the text mirror: its JSON form written as a JSON string again. */
function mirroredBytes(code: number, pairedSurrogate: boolean): number {
  if (code === QUOTE || code === BACKSLASH) return 4; // \" -> \\\"
  if (code < 0x20) return SHORT_ESCAPES.has(code) ? 3 : 7; // \n -> \\n, \u0001 -> \\u0001
  if (code >= 0xd800 && code <= 0xdfff && !pairedSurrogate) return 7;
  return jsonBytes(code, pairedSurrogate);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The bytes `text` adds to an answer of the given form (without the quotes around it). */
export function textAnswerBytes(text: string, form: AnswerForm): number {
  return textFitting(text, Number.POSITIVE_INFINITY, form).bytes;
}

export interface TextFit {
  /** How many UTF-16 code units of the text fit (never half of a surrogate pair). */
  length: number;
  /** What those cost in the answer. */
  bytes: number;
}

/**
 * The longest start of `text` that costs at most `limit` bytes in an answer of the given form, cut between
 * characters (never inside a surrogate pair). Reads only as far as the limit reaches.
 */
export function textFitting(text: string, limit: number, form: AnswerForm): TextFit {
  const mirrored = form === 'tool';
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    const pair = isHighSurrogate(code) && isLowSurrogate(next);
    const units = pair ? 2 : 1;
    const perUnit = jsonBytes(code, pair) + (mirrored ? mirroredBytes(code, pair) : 0);
    const cost = perUnit * units;
    if (bytes + cost > limit) break;
    bytes += cost;
    i += units;
  }
  return { length: i, bytes };
}

/**
 * Where to end a part of `text` that may hold at most `length` code units: after the last line break in its
 * second half when there is one (a reader gets whole lines), else at `length`.
 */
export function partEnd(text: string, length: number): number {
  if (length >= text.length) return text.length;
  const lineBreak = text.lastIndexOf('\n', length - 1);
  return lineBreak >= length / 2 ? lineBreak + 1 : length;
}
