/** A UTF-16 surrogate without its pair: valid in JSON, but no text (and not encodable in a URL or UTF-8). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `value` is well-formed Unicode text (no unpaired surrogate). */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/** What the caller is told when `field` fails isWellFormedText. */
export function notWellFormedMessage(field: string): string {
  return (
    `${field} must be well-formed Unicode text: it has an unpaired UTF-16 surrogate (\\uD800-\\uDFFF); ` +
    'remove it or send the whole character'
  );
}
