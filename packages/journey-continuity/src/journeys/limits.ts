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
