import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import picomatch from 'picomatch';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { siteRegion } from '../policy/canonical-path.js';
import { allowedPathsViolation, throwIfCancelled } from './errors.js';
import type { WorkerContext } from './types.js';

/**
 * Safe access to files of the site worktree by site-relative POSIX path. Every path is checked before it
 * touches the disk: relative, no `..`, no `.git`, and (through realpath) not escaping the worktree nor
 * reaching its `.git` via a symlink. Writes are atomic (temp file + rename).
 */

export class UnsafeSitePathError extends Error {
  constructor(
    readonly sitePath: string,
    reason: string,
  ) {
    super(`Unsafe site path ${JSON.stringify(sitePath)}: ${reason}`);
    this.name = 'UnsafeSitePathError';
  }
}

/** Normalises a site-relative path, or throws UnsafeSitePathError. */
export function normalizeSitePath(path: string): string {
  if (path === '' || path.includes('\0') || path.includes('\\'))
    throw new UnsafeSitePathError(path, 'invalid characters');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw new UnsafeSitePathError(path, 'absolute path');
  const segments = path.split('/');
  if (segments.includes('..')) throw new UnsafeSitePathError(path, '".." segment');
  const normalized = posix.normalize(path);
  if (normalized === '.' || normalized.startsWith('../'))
    throw new UnsafeSitePathError(path, 'outside the site');
  if (normalized.split('/').includes('.git')) throw new UnsafeSitePathError(path, 'inside .git');
  if (normalized.endsWith('/')) throw new UnsafeSitePathError(path, 'a folder, not a file');
  return normalized;
}

export type AllowedPathsMatcher = (sitePath: string) => boolean;

/** picomatch over the run_config globs (site-relative, POSIX separators). */
export function allowedPathsMatcher(globs: readonly string[]): AllowedPathsMatcher {
  const match = picomatch([...globs], { dot: false });
  return (sitePath) => match(sitePath);
}

/** Throws ALLOWED_PATHS_VIOLATION (before any write) when one of `paths` is not allowed. */
export function assertAllowed(paths: readonly string[], allowedPaths: readonly string[]): void {
  const allowed = allowedPathsMatcher(allowedPaths);
  const refused: string[] = [];
  for (const path of paths) {
    let normalized: string;
    try {
      normalized = normalizeSitePath(path);
    } catch {
      refused.push(path);
      continue;
    }
    if (!allowed(normalized)) refused.push(path);
  }
  if (refused.length > 0) throw allowedPathsViolation(refused, allowedPaths);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path of `sitePath` inside `siteRoot`, verified not to leave it through a symlink. */
export async function resolveInSite(siteRoot: string, sitePath: string): Promise<string> {
  const normalized = normalizeSitePath(sitePath);
  const rootReal = await realpath(siteRoot);
  const target = join(rootReal, ...normalized.split('/'));
  // The nearest existing ancestor must resolve inside the worktree, and not into its .git.
  let probe = dirname(target);
  while (!(await exists(probe))) probe = dirname(probe);
  const probeReal = await realpath(probe).catch(() => undefined);
  if (probeReal === undefined)
    throw new UnsafeSitePathError(sitePath, 'a parent folder is a symlink to nothing');
  const region = siteRegion(rootReal, probeReal);
  if (region === 'outside')
    throw new UnsafeSitePathError(sitePath, 'a parent folder is a symlink leaving the site');
  if (region === 'git')
    throw new UnsafeSitePathError(sitePath, "a parent folder is a symlink into the site's .git");
  if (await exists(target)) {
    const info = await lstat(target);
    if (info.isSymbolicLink()) throw new UnsafeSitePathError(sitePath, 'the file is a symlink');
  }
  return target;
}

export async function readSiteFile(siteRoot: string, sitePath: string): Promise<string | undefined> {
  const target = await resolveInSite(siteRoot, sitePath);
  try {
    return await readFile(target, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Atomic write: a temp file next to the target, then rename over it. */
export async function atomicWriteFile(target: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const temp = join(
    dirname(target),
    `.${posix.basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  try {
    await writeFile(temp, content);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export async function writeSiteFile(siteRoot: string, sitePath: string, content: string): Promise<void> {
  await atomicWriteFile(await resolveInSite(siteRoot, sitePath), content);
}

/** A whole file the run writes into the site worktree. */
export interface SiteFileWrite {
  path: string;
  content: string;
}

/**
 * Writes `files` into the site worktree in order, each atomically and only when it differs (so writing them
 * again changes nothing). An unsafe path is ALLOWED_PATHS_VIOLATION, any other failure INTERNAL naming it.
 */
export async function writeSiteFiles(
  siteRoot: string,
  files: readonly SiteFileWrite[],
  ctx: Pick<WorkerContext, 'config' | 'signal'>,
): Promise<void> {
  for (const file of files) {
    throwIfCancelled(ctx.signal);
    try {
      if ((await readSiteFile(siteRoot, file.path)) !== file.content)
        await writeSiteFile(siteRoot, file.path, file.content);
    } catch (error) {
      if (error instanceof UnsafeSitePathError)
        throw allowedPathsViolation([file.path], ctx.config.allowed_paths);
      throw new SwitchyardError('internal', `Writing ${file.path} into the site worktree failed`, {
        code: 'INTERNAL',
        cause: error,
        details: {
          cause_class: error instanceof Error ? error.constructor.name : typeof error,
          path: file.path,
        },
      });
    }
  }
}
