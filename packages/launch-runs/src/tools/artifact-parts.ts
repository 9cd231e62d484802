// A large artifact read in parts that each fit the answer limit: text cut between characters (after a whole
// line where one ends in the second half of the part), binary in whole base64 groups. Offsets count bytes of
// the artifact, so that a part's end is the next part's start whatever the encoding.
import { SwitchyardError } from '@switchyard/contracts/errors';
import { partEnd, textFitting, type AnswerForm } from '@switchyard/server-kit/runtime';
import type { ArtifactContent } from '../store/artifact-store.js';
import { decodeUtf8, isTextualType } from '../store/content-types.js';

/** Room for what an answer carries besides the content (run id, name, media type, sha256, offsets). */
const ENVELOPE_BYTES = 2048;
/** A base64 group: 3 bytes as 4 characters, each one byte of JSON (two in a tool answer with its mirror). */
const GROUP_BYTES = 3;
const GROUP_CHARS = 4;

export interface ArtifactPart {
  name: string;
  content_type: string;
  sha256: string;
  content: string;
  encoding: 'utf-8' | 'base64';
  /** The artifact byte `content` starts at. */
  offset: number;
  /** The whole artifact in bytes. */
  size: number;
  /** Where the rest starts, or null when this part reaches the end. */
  next_offset: number | null;
}

function invalidOffset(message: string): SwitchyardError {
  return new SwitchyardError('validation', message, { code: 'INVALID_INPUT' });
}

/** A UTF-8 continuation byte (10xxxxxx): an offset there would start inside a character. */
function insideCharacter(bytes: Uint8Array, offset: number): boolean {
  return offset < bytes.length && ((bytes[offset] ?? 0) & 0xc0) === 0x80;
}

/**
 * The part of `artifact` from `offset` that fits in `answerBytes` for an answer of `form`: text as text
 * (the whole artifact must be valid UTF-8 of a textual type), anything else as base64 with `;base64` in the type.
 */
export function artifactPart(
  artifact: ArtifactContent,
  offset: number,
  answerBytes: number,
  form: AnswerForm,
): ArtifactPart {
  const { bytes } = artifact;
  const size = bytes.length;
  if (offset > size) {
    throw invalidOffset(`offset ${offset} is past the end of ${artifact.name} (${size} bytes)`);
  }
  const room = Math.max(0, answerBytes - ENVELOPE_BYTES);
  const head = { name: artifact.name, sha256: artifact.sha256, offset, size };
  const isText = isTextualType(artifact.contentType) && decodeUtf8(bytes) !== undefined;
  if (isText) {
    if (insideCharacter(bytes, offset)) {
      throw invalidOffset(
        `offset ${offset} is inside a character of ${artifact.name}: start at 0 or at a next_offset`,
      );
    }
    const rest = decodeUtf8(bytes.subarray(offset)) ?? '';
    const fit = textFitting(rest, room, form);
    // At least one character, so that a reader always moves on (the server refuses what still does not fit).
    const firstCharacter = rest.length === 0 ? 0 : String.fromCodePoint(rest.codePointAt(0) ?? 0).length;
    const end = Math.max(partEnd(rest, fit.length), firstCharacter);
    const content = rest.slice(0, end);
    const next = offset + Buffer.byteLength(content, 'utf8');
    return {
      ...head,
      content_type: artifact.contentType,
      content,
      encoding: 'utf-8',
      next_offset: next < size ? next : null,
    };
  }
  const charBytes = form === 'tool' ? 2 : 1;
  const groups = Math.max(1, Math.floor(room / charBytes / GROUP_CHARS));
  const part = bytes.subarray(offset, offset + groups * GROUP_BYTES);
  const next = offset + part.length;
  return {
    ...head,
    content_type: `${artifact.contentType};base64`,
    content: Buffer.from(part).toString('base64'),
    encoding: 'base64',
    next_offset: next < size ? next : null,
  };
}
