import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InventoryFile } from '../artifact-schemas.js';
import { compareCodePoints } from '../canonical-json.js';

/** Largest source file W2/W3 read (bigger files are not documentation). */
const MAX_BYTES = 1024 * 1024;

/**
 * Read access to the cloned source, limited to tracked regular files (a symlink is never followed, so a
 * source repository cannot make the run read outside its clone).
 */
export class SourceFiles {
  private readonly cache = new Map<string, string | undefined>();

  constructor(
    readonly root: string,
    readonly files: readonly InventoryFile[],
  ) {}

  /** The root-level file whose name matches one of `patterns` (first pattern wins, then path order). */
  findRootFile(patterns: readonly RegExp[]): string | undefined {
    const rootFiles = this.files.map((file) => file.path).filter((path) => !path.includes('/'));
    for (const pattern of patterns) {
      const match = rootFiles.filter((path) => pattern.test(path)).sort(compareCodePoints)[0];
      if (match !== undefined) return match;
    }
    return undefined;
  }

  /** Tracked paths under any of `folders` (top-level folder names, case-insensitive), sorted. */
  under(folders: readonly string[]): string[] {
    const wanted = new Set(folders.map((folder) => folder.toLowerCase()));
    return this.files
      .map((file) => file.path)
      .filter((path) => path.includes('/') && wanted.has(path.split('/')[0]!.toLowerCase()))
      .sort(compareCodePoints);
  }

  async read(path: string): Promise<string | undefined> {
    if (this.cache.has(path)) return this.cache.get(path);
    const entry = this.files.find((file) => file.path === path);
    let text: string | undefined;
    if (entry !== undefined && entry.size <= MAX_BYTES) {
      const absolute = join(this.root, ...path.split('/'));
      const info = await lstat(absolute).catch(() => undefined);
      if (info?.isFile() === true) {
        const bytes = await readFile(absolute);
        text = bytes.includes(0) ? undefined : bytes.toString('utf8');
      }
    }
    this.cache.set(path, text);
    return text;
  }

  async lines(path: string): Promise<string[] | undefined> {
    const text = await this.read(path);
    return text?.split('\n');
  }
}
