import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** packages/hardening, from src/ or dist/. */
export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES_DIR = path.join(PACKAGE_DIR, 'fixtures');

/** The `switchyard` bin of @switchyard/server, what users run (it starts the bundle `pnpm build` writes). */
export function switchyardBin(): string {
  return path.join(packageRoot(require.resolve('@switchyard/server')), 'bin', 'switchyard.js');
}

/** The folder of the package.json nearest above `file` (the package's entry may sit anywhere inside it). */
function packageRoot(file: string): string {
  let dir = path.dirname(file);
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${file}`);
    dir = parent;
  }
  return dir;
}

/** The preload that reports unhandled rejections, uncaught exceptions and warnings on stderr. */
export const DETECTOR = path.join(FIXTURES_DIR, 'detect-unhandled.mjs');
