import { lstat, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { InventoryFile } from './artifact-schemas.js';
import { compareCodePoints } from '../canonical-json.js';
import { throwIfCancelled } from './errors.js';
import { sha256OfFile, tooLargeReason } from './file-reads.js';
import { sha256Hex } from './hashing.js';

/**
 * Size and sha256 of each tracked file of a clone, sorted by path. Symlinks are recorded by their target
 * text and never followed; files are hashed streamed, so memory does not grow with a file; a file above
 * `maxHashBytes` is listed with its size, `sha256: null` and the reason (it is not read at all).
 */
export async function inventoryFiles(
  root: string,
  trackedPaths: readonly string[],
  maxHashBytes: number,
  signal: AbortSignal,
): Promise<InventoryFile[]> {
  const files: InventoryFile[] = [];
  for (const path of [...trackedPaths].sort(compareCodePoints)) {
    throwIfCancelled(signal);
    const absolute = join(root, ...path.split('/'));
    const info = await lstat(absolute).catch(() => undefined);
    if (info === undefined) continue;
    if (info.isSymbolicLink()) {
      const target = await readlink(absolute);
      files.push({ path, size: Buffer.byteLength(target), sha256: sha256Hex(target) });
    } else if (info.isFile() && info.size > maxHashBytes) {
      files.push({
        path,
        size: info.size,
        sha256: null,
        not_hashed: tooLargeReason(info.size, maxHashBytes, 'LAUNCH_MAX_HASH_BYTES'),
      });
    } else if (info.isFile()) {
      files.push({ path, size: info.size, sha256: await sha256OfFile(absolute, signal) });
    }
  }
  return files;
}
