import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes of the regular files under `dir` (symlinks not followed); stops counting past `limit`. */
export async function folderBytes(dir: string, limit: number): Promise<number> {
  let total = 0;
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      continue; // removed while counting
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile())
        total += await lstat(path).then(
          (info) => info.size,
          () => 0,
        );
      if (total > limit) return total;
    }
  }
  return total;
}

/**
 * Checks the size of `dir` every `intervalMs` while a child process writes into it, and calls `onExceeded`
 * once when it passes `maxBytes` (the caller kills the child). Returns the function that stops watching.
 */
export function watchFolderSize(
  dir: string,
  maxBytes: number,
  onExceeded: () => void,
  intervalMs = 250,
): () => void {
  let busy = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (busy || stopped) return;
    busy = true;
    folderBytes(dir, maxBytes)
      .then((bytes) => {
        if (!stopped && bytes > maxBytes) {
          stopped = true;
          clearInterval(timer);
          onExceeded();
        }
      })
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
