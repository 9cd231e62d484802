import fs from 'node:fs/promises';
import path from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { and, asc, eq, sql } from 'drizzle-orm';
import { artifacts, type ArtifactRow } from '../db/schema.js';
import type { ArtifactStore, ArtifactWriteResult } from '../pipeline/types.js';
import { runCancelled } from '../runs/errors.js';
import { assertArtifactName, PENDING_SUFFIX } from './artifact-names.js';
import { sha256Hex } from '../canonical-json.js';
import { contentTypeFor } from './content-types.js';
import type { RunPaths } from './run-paths.js';
import type { RunStore } from './run-store.js';

export interface ArtifactContent {
  name: string;
  contentType: string;
  sha256: string;
  bytes: Uint8Array;
}

async function fsyncPath(target: string, flags: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(target, flags);
    await handle.sync();
  } catch (error) {
    // Directories cannot be opened for fsync on every platform; the rename itself is still atomic.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw error;
  } finally {
    await handle?.close();
  }
}

async function writeDurably(file: string, bytes: Uint8Array): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const handle = await fs.open(file, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function fileExists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** The pending copy of an artifact's next bytes: `<name>.<sha256>.pending` beside the final file. */
function pendingFile(finalFile: string, sha256: string): string {
  return `${finalFile}.${sha256}${PENDING_SUFFIX}`;
}

/**
 * The artifacts of runs: bytes on disk under `<run>/artifacts/`, indexed (name, sha256, size, type, worker)
 * in SQLite. A write is crash-safe in both directions:
 * 1. the bytes go to `<name>.<sha>.pending` (fsync),
 * 2. one transaction upserts the index row and appends ARTIFACT_WRITTEN,
 * 3. the pending file is renamed over `<name>` (atomic) and the folder fsynced.
 * A crash before 2 leaves an unindexed pending file (removed by `reconcile`); a crash between 2 and 3
 * leaves the indexed bytes in the pending file, which `reconcile` and `read` roll forward. Indexed bytes
 * are therefore never lost, and (run_id, name) is the primary key, so nothing is ever indexed twice.
 */
export class ArtifactRepository {
  private readonly listPrepared;

  constructor(
    private readonly store: RunStore,
    private readonly paths: RunPaths,
    private readonly now: () => number = Date.now,
  ) {
    this.listPrepared = store.db
      .select()
      .from(artifacts)
      .where(eq(artifacts.runId, sql.placeholder('runId')))
      .orderBy(asc(artifacts.name))
      .prepare();
  }

  /** The seam's ArtifactStore for one worker execution, valid while `token` holds the run's lease. */
  writer(runId: string, worker: string, options: { token: string; signal: AbortSignal }): ArtifactStore {
    return {
      write: (name, content, writeOptions) =>
        this.write(runId, worker, name, content, { ...options, ...writeOptions }),
      read: async (name) => (await this.read(runId, name))?.bytes,
    };
  }

  async write(
    runId: string,
    worker: string,
    name: string,
    content: string | Uint8Array,
    options: { token: string; signal: AbortSignal; contentType?: string },
  ): Promise<ArtifactWriteResult> {
    if (options.signal.aborted) throw runCancelled(runId);
    const finalFile = this.paths.artifactFile(runId, name);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const sha256 = sha256Hex(bytes);
    const pending = pendingFile(finalFile, sha256);
    await writeDurably(pending, bytes);
    try {
      this.store.tx((tx) => {
        this.store.requireRun(tx, runId, options.token);
        const row = {
          runId,
          name,
          path: name,
          sha256,
          size: bytes.byteLength,
          contentType: contentTypeFor(name, content, options.contentType),
          worker,
          writtenAt: new Date(this.now()).toISOString(),
        };
        tx.insert(artifacts)
          .values(row)
          .onConflictDoUpdate({ target: [artifacts.runId, artifacts.name], set: row })
          .run();
        this.store.append(tx, runId, 'ARTIFACT_WRITTEN', { name, sha256, size: bytes.byteLength, worker });
      });
    } catch (error) {
      await fs.rm(pending, { force: true });
      throw error;
    }
    await fs.rename(pending, finalFile);
    await fsyncPath(path.dirname(finalFile), 'r');
    return { name, sha256 };
  }

  list(runId: string): ArtifactRow[] {
    return this.listPrepared.all({ runId });
  }

  /** Looks the name up in the index first: a name that is not indexed is never turned into a file path. */
  indexed(runId: string, name: string): ArtifactRow | undefined {
    assertArtifactName(name);
    return this.store.db
      .select()
      .from(artifacts)
      .where(and(eq(artifacts.runId, runId), eq(artifacts.name, name)))
      .get();
  }

  /** The indexed bytes, verified against their sha256; undefined when the run has no such artifact. */
  async read(runId: string, name: string): Promise<ArtifactContent | undefined> {
    const row = this.indexed(runId, name);
    if (row === undefined) return undefined;
    const file = this.paths.artifactFile(runId, row.path);
    let bytes = await this.readIfPresent(file);
    if (bytes === undefined || sha256Hex(bytes) !== row.sha256) {
      await this.rollForward(file, row.sha256);
      bytes = await this.readIfPresent(file);
    }
    if (bytes === undefined || sha256Hex(bytes) !== row.sha256) {
      throw new SwitchyardError(
        'internal',
        `Artifact ${name} of run ${runId} does not match its recorded sha256`,
        {
          details: { cause_class: 'ArtifactIntegrityError', artifact_name: name },
        },
      );
    }
    return { name: row.name, contentType: row.contentType, sha256: row.sha256, bytes };
  }

  private async readIfPresent(file: string): Promise<Uint8Array | undefined> {
    try {
      return await fs.readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  private async rollForward(finalFile: string, sha256: string): Promise<boolean> {
    const pending = pendingFile(finalFile, sha256);
    if (!(await fileExists(pending))) return false;
    await fs.rename(pending, finalFile);
    await fsyncPath(path.dirname(finalFile), 'r');
    return true;
  }

  /**
   * After a crash: completes the renames of indexed writes and removes pending files that never made it
   * into the index. Returns the names rolled forward.
   */
  async reconcile(runId: string): Promise<string[]> {
    const dir = this.paths.artifactsDir(runId);
    const rows = new Map(
      this.list(runId).map((row) => [this.paths.artifactFile(runId, row.path), row.sha256]),
    );
    const rolled: string[] = [];
    for (const [file, sha256] of rows) {
      if (await this.rollForward(file, sha256))
        rolled.push(path.relative(dir, file).split(path.sep).join('/'));
    }
    // Whatever is still pending was never indexed: a write that crashed before its transaction.
    for (const pending of await this.pendingFiles(dir)) await fs.rm(pending, { force: true });
    return rolled;
  }

  private async pendingFiles(dir: string): Promise<string[]> {
    let entries: string[];
    try {
      entries = await fs.readdir(dir, { recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return entries.filter((entry) => entry.endsWith(PENDING_SUFFIX)).map((entry) => path.join(dir, entry));
  }
}
