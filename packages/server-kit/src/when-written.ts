import { setTimeout as sleep } from 'node:timers/promises';

/**
 * `read()` once it stops throwing: for a file another process writes (a profile at exit, a report on a
 * signal), which may not exist yet or be half written. Throws `gaveUp` after `timeoutMs`.
 */
export async function readWhenWritten<T>(
  read: () => T,
  options: { gaveUp: string; timeoutMs?: number; intervalMs?: number },
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 100 } = options;
  for (let waited = 0; ; waited += intervalMs) {
    try {
      return read();
    } catch {
      // Not written yet, or still being written.
    }
    if (waited >= timeoutMs) throw new Error(options.gaveUp);
    await sleep(intervalMs);
  }
}
