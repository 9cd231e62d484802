/** A UTF-16 surrogate without its pair: valid in JSON, but no text (and not encodable in a URL or UTF-8). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NUL = '\u0000';

/**
 * Why `value` is not text that every store keeps as given, or undefined when it is: an unpaired surrogate
 * (SQLite and PostgreSQL would store U+FFFD instead) or a NUL character (PostgreSQL cannot store one in text).
 */
export function textFault(value: string): string | undefined {
  if (LONE_SURROGATE.test(value)) {
    return 'it has an unpaired UTF-16 surrogate (\\uD800-\\uDFFF); remove it or send the whole character';
  }
  if (value.includes(NUL))
    return 'it has a NUL character (\\u0000), which no text column can hold; remove it';
  return undefined;
}

/** Whether `value` is well-formed Unicode text that every store keeps as given (see textFault). */
export function isWellFormedText(value: string): boolean {
  return textFault(value) === undefined;
}

/** What the caller is told when `value`, found at `field`, fails isWellFormedText. */
export function notWellFormedMessage(field: string, value: string): string {
  return `${field} must be well-formed Unicode text: ${textFault(value) ?? 'it is not'}`;
}

/** The refinement options of a text field checked with isWellFormedText: the message names the fault found. */
export function wellFormedTextError(field: string) {
  return { error: (issue: { input: unknown }) => notWellFormedMessage(field, String(issue.input)) };
}
