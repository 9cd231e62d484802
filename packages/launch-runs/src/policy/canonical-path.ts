import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';

/**
 * An absolute path with every symlink resolved, also for a path that does not exist (yet): the deepest
 * existing ancestor is resolved and the rest appended. So `/allowed/link-to-elsewhere/repo` and
 * `/allowed/../elsewhere` both show where they really lead.
 */
export function canonicalPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync.native(absolute);
  } catch {
    const parent = dirname(absolute);
    if (parent === absolute) return absolute;
    return resolve(canonicalPath(parent), basename(absolute));
  }
}

/** Whether canonical `path` is `root` or inside it (both canonical). */
export function isInside(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}
