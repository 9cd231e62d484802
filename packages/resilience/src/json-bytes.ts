// JSON from a body's UTF-8 bytes, without decoding the whole body as UTF-8 first. V8 turns UTF-8 with any
// non-ASCII byte into a two-byte string slowly, and parses two-byte strings more slowly too: a 100 KB TfL
// journey answer with nine accented bytes took 3.5 ms to decode and parse, against 0.26 ms for the same bytes
// read as Latin-1 (measured, Node 24). JSON's syntax is ASCII, and the bytes of a multi-byte UTF-8 character
// (all >= 0x80) can only stand inside a string, so the body is parsed as Latin-1 (one char per byte) and only
// the strings holding such chars are decoded as UTF-8 afterwards: the same value JSON.parse gives for the
// decoded text, at the cost of a walk over the parsed value.
import { Buffer, isAscii } from 'node:buffer';

const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);
/**
 * A `\u` escape can write a char >= 0x80 that was never UTF-8 in the body; after parsing it cannot be told
 * from a Latin-1-read byte, so a body with one takes the plain path.
 */
const ESCAPE = Buffer.from('\\u', 'latin1');
const BEYOND_ASCII = /[\u0080-\uffff]/;

/** A string read as Latin-1, decoded as the UTF-8 it was (invalid sequences as U+FFFD, as TextDecoder does). */
function utf8Of(latin1: string): string {
  return BEYOND_ASCII.test(latin1) ? Buffer.from(latin1, 'latin1').toString('utf8') : latin1;
}

/** The same object with its keys decoded, in their order (defined, so a `__proto__` key stays a key). */
function withDecodedKeys(object: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object))
    Object.defineProperty(out, utf8Of(key), {
      value: object[key],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return out;
}

/** Decodes, in place, every string of a value parsed from Latin-1 text; returns the value (a new one for a string or renamed keys). */
function decodeStrings(value: unknown): unknown {
  if (typeof value === 'string') return utf8Of(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      const decoded = decodeStrings(item);
      if (decoded !== item) value[index] = decoded;
    }
    return value;
  }
  const object = value as Record<string, unknown>;
  let renamed = false;
  for (const key of Object.keys(object)) {
    const item = object[key];
    const decoded = decodeStrings(item);
    if (decoded !== item) object[key] = decoded; // an own key, `__proto__` included: no setter runs
    if (!renamed && BEYOND_ASCII.test(key)) renamed = true;
  }
  return renamed ? withDecodedKeys(object) : object;
}

/** The body without a leading byte order mark, as a Buffer over the same memory. */
function withoutByteOrderMark(bytes: Uint8Array): Buffer {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return body.subarray(0, 3).equals(BYTE_ORDER_MARK) ? body.subarray(3) : body;
}

/** JSON's white space: space, tab, line feed, carriage return. */
const WHITE_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** True for a body with nothing but JSON white space (or nothing at all) after a byte order mark. */
export function isBlankText(bytes: Uint8Array): boolean {
  for (const byte of withoutByteOrderMark(bytes)) if (!WHITE_SPACE.has(byte)) return false;
  return true;
}

/**
 * `JSON.parse` of UTF-8 bytes (a byte order mark dropped), equal to `JSON.parse(new TextDecoder().decode(bytes))`;
 * throws its SyntaxError for text that is not JSON.
 */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  const body = withoutByteOrderMark(bytes);
  if (isAscii(body)) return JSON.parse(body.toString('latin1'));
  if (body.includes(ESCAPE)) return JSON.parse(body.toString('utf8'));
  return decodeStrings(JSON.parse(body.toString('latin1')));
}
