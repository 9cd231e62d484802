import { SwitchyardError } from '@switchyard/contracts/errors';

/** Fixed limits (the document content limit is configurable: JOURNEY_MAX_DOCUMENT_BYTES). */
export const MAX_TITLE_CHARS = 500;
export const MAX_SUMMARY_BYTES = 64 * 1024;
export const MAX_METADATA_BYTES = 64 * 1024;

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** 400 unless `text` fits in `max` UTF-8 bytes; the message names the field and both sizes. */
export function assertMaxBytes(field: string, text: string, max: number): void {
  const size = utf8Bytes(text);
  if (size > max) {
    throw new SwitchyardError(
      'validation',
      `${field} must be at most ${max} bytes (UTF-8); it is ${size} bytes`,
    );
  }
}

export function assertMaxChars(field: string, text: string, max: number): void {
  if (text.length > max) {
    throw new SwitchyardError(
      'validation',
      `${field} must be at most ${max} characters; it is ${text.length}`,
    );
  }
}

/** JSON writes a control character as six bytes (`\u0001`): the most a field can grow on the wire. */
const JSON_ESCAPE_FACTOR = 6;
/** Room for the JSON-RPC envelope and the other fields of a call. */
const REQUEST_FRAMING_BYTES = 64 * 1024;

/**
 * The largest MCP request body a caller may need to send: a document of the largest allowed size with
 * the largest metadata and title, every character escaped. The HTTP body limit is raised to it.
 */
export function largestRequestBytes(maxDocumentBytes: number): number {
  return (
    JSON_ESCAPE_FACTOR * (maxDocumentBytes + MAX_METADATA_BYTES + MAX_TITLE_CHARS) + REQUEST_FRAMING_BYTES
  );
}
