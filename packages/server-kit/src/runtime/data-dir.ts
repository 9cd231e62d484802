import fs from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { ConfigError } from './config-error.js';

const VARIABLE = 'SWITCHYARD_DATA_DIR';

/** Why `mkdir -p dir` failed, in the words of someone who set the path. */
function whyNotAFolder(dir: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EEXIST':
      return `${dir} is a file, not a folder`;
    case 'ENOTDIR':
      return `${dir} cannot be a folder: part of its path is a file`;
    case 'EACCES':
    case 'EPERM':
      return `${dir} cannot be created: this process may not write to the folder it would go in`;
    case 'EROFS':
      return `${dir} cannot be created: the file system is read-only`;
    default:
      return `${dir} cannot be created: ${error.message}`;
  }
}

/**
 * Where Switchyard keeps its databases: `SWITCHYARD_DATA_DIR` when set, else the platform's user data
 * directory (e.g. `~/.local/share/switchyard` on Linux, `~/Library/Application Support/switchyard` on macOS).
 * The directory is created if missing; when it cannot be, a ConfigError names the variable and the path.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[VARIABLE]?.trim();
  const dir = configured ? path.resolve(configured) : envPaths('switchyard', { suffix: '' }).data;
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    const problem = whyNotAFolder(dir, error as NodeJS.ErrnoException);
    throw new ConfigError(
      VARIABLE,
      configured
        ? `${problem}; set it to a folder this process can write (created if missing)`
        : `unset, so the platform's data folder is used, and ${problem}; set ${VARIABLE} to a folder this process can write`,
    );
  }
  return dir;
}
