import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';

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

/**
 * Where `path` lies for the site worktree at `root` (both with every symlink resolved): among the site's
 * files, in its repository's `.git` (a site's files never lead there: its config, hooks and refs are git's),
 * or outside the worktree.
 */
export function siteRegion(root: string, path: string): 'site' | 'git' | 'outside' {
  if (!isInside(root, path)) return 'outside';
  return relative(root, path).split(sep)[0] === '.git' ? 'git' : 'site';
}
