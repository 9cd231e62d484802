import { readdir, readlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { canonicalPath, siteRegion } from '../policy/canonical-path.js';

/**
 * The first symlink of the site worktree (site-relative, `/`-separated) whose target lies outside the site,
 * in its repository's `.git` or is the worktree itself (which holds `.git`), dangling or not; undefined
 * when there is none. A site generator follows symlinks (hugo does for the main project), so one committed
 * as `assets/x -> /home/...` would read server files into the build, and `content/x.md -> ../.git/config`
 * the clone's git config.
 */
export async function symlinkLeavingSite(siteRoot: string): Promise<string | undefined> {
  const root = canonicalPath(siteRoot);
  const pending = [siteRoot];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!(dir === siteRoot && entry.name === '.git')) pending.push(path);
      } else if (entry.isSymbolicLink()) {
        const target = canonicalPath(resolve(dirname(path), await readlink(path)));
        if (target === root || siteRegion(root, target) !== 'site')
          return relative(siteRoot, path).split(sep).join('/');
      }
    }
  }
  return undefined;
}
