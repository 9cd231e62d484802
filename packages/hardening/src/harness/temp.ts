import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh temporary directory (removed by `removeTempDir`, kept when HARDENING_KEEP is set). */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `switchyard-hardening-${prefix}-`));
}

export function removeTempDir(dir: string): void {
  if (process.env.HARDENING_KEEP) {
    console.error(`kept ${dir}`);
    return;
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
