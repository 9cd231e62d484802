import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDeflate } from 'node:zlib';
import type { RunConfigInput } from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeExampleRepos } from '../src/pipeline/index.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import {
  atRest,
  startHarness,
  tempDir,
  waitForStatus,
  type Harness,
  type Payload,
} from './support/harness.js';
import { exampleConfig, git } from './support/launch-flow.js';

/**
 * A source repository that tracks a 2 GiB file (one byte past what Node can read into one buffer) and a
 * 5 MiB page: W1 lists the huge file by its size (above LAUNCH_MAX_HASH_BYTES it is not read), or hashes it
 * streamed with memory flat when the limit allows; W2/W3 skip both files (above LAUNCH_MAX_FILE_BYTES) and
 * say so in their artifacts. The run goes on as usual: never INTERNAL.
 */

const HUGE_PATH = 'docs/huge.md';
const HUGE_SIZE = 2 ** 31;
/** sha256 of 2 GiB of zero bytes. */
const HUGE_SHA256 = 'a7c744c13cc101ed66c29f672f92455547889cc586ce6d44fe76ae824958ea51';
const PAGE_PATH = 'docs/reference.md';
const PAGE_SIZE = 5 * 1024 * 1024;

/** `size` zero bytes, 16 MiB at a time (the same buffer each time: nothing grows with `size`). */
function* zeros(size: number): Generator<Buffer> {
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  for (let left = size; left > 0; left -= chunk.length) yield chunk.subarray(0, Math.min(left, chunk.length));
}

/**
 * Commits a file of `size` zero bytes without git reading one: `git add` would read and compress it (10 s
 * and more for 2 GiB), so the loose object is written here and put in the index by its id.
 */
async function commitZeros(repo: string, file: string, size: number): Promise<void> {
  const header = Buffer.from(`blob ${size}\0`);
  const id = createHash('sha1').update(header);
  for (const chunk of zeros(size)) id.update(chunk);
  const blob = id.digest('hex');
  const object = path.join(repo, '.git', 'objects', blob.slice(0, 2), blob.slice(2));
  fs.mkdirSync(path.dirname(object), { recursive: true });
  await pipeline(
    Readable.from(
      (function* () {
        yield header;
        yield* zeros(size);
      })(),
    ),
    createDeflate({ level: 1 }),
    fs.createWriteStream(object),
  );
  git(repo, 'update-index', '--add', '--cacheinfo', `100644,${blob},${file}`);
}

const dir = tempDir('large-files');
let config: RunConfigInput;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  const repos = await materializeExampleRepos(path.join(dir, 'repos'));
  await commitZeros(repos.sourceRepo, HUGE_PATH, HUGE_SIZE);
  fs.mkdirSync(path.join(repos.sourceRepo, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(repos.sourceRepo, PAGE_PATH), '# Reference\n\n' + 'x'.repeat(PAGE_SIZE) + '\n');
  git(repos.sourceRepo, 'add', PAGE_PATH);
  git(
    repos.sourceRepo,
    '-c',
    'user.name=Test',
    '-c',
    'user.email=test@switchyard.invalid',
    'commit',
    '--quiet',
    '--no-gpg-sign',
    '-m',
    'Large files',
  );
  config = exampleConfig(repos);
}, 60_000);

afterAll(async () => {
  for (const server of open.splice(0)) await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Caller = Pick<Harness, 'call'>;
type InventoryFile = { path: string; size: number; sha256: string | null; not_hashed?: string };

async function artifactJson<T>(caller: Caller, runId: string, name: string): Promise<T> {
  const payload: Payload = (await caller.call('launch_get_artifact', { run_id: runId, artifact_name: name }))
    .structured;
  return JSON.parse((payload.artifact as { content: string }).content) as T;
}

/** Starts the example run and waits for it to rest; it must reach VALIDATING like the plain example. */
async function runToRest(caller: Caller): Promise<string> {
  const started = (await caller.call('launch_start_run', { run_config: config })).structured;
  expect(started.ok, JSON.stringify(started)).toBe(true);
  const runId = started.run_id as string;
  const status = await waitForStatus(caller, runId, atRest);
  expect(status.details.error, JSON.stringify(status.details.error)).toBeUndefined();
  expect(status.state).toBe('VALIDATING');
  return runId;
}

async function sourceFile(caller: Caller, runId: string, file: string): Promise<InventoryFile | undefined> {
  const inventory = await artifactJson<{ source: { files: InventoryFile[] } }>(
    caller,
    runId,
    'repo_inventory.json',
  );
  return inventory.source.files.find((entry) => entry.path === file);
}

/** Peak resident memory of a process (Linux: VmHWM of /proc/<pid>/status), in bytes. */
function peakRss(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`no VmHWM for process ${pid}`);
  return Number(match[1]) * 1024;
}

describe('repository files of any size', () => {
  it('W1 lists a file above LAUNCH_MAX_HASH_BYTES by size; W2/W3 skip files above LAUNCH_MAX_FILE_BYTES and say so', async () => {
    const h = await startHarness();
    open.push(h);
    const runId = await runToRest(h);

    expect(await sourceFile(h, runId, HUGE_PATH)).toEqual({
      path: HUGE_PATH,
      size: HUGE_SIZE,
      sha256: null,
      not_hashed: `${HUGE_SIZE} bytes is more than LAUNCH_MAX_HASH_BYTES (1073741824 bytes)`,
    });
    expect((await sourceFile(h, runId, PAGE_PATH))?.sha256).toMatch(/^[0-9a-f]{64}$/);

    const catalog = await artifactJson<{ skipped_files?: unknown[] }>(h, runId, 'snippet_catalog.json');
    expect(catalog.skipped_files).toEqual([
      {
        path: HUGE_PATH,
        size: HUGE_SIZE,
        reason: `${HUGE_SIZE} bytes is more than LAUNCH_MAX_FILE_BYTES (4194304 bytes)`,
      },
      {
        path: PAGE_PATH,
        size: fs.statSync(path.join(dir, 'repos', 'tallyho', PAGE_PATH)).size,
        reason: expect.stringContaining('LAUNCH_MAX_FILE_BYTES (4194304 bytes)'),
      },
    ]);
  });

  it.skipIf(process.platform !== 'linux')(
    'with LAUNCH_MAX_HASH_BYTES above it, W1 hashes the 2 GiB file streamed: the server stays small',
    async () => {
      const server: ChildServer = await startChildServer({
        dataDir: path.join(dir, 'child-data'),
        pipeline: 'real',
        env: { LAUNCH_MAX_HASH_BYTES: String(2 ** 32) },
      });
      open.push(server);
      const runId = await runToRest(server);
      expect((await sourceFile(server, runId, HUGE_PATH))?.sha256).toBe(HUGE_SHA256);
      // Reading the file into memory takes at least its 2 GiB (or fails); streamed, the peak stays near the
      // server's own size (about 300 MiB here with tsx), far below half the file.
      expect(peakRss(server.pid)).toBeLessThan(HUGE_SIZE / 2);
    },
    120_000,
  );
});
