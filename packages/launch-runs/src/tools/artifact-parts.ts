// A large artifact read in parts that each fit the answer limit: text as server-kit's textPart cuts it, binary
// in whole base64 groups. Offsets count bytes of the artifact, so that a part's end is the next part's start
// whatever the encoding.
import { assertOffsetWithin, textPart, type AnswerForm } from '@switchyard/server-kit/runtime';
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
  const room = Math.max(0, answerBytes - ENVELOPE_BYTES);
  const head = { name: artifact.name, sha256: artifact.sha256 };
  if (isTextualType(artifact.contentType) && decodeUtf8(bytes) !== undefined) {
    const part = textPart(bytes, offset, room, form, artifact.name);
    return {
      ...head,
      content_type: artifact.contentType,
      content: part.text,
      encoding: 'utf-8',
      offset,
      size: part.size,
      next_offset: part.next,
    };
  }
  const size = bytes.length;
  assertOffsetWithin(size, offset, artifact.name);
  const charBytes = form === 'tool' ? 2 : 1;
  const groups = Math.max(1, Math.floor(room / charBytes / GROUP_CHARS));
  const part = bytes.subarray(offset, offset + groups * GROUP_BYTES);
  const next = offset + part.length;
  return {
    ...head,
    content_type: `${artifact.contentType};base64`,
    content: Buffer.from(part).toString('base64'),
    encoding: 'base64',
    offset,
    size,
    next_offset: next < size ? next : null,
  };
}
