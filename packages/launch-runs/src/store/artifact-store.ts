import fs from 'node:fs/promises';
import path from 'node:path';
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { ArtifactRow } from '../db/schema.js';
import type { ArtifactStore, ArtifactWriteResult } from '../pipeline/types.js';
import { runCancelled } from '../runs/model/errors.js';
import { assertArtifactName, PENDING_SUFFIX } from './artifact-names.js';
import { sha256Hex } from '../canonical-json.js';
import { contentTypeFor } from './content-types.js';
import type { RunPaths } from './run-paths.js';
import type { LaunchStore } from './launch-store.js';
import { artifactRecorded } from './run-writes.js';

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

/** Where artifact bytes live, around the transaction (`index`) that indexes them. */
interface ArtifactBytes {
  save(
    runId: string,
    name: string,
    sha256: string,
    bytes: Uint8Array,
    index: () => Promise<void>,
  ): Promise<void>;
  /** The bytes of an indexed artifact, rolled forward when a crash left them pending; unverified. */
  load(runId: string, row: ArtifactRow): Promise<Uint8Array | undefined>;
  /** After a crash: completes what the index promises; returns the names rolled forward. */
  reconcile(runId: string, rows: readonly ArtifactRow[]): Promise<string[]>;
}

/**
 * Bytes in files under `<run>/artifacts/` (SQLite: one machine). A write is crash-safe in both directions:
 * 1. the bytes go to `<name>.<sha>.pending` (fsync),
 * 2. one transaction upserts the index row and appends ARTIFACT_WRITTEN,
 * 3. the pending file is renamed over `<name>` (atomic) and the folder fsynced.
 * A crash before 2 leaves an unindexed pending file (removed by `reconcile`); a crash between 2 and 3
 * leaves the indexed bytes in the pending file, which `reconcile` and `load` roll forward. Indexed bytes
 * are therefore never lost, and (run_id, name) is the primary key, so nothing is ever indexed twice.
 */
class ArtifactFiles implements ArtifactBytes {
  constructor(private readonly paths: RunPaths) {}

  async save(runId: string, name: string, sha256: string, bytes: Uint8Array, index: () => Promise<void>) {
    const finalFile = this.paths.artifactFile(runId, name);
    const pending = pendingFile(finalFile, sha256);
    await writeDurably(pending, bytes);
    try {
      await index();
    } catch (error) {
      await fs.rm(pending, { force: true });
      throw error;
    }
    await fs.rename(pending, finalFile);
    await fsyncPath(path.dirname(finalFile), 'r');
  }

  async load(runId: string, row: ArtifactRow): Promise<Uint8Array | undefined> {
    const file = this.paths.artifactFile(runId, row.path);
    const bytes = await readIfPresent(file);
    if (bytes !== undefined && sha256Hex(bytes) === row.sha256) return bytes;
    await this.rollForward(file, row.sha256);
    return readIfPresent(file);
  }

  private async rollForward(finalFile: string, sha256: string): Promise<boolean> {
    const pending = pendingFile(finalFile, sha256);
    if (!(await fileExists(pending))) return false;
    await fs.rename(pending, finalFile);
    await fsyncPath(path.dirname(finalFile), 'r');
    return true;
  }

  async reconcile(runId: string, indexed: readonly ArtifactRow[]): Promise<string[]> {
    const dir = this.paths.artifactsDir(runId);
    const rows = new Map(indexed.map((row) => [this.paths.artifactFile(runId, row.path), row.sha256]));
    const rolled: string[] = [];
    for (const [file, sha256] of rows) {
      if (await this.rollForward(file, sha256))
        rolled.push(path.relative(dir, file).split(path.sep).join('/'));
    }
    // Whatever is still pending was never indexed: a write that crashed before its transaction.
    for (const pending of await pendingFiles(dir)) await fs.rm(pending, { force: true });
    return rolled;
  }
}

/** Bytes in the database row itself (PostgreSQL: every replica reads them; nothing is pending). */
class ArtifactRows implements ArtifactBytes {
  constructor(private readonly store: LaunchStore) {}

  save(_runId: string, _name: string, _sha256: string, _bytes: Uint8Array, index: () => Promise<void>) {
    return index();
  }

  load(runId: string, row: ArtifactRow): Promise<Uint8Array | undefined> {
    return this.store.artifactBytes(runId, row.name);
  }

  async reconcile(): Promise<string[]> {
    return [];
  }
}

async function readIfPresent(file: string): Promise<Uint8Array | undefined> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function pendingFiles(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await fs.readdir(dir, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries.filter((entry) => entry.endsWith(PENDING_SUFFIX)).map((entry) => path.join(dir, entry));
}

/**
 * The artifacts of runs: indexed (name, sha256, size, type, worker) by the store, the bytes where the store
 * says (files beside SQLite, rows in PostgreSQL). Reads check the bytes against the indexed sha256.
 */
export class ArtifactRepository {
  private readonly bytes: ArtifactBytes;

  constructor(
    private readonly store: LaunchStore,
    paths: RunPaths,
  ) {
    this.bytes = store.sharedByReplicas ? new ArtifactRows(store) : new ArtifactFiles(paths);
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
    assertArtifactName(name);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const sha256 = sha256Hex(bytes);
    const entry = {
      runId,
      name,
      path: name,
      sha256,
      size: bytes.byteLength,
      contentType: contentTypeFor(name, content, options.contentType),
      worker,
    };
    await this.bytes.save(runId, name, sha256, bytes, async () => {
      await this.store.append(runId, options.token, artifactRecorded(entry, bytes));
    });
    return { name, sha256 };
  }

  list(runId: string): Promise<ArtifactRow[]> {
    return this.store.artifacts(runId);
  }

  /** The indexed bytes, verified against their sha256; undefined when the run has no such artifact. */
  async read(runId: string, name: string): Promise<ArtifactContent | undefined> {
    // The name is looked up in the index first: a name that is not indexed is never turned into a file path.
    assertArtifactName(name);
    const row = await this.store.artifact(runId, name);
    if (row === undefined) return undefined;
    const bytes = await this.bytes.load(runId, row);
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

  /**
   * After a crash: completes the renames of indexed writes and removes pending files that never made it
   * into the index. Returns the names rolled forward.
   */
  async reconcile(runId: string): Promise<string[]> {
    return this.bytes.reconcile(runId, await this.list(runId));
  }
}
