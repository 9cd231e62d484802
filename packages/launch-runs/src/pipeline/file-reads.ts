import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Reads of repository files whose memory does not grow with the file: a hash is streamed in fixed chunks,
 * and content is read only up to a cap (a bigger file is reported by its size, never loaded).
 */

/** Bytes per read while hashing: large enough to keep a 2 GiB file to a second or two, small next to a heap. */
const HASH_CHUNK_BYTES = 1024 * 1024;

/** sha256 of a file, streamed a chunk at a time so memory stays flat whatever its size. */
export async function sha256OfFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  const stream = createReadStream(path, { highWaterMark: HASH_CHUNK_BYTES, signal });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export type CappedRead = { bytes: Buffer } | { tooLarge: true; size: number };

/**
 * The bytes of a regular file that has at most `maxBytes`; a bigger one answers with its size and is not
 * read. A symlink is never followed (it fails to open), so a repository cannot point a read elsewhere.
 */
export async function readFileCapped(path: string, maxBytes: number): Promise<CappedRead> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) return { tooLarge: true, size };
    // Never more than the size at open: memory stays within the cap even if the file grows meanwhile.
    const buffer = Buffer.alloc(size);
    let length = 0;
    while (length < size) {
      const { bytesRead } = await handle.read(buffer, length, size - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { bytes: buffer.subarray(0, length) };
  } finally {
    await handle.close();
  }
}

/** Why a file was left out, as artifacts record it: names the setting that decides. */
export function tooLargeReason(size: number, limit: number, setting: string): string {
  return `${size} bytes is more than ${setting} (${limit} bytes)`;
}
