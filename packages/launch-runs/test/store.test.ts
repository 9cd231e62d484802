import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchDb, type LaunchDb } from '../src/db/drizzle.js';
import { openLaunchDatabase, type LaunchDatabase } from '../src/db/open.js';
import { artifacts, events } from '../src/db/schema.js';
import { newLeaseToken, retireLeaseToken } from '../src/runs/lease.js';
import { artifactNameProblem } from '../src/store/artifact-names.js';
import { ArtifactRepository } from '../src/store/artifact-store.js';
import { canonicalJson, sha256Hex } from '../src/canonical-json.js';
import { verifyEventChain } from '../src/store/event-chain.js';
import { listEvents } from '../src/store/event-log.js';
import { RunPaths } from '../src/store/run-paths.js';
import { RunStore } from '../src/store/run-store.js';
import { tempDir } from './support/harness.js';

let dir: string;
let database: LaunchDatabase;
let db: LaunchDb;
let store: RunStore;
let repo: ArtifactRepository;
let paths: RunPaths;
const RUN = 'r_2026-01-21T10-00-00Z_abcd1234';

function insertRun(runId = RUN, key?: string, hash = 'h1', token = newLeaseToken()) {
  return store.insert({
    runId,
    owner: 'local:test',
    productSlug: 'p',
    config: '{}',
    configHash: hash,
    idempotencyKey: key,
    sectionStates: { docs: 'NOT_STARTED' },
    leaseOwner: token,
    leaseMs: 30_000,
  });
}

beforeEach(() => {
  dir = tempDir('store');
  database = openLaunchDatabase(dir);
  db = launchDb(database.sqlite);
  store = new RunStore(db, () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) }));
  paths = new RunPaths(dir);
  repo = new ArtifactRepository(store, paths);
});
afterEach(() => {
  database.sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('canonical JSON', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[{"x":2,"y":1}]},"b":1}',
    );
    expect(sha256Hex(canonicalJson({ a: 1, b: 2 }))).toBe(sha256Hex(canonicalJson({ b: 2, a: 1 })));
  });
});

describe('runs and the event chain', () => {
  it('a state change updates the row and appends its event in one transaction; the chain verifies', () => {
    const token = newLeaseToken();
    insertRun(RUN, undefined, 'h1', token);
    store.transition(RUN, 'CREATED', 'CLONED_INPUTS', { token, patch: { sourceSha: 'abc' } });
    expect(store.get(RUN)).toMatchObject({ state: 'CLONED_INPUTS', sourceSha: 'abc' });
    const list = listEvents(db, RUN);
    expect(list.map((e) => e.type)).toEqual(['RUN_CREATED', 'STATE_CHANGED']);
    expect(list[1]).toMatchObject({
      seq: 2,
      prev_hash: list[0]?.event_hash,
      trace_id: 'a'.repeat(32),
      span_id: 'b'.repeat(16),
    });
    expect(verifyEventChain(list)).toEqual({ ok: true, count: 2 });
    retireLeaseToken(token);
  });

  it('refuses an illegal transition and changes nothing', () => {
    const token = newLeaseToken();
    insertRun(RUN, undefined, 'h1', token);
    expect(() => store.transition(RUN, 'CREATED', 'READY_FOR_PR', { token })).toThrow(
      'Illegal run state transition',
    );
    expect(store.get(RUN)?.state).toBe('CREATED');
    expect(listEvents(db, RUN)).toHaveLength(1);
    retireLeaseToken(token);
  });

  it('detects a tampered, reordered or deleted event', () => {
    const token = newLeaseToken();
    insertRun(RUN, undefined, 'h1', token);
    store.transition(RUN, 'CREATED', 'CLONED_INPUTS', { token });
    store.transition(RUN, 'CLONED_INPUTS', 'INGESTED', { token });
    const list = listEvents(db, RUN);
    expect(verifyEventChain(list).ok).toBe(true);
    expect(verifyEventChain([list[0]!, list[2]!])).toMatchObject({
      ok: false,
      broken_at: { reason: 'sequence' },
    });
    const edited = list.map((e) => (e.seq === 2 ? { ...e, ts: '2000-01-01T00:00:00.000Z' } : e));
    expect(verifyEventChain(edited)).toMatchObject({
      ok: false,
      broken_at: { seq: 2, reason: 'event_hash' },
    });
    const relinked = list.map((e) => (e.seq === 3 ? { ...e, prev_hash: list[0]!.event_hash } : e));
    expect(verifyEventChain(relinked)).toMatchObject({
      ok: false,
      broken_at: { seq: 3, reason: 'prev_hash' },
    });
    // The database refuses a second event with the same sequence number (no forked chain).
    const first = db.select().from(events).all()[1]!;
    expect(() =>
      db
        .insert(events)
        .values({ ...first, seq: undefined, eventId: 'dup' })
        .run(),
    ).toThrow(/UNIQUE/);
    retireLeaseToken(token);
  });

  it('a transition without the lease is refused', () => {
    insertRun();
    const other = newLeaseToken();
    expect(() => store.transition(RUN, 'CREATED', 'CLONED_INPUTS', { token: other })).toThrow(
      'Lost the execution lease',
    );
    retireLeaseToken(other);
  });

  it('runs started within one millisecond list newest first in the order they were started', () => {
    const frozen = new RunStore(
      db,
      () => undefined,
      () => Date.parse('2026-01-21T10:00:00.000Z'),
    );
    // Run ids sort the other way round from their start order, so a tie broken by run_id would show.
    const ids = ['r_2026-01-21T10-00-00Z_ffff0003', 'r_2026-01-21T10-00-00Z_bbbb0002', RUN];
    for (const runId of ids) {
      frozen.insert({
        runId,
        owner: 'local:test',
        productSlug: 'p',
        config: '{}',
        configHash: runId,
        idempotencyKey: undefined,
        sectionStates: { docs: 'NOT_STARTED' },
        leaseOwner: newLeaseToken(),
        leaseMs: 30_000,
      });
    }
    const listed = frozen.list({ limit: 10 });
    expect(listed.map((row) => row.runId)).toEqual([...ids].reverse());
    expect(listed.map((row) => row.createdAt)).toEqual([
      '2026-01-21T10:00:00.002Z',
      '2026-01-21T10:00:00.001Z',
      '2026-01-21T10:00:00.000Z',
    ]);
  });

  it('the unique index keeps one run per idempotency key', () => {
    const first = insertRun(RUN, 'k');
    const second = insertRun('r_2026-01-21T10-00-01Z_00000001', 'k');
    expect(first.created).toBe(true);
    expect(second).toMatchObject({ created: false, row: { runId: RUN } });
  });

  it('a lease held by a live executor is busy; a dead one (token not alive, or expired) can be taken', () => {
    const holder = newLeaseToken();
    insertRun(RUN, undefined, 'h1', holder);
    const other = newLeaseToken();
    expect(store.acquireLease(RUN, other, 30_000).busy).toBe(true);
    retireLeaseToken(holder); // the holder is gone (same process: not alive any more)
    expect(store.acquireLease(RUN, other, 30_000)).toMatchObject({ busy: false, row: { leaseOwner: other } });
    store.releaseLease(RUN, other);
    expect(store.get(RUN)?.leaseOwner).toBeNull();
    retireLeaseToken(other);
  });
});

describe('artifacts', () => {
  const signal = new AbortController().signal;

  it('writes atomically, indexes name/sha256/size/type/worker and emits ARTIFACT_WRITTEN', async () => {
    const token = newLeaseToken();
    insertRun(RUN, undefined, 'h1', token);
    const writer = repo.writer(RUN, 'W2', { token, signal });
    const result = await writer.write('drafts/docs/index.md', '# Hello\n');
    expect(result).toEqual({ name: 'drafts/docs/index.md', sha256: sha256Hex('# Hello\n') });
    expect(Buffer.from((await writer.read('drafts/docs/index.md')) ?? []).toString()).toBe('# Hello\n');
    expect(await writer.read('missing.md')).toBeUndefined();
    const rows = db.select().from(artifacts).all();
    expect(rows).toEqual([
      expect.objectContaining({
        name: 'drafts/docs/index.md',
        size: 8,
        contentType: 'text/markdown',
        worker: 'W2',
      }),
    ]);
    expect(fs.readFileSync(path.join(paths.artifactsDir(RUN), 'drafts', 'docs', 'index.md'), 'utf8')).toBe(
      '# Hello\n',
    );
    await writer.write('drafts/docs/index.md', '# Hello again\n');
    expect(db.select().from(artifacts).all()).toHaveLength(1);
    const written = listEvents(db, RUN).filter((e) => e.type === 'ARTIFACT_WRITTEN');
    expect(written.map((e) => e.payload.sha256)).toEqual([
      sha256Hex('# Hello\n'),
      sha256Hex('# Hello again\n'),
    ]);
    expect(fs.readdirSync(path.join(paths.artifactsDir(RUN), 'drafts', 'docs'))).toEqual(['index.md']);
    retireLeaseToken(token);
  });

  it('refuses writes without the lease and after abort, leaving nothing behind', async () => {
    const token = newLeaseToken();
    insertRun(RUN, undefined, 'h1', token);
    const stranger = newLeaseToken();
    await expect(repo.writer(RUN, 'W1', { token: stranger, signal }).write('a.json', '{}')).rejects.toThrow(
      'Lost the execution lease',
    );
    const aborted = AbortSignal.abort('cancelled');
    await expect(repo.writer(RUN, 'W1', { token, signal: aborted }).write('a.json', '{}')).rejects.toThrow(
      'cancelled',
    );
    expect(repo.list(RUN)).toEqual([]);
    expect(fs.existsSync(path.join(paths.artifactsDir(RUN), 'a.json'))).toBe(false);
    expect(fs.readdirSync(paths.artifactsDir(RUN))).toEqual([]);
    retireLeaseToken(token);
    retireLeaseToken(stranger);
  });

  it('rolls an indexed write forward after a crash between commit and rename, and drops unindexed pending bytes', async () => {
    const token = newLeaseToken();
    insertRun(RUN, undefined, 'h1', token);
    const writer = repo.writer(RUN, 'W4', { token, signal });
    await writer.write('page_plan.json', '{"v":1}');
    // Simulate the crash window: the index says v2, the v2 bytes are still pending, the file is v1.
    const finalFile = path.join(paths.artifactsDir(RUN), 'page_plan.json');
    const v2 = '{"v":2}';
    fs.writeFileSync(`${finalFile}.${sha256Hex(v2)}.pending`, v2);
    db.update(artifacts)
      .set({ sha256: sha256Hex(v2), size: 7 })
      .run();
    fs.writeFileSync(`${finalFile}.${sha256Hex('{"v":3}')}.pending`, '{"v":3}');
    const read = await repo.read(RUN, 'page_plan.json');
    expect(Buffer.from(read?.bytes ?? []).toString()).toBe(v2);
    expect(await repo.reconcile(RUN)).toEqual([]);
    expect(fs.readdirSync(paths.artifactsDir(RUN))).toEqual(['page_plan.json']);
    // A corrupted file without pending bytes is reported, never served.
    fs.writeFileSync(finalFile, 'garbage');
    await expect(repo.read(RUN, 'page_plan.json')).rejects.toThrow('does not match its recorded sha256');
    retireLeaseToken(token);
  });

  it.each([
    ['page_plan.json', undefined],
    ['drafts/docs/getting-started.md', undefined],
    ['fix_iss_0123abcd.json', undefined],
    ['../x', 'must not contain'],
    ['a/../../x', 'must not contain'],
    ['./x', 'must not contain'],
    ['/etc/passwd', 'relative'],
    ['a\\b', 'may only use'],
    ['.env', 'may only use'],
    ['a//b', 'may only use'],
    ['x.json.pending', '.pending'],
    ['', '1..255'],
  ])('artifact name %j → %s', (name, problem) => {
    const found = artifactNameProblem(name);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});
