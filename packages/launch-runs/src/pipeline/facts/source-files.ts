import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { InventoryFile, RepoInventory, SkippedFile } from '../artifact-schemas.js';
import { compareCodePoints } from '../../canonical-json.js';
import { readFileCapped, tooLargeReason } from '../file-reads.js';
import { workspacePaths } from '../workspace.js';

/**
 * Read access to the cloned source, limited to tracked regular files (a symlink is never followed, so a
 * source repository cannot make the run read outside its clone) of at most `maxBytes` (LAUNCH_MAX_FILE_BYTES):
 * a bigger file reads as absent and is listed in `skipped()`, for the worker's artifact to record.
 */
export class SourceFiles {
  private readonly cache = new Map<string, string | undefined>();
  private readonly skippedFiles = new Map<string, SkippedFile>();
  private readonly byPath: ReadonlyMap<string, InventoryFile>;

  constructor(
    readonly root: string,
    readonly files: readonly InventoryFile[],
    readonly maxBytes: number,
  ) {
    this.byPath = new Map(files.map((file) => [file.path, file]));
  }

  /** The size W1 recorded for a tracked file; undefined for a path it did not list. */
  size(path: string): number | undefined {
    return this.byPath.get(path)?.size;
  }

  /** The files a read left out because they are too large, sorted by path. */
  skipped(): SkippedFile[] {
    return [...this.skippedFiles.values()].sort((a, b) => compareCodePoints(a.path, b.path));
  }

  private skip(path: string, size: number): undefined {
    this.skippedFiles.set(path, {
      path,
      size,
      reason: tooLargeReason(size, this.maxBytes, 'LAUNCH_MAX_FILE_BYTES'),
    });
    return undefined;
  }

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
    const text = await this.readUncached(path);
    this.cache.set(path, text);
    return text;
  }

  private async readUncached(path: string): Promise<string | undefined> {
    const size = this.size(path);
    if (size === undefined) return undefined;
    if (size > this.maxBytes) return this.skip(path, size);
    const absolute = join(this.root, ...path.split('/'));
    const info = await lstat(absolute).catch(() => undefined);
    if (info?.isFile() !== true) return undefined;
    const read = await readFileCapped(absolute, this.maxBytes);
    if ('tooLarge' in read) return this.skip(path, read.size);
    return read.bytes.includes(0) ? undefined : read.bytes.toString('utf8');
  }

  async lines(path: string): Promise<string[] | undefined> {
    const text = await this.read(path);
    return text?.split('\n');
  }
}

/** `{ skipped_files }` for an artifact when a read left files out, else nothing (the field is optional). */
export function skippedFilesField(files: SourceFiles): { skipped_files?: SkippedFile[] } {
  const skipped = files.skipped();
  return skipped.length === 0 ? {} : { skipped_files: skipped };
}

/** The run's cloned source, the files W1's repo_inventory.json lists, each read up to `maxBytes`. */
export function clonedSource(runDir: string, inventory: RepoInventory, maxBytes: number): SourceFiles {
  return new SourceFiles(workspacePaths(runDir).source, inventory.source.files, maxBytes);
}
