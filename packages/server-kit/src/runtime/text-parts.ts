// A text too large for one answer, read in parts that each fit: offsets count UTF-8 bytes of the whole text, so
// that a part's end is the next part's start, and a part ends after a whole line where one ends in its second
// half. Shared by every resource or tool that hands out a long text (launch artifacts, journey sessions).
import { SwitchyardError } from '@switchyard/contracts/errors';
import { partEnd, textFitting, type AnswerForm } from './answer-bytes.js';

/** The `_meta` key of a resource content that is one part of a larger text: the URI of the next part. */
export const NEXT_PART_META = 'io.github.switchyard-mcp/next-uri';

/** `_meta` naming the next part's URI, when there is one (spread into a resource content). */
export function nextPartMeta(uri: string | undefined): { _meta?: Record<string, string> } {
  return uri === undefined ? {} : { _meta: { [NEXT_PART_META]: uri } };
}

export interface TextPart {
  text: string;
  /** The byte of the whole text `text` starts at. */
  offset: number;
  /** The whole text in UTF-8 bytes. */
  size: number;
  /** Where the next part starts, or null when this one reaches the end. */
  next: number | null;
}

/** A whole number from a part URI's query (`?offset=`, `?after=`), 0 when it is absent. */
export function partQueryNumber(name: string, value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  if (!/^\d{1,15}$/.test(value))
    throw new SwitchyardError('validation', `${name} must be a whole number >= 0`);
  return Number(value);
}

/** A validation error unless `offset` is within a text of `size` bytes (its end included: an empty last part). */
export function assertOffsetWithin(size: number, offset: number, what: string): void {
  if (offset > size) {
    throw new SwitchyardError('validation', `offset ${offset} is past the end of ${what} (${size} bytes)`);
  }
}

/** A UTF-8 continuation byte (10xxxxxx): an offset there would start inside a character. */
function insideCharacter(bytes: Uint8Array, offset: number): boolean {
  return offset < bytes.length && ((bytes[offset] ?? 0) & 0xc0) === 0x80;
}

/**
 * The part of `text` (a string, or valid UTF-8 bytes) from byte `offset` that costs at most `limit` bytes in an
 * answer of `form`: at least one character, so that a reader always moves on. `what` names the text in the
 * validation error an offset past the end or inside a character gets.
 */
export function textPart(
  text: string | Uint8Array,
  offset: number,
  limit: number,
  form: AnswerForm,
  what: string,
): TextPart {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const size = bytes.length;
  assertOffsetWithin(size, offset, what);
  if (insideCharacter(bytes, offset)) {
    throw new SwitchyardError(
      'validation',
      `offset ${offset} is inside a character of ${what}: start at 0 or where an earlier part said the next starts`,
    );
  }
  const rest = Buffer.from(bytes.buffer, bytes.byteOffset + offset, size - offset).toString('utf8');
  const fit = textFitting(rest, limit, form);
  const firstCharacter = rest.length === 0 ? 0 : String.fromCodePoint(rest.codePointAt(0) ?? 0).length;
  const part = rest.slice(0, Math.max(partEnd(rest, fit.length), firstCharacter));
  const next = offset + Buffer.byteLength(part, 'utf8');
  return { text: part, offset, size, next: next < size ? next : null };
}
