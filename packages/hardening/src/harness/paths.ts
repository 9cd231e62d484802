import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** packages/hardening, from src/ or dist/. */
export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES_DIR = path.join(PACKAGE_DIR, 'fixtures');

/** The built `switchyard` bin of @switchyard/server (what users run). */
export function switchyardBin(): string {
  return path.join(path.dirname(require.resolve('@switchyard/server')), 'bin.js');
}

/** The preload that reports unhandled rejections, uncaught exceptions and warnings on stderr. */
export const DETECTOR = path.join(FIXTURES_DIR, 'detect-unhandled.mjs');
