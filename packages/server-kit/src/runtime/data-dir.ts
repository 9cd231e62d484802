import fs from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';

/**
 * Where Switchyard keeps its databases: `SWITCHYARD_DATA_DIR` when set, else the platform's user data
 * directory (e.g. `~/.local/share/switchyard` on Linux, `~/Library/Application Support/switchyard` on macOS).
 * The directory is created if missing.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.SWITCHYARD_DATA_DIR?.trim();
  const dir = configured ? path.resolve(configured) : envPaths('switchyard', { suffix: '' }).data;
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
