// Launch runs as MCP Tasks (issue #36) end to end: the built `switchyard` bin, a task-aware client (the Tasks
// extension declared on each request), over stdio on SQLite and over HTTP on two replicas sharing PostgreSQL.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { exampleRunConfig, materializeExampleRepos } from '@switchyard/launch-runs';
import { overHttp, overStdio, TaskRequester } from '@switchyard/server-kit/testing';
import { startTestPostgres, type TestPostgres } from '@switchyard/test-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanEnv,
  requireBuiltBin,
  runBin,
  spawnHttpServer,
  tempDir,
  type SpawnedServer,
} from './helpers.js';
import { launchTaskEnv, taskAnswerOf } from './launch-task-helpers.js';

type Json = Record<string, unknown>;

const reposDir = tempDir('switchyard-task-repos-');
let runConfig: Json;

beforeAll(async () => {
  runConfig = exampleRunConfig(await materializeExampleRepos(path.join(reposDir, 'example')));
}, 60_000);

describe('launch runs as tasks over stdio (SQLite)', () => {
  let child: ChildProcess;
  let requester: TaskRequester;
  let plain: TaskRequester;

  beforeAll(() => {
    child = spawn(process.execPath, [requireBuiltBin()], {
      env: cleanEnv(launchTaskEnv(reposDir, { SWITCHYARD_DATA_DIR: tempDir('switchyard-task-stdio-') })),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const send = overStdio(child.stdin!, child.stdout!);
    requester = new TaskRequester(send);
    plain = new TaskRequester(send, {});
  });
  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('answers launch_start_run with a durable task that completes at the run stable state', async () => {
    const created = await requester.callTool('launch_start_run', { run_config: runConfig });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const task = await requester.untilSettled(String(created.taskId));
    const answer = taskAnswerOf(task);
    expect(answer).toMatchObject({ ok: true, run_id: expect.any(String) });
    expect(['VALIDATING', 'READY_FOR_PR']).toContain(answer.state);
    // The task's answer is the run's own state, as launch_get_status reads it.
    const status = await plain.callTool('launch_get_status', { run_id: answer.run_id });
    expect(((status.structuredContent as Json).status as Json).state).toBe(answer.state);
  }, 120_000);

  it('gives a client without the extension the plain answer, as before Tasks', async () => {
    const result = await plain.callTool('launch_start_run', { run_config: runConfig });
    expect(result).not.toHaveProperty('taskId');
    expect(result.resultType).not.toBe('task');
    expect(Object.keys(result.structuredContent as Json).sort()).toEqual(['ok', 'run_id', 'state']);
  });
});

describe('launch runs as tasks on two replicas sharing PostgreSQL', () => {
  let postgres: TestPostgres;
  let database: pg.Pool;
  const replicas: SpawnedServer[] = [];
  let env: Record<string, string>;

  const requesterOn = (replica: SpawnedServer) => new TaskRequester(overHttp(replica.url));

  beforeAll(async () => {
    postgres = await startTestPostgres();
    env = launchTaskEnv(reposDir, {
      SWITCHYARD_DATABASE_URL: await postgres.createDatabase(),
      // A dead replica's run is taken over once its lease expires: short here, so the test is quick.
      LAUNCH_LEASE_MS: '1500',
      LAUNCH_TAKEOVER_MS: '200',
    });
    const migrated = await runBin(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    database = new pg.Pool({ connectionString: env.SWITCHYARD_DATABASE_URL, max: 2 });
    for (let n = 0; n < 2; n += 1)
      replicas.push(
        await spawnHttpServer({ ...env, SWITCHYARD_DATA_DIR: tempDir('switchyard-task-replica-') }),
      );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await database?.end();
    await postgres?.stop();
  });

  it('follows a task made on one replica to its end on the other', async () => {
    const [first, second] = replicas as [SpawnedServer, SpawnedServer];
    const created = await requesterOn(first).callTool('launch_start_run', { run_config: runConfig });
    expect(created).toMatchObject({ resultType: 'task' });
    const answer = taskAnswerOf(await requesterOn(second).untilSettled(String(created.taskId)));
    expect(['VALIDATING', 'READY_FOR_PR']).toContain(answer.state);
  }, 120_000);

  it('cancels the run from the other replica with tasks/cancel, as launch_cancel does', async () => {
    const [first, second] = replicas as [SpawnedServer, SpawnedServer];
    const created = await requesterOn(first).callTool('launch_start_run', { run_config: runConfig });
    const other = requesterOn(second);
    expect(await other.request('tasks/cancel', { taskId: created.taskId })).toMatchObject({
      resultType: 'complete',
    });
    // The run takes seconds (clones, builds): the cancel lands while it works.
    expect(await other.untilSettled(String(created.taskId))).toMatchObject({ status: 'cancelled' });
    const { rows } = await database.query<{ state: string }>(
      'SELECT r.state FROM runs r JOIN tasks t ON t.run_id = r.run_id WHERE t.task_id = $1',
      [created.taskId],
    );
    expect(rows[0]?.state).toBe('CANCELLED');
  }, 120_000);

  it('keeps a task going on the replica that takes its run over after a SIGKILL, to the same answer', async () => {
    const [first, second] = replicas as [SpawnedServer, SpawnedServer];
    const uninterrupted = taskAnswerOf(
      await requesterOn(second).untilSettled(
        String((await requesterOn(second).callTool('launch_start_run', { run_config: runConfig })).taskId),
      ),
    );
    const created = await requesterOn(first).callTool('launch_start_run', { run_config: runConfig });
    // Killed while a worker of the run holds the lease there.
    for (;;) {
      const { rows } = await database.query<{ active_worker: string | null; lease_owner: string | null }>(
        'SELECT r.active_worker, r.lease_owner FROM runs r JOIN tasks t ON t.run_id = r.run_id WHERE t.task_id = $1',
        [created.taskId],
      );
      const row = rows[0];
      if (row?.active_worker != null && row.lease_owner?.split('|')[1] === String(first.child.pid)) break;
      expect(row?.lease_owner, 'the run came to rest before it could be interrupted').not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    first.child.kill('SIGKILL');
    const answer = taskAnswerOf(await requesterOn(second).untilSettled(String(created.taskId), 90_000));
    expect(answer).toEqual({ ...uninterrupted, run_id: answer.run_id });
    expect(answer.run_id).not.toBe(uninterrupted.run_id);
  }, 180_000);
});
