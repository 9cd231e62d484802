import fs from 'node:fs';
import path from 'node:path';
import { LaunchErrorPayloadSchema } from '@switchyard/contracts/launch-runs';
import { contractErrorOf, errorOf } from '@switchyard/server-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startChildServer, waitForFile, type ChildServer } from './support/child-server.js';
import { runConfig, tempDir, waitForStatus, atRest } from './support/harness.js';

const children: ChildServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) await child.kill();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function child(options: Parameters<typeof startChildServer>[0]): Promise<ChildServer> {
  const server = await startChildServer(options);
  children.push(server);
  return server;
}

// Child processes start slowly on a busy machine: these tests get more time than the default.
describe('several processes on one data directory', { timeout: 180_000 }, () => {
  it('two processes starting a run with one idempotency key at the same time get one run', async () => {
    const dataDir = tempDir('xproc');
    dirs.push(dataDir);
    const [a, b] = await Promise.all([
      child({ dataDir, pipeline: 'fake' }),
      child({ dataDir, pipeline: 'fake' }),
    ]);
    const config = runConfig({ validation_profile: 'local' });
    const calls = await Promise.all(
      [a, b, a, b].map((server) =>
        server.call('launch_start_run', { run_config: config, idempotency_key: 'shared-key' }),
      ),
    );
    expect(calls.every((answer) => answer.structured.ok === true)).toBe(true);
    expect(new Set(calls.map((answer) => answer.structured.run_id)).size).toBe(1);
    const runId = calls[0]?.structured.run_id as string;
    await waitForStatus(b, runId, atRest);
    expect((await a.call('launch_list_runs', {})).structured.runs).toHaveLength(1);
    const reused = await b.call('launch_start_run', {
      run_config: { ...config, product_name: 'Changed' },
      idempotency_key: 'shared-key',
    });
    expect(contractErrorOf(reused, LaunchErrorPayloadSchema)).toMatchObject({
      code: 'INVALID_INPUT',
      details: { reason: 'idempotency_key_reused' },
    });
  });

  it('two processes starting runs at once never exceed LAUNCH_MAX_ACTIVE_RUNS together', async () => {
    const dataDir = tempDir('xproc');
    dirs.push(dataDir);
    const env = { LAUNCH_MAX_ACTIVE_RUNS: '2' };
    const [a, b] = await Promise.all([
      child({ dataDir, pipeline: 'fake', env }),
      child({ dataDir, pipeline: 'fake', env }),
    ]);
    const calls = await Promise.all(
      [a, b, a, b, a, b].map((server) => server.call('launch_start_run', { run_config: runConfig() })),
    );
    const started = calls.filter((answer) => answer.structured.ok === true);
    expect(started).toHaveLength(2);
    for (const answer of calls.filter((call) => call.structured.ok !== true)) {
      expect(errorOf(answer, 'INVALID_INPUT').details).toMatchObject({
        reason: 'active_run_limit',
        limit: 2,
      });
    }
    for (const answer of started) await waitForStatus(a, answer.structured.run_id as string, atRest);
    expect((await b.call('launch_list_runs', {})).structured.runs).toHaveLength(2);
  });

  it('one executor per run across processes; a cancel from another process stops the work', async () => {
    const dataDir = tempDir('xproc');
    dirs.push(dataDir);
    const marker = path.join(dataDir, 'paused');
    const worker = await child({ dataDir, pipeline: 'fake', pause: { worker: 'W2', marker } });
    const other = await child({ dataDir, pipeline: 'fake' });
    const runId = (await worker.call('launch_start_run', { run_config: runConfig() })).structured
      .run_id as string;
    await waitForFile(marker);

    const status = (await other.call('launch_get_status', { run_id: runId })).structured.status as {
      state: string;
      details: Record<string, unknown>;
    };
    expect(status).toMatchObject({
      state: 'CLONED_INPUTS',
      details: { busy: true, interrupted: false, active_worker: 'W2' },
    });
    const busy = errorOf(await other.call('launch_resume', { run_id: runId }), 'ILLEGAL_STATE');
    expect(busy).toMatchObject({
      retryable: true,
      details: { reason: 'run_busy', current_state: 'CLONED_INPUTS' },
    });

    expect((await other.call('launch_cancel', { run_id: runId })).structured.state).toBe('CANCELLED');
    // Removed by the cancelling process: no executor there, and none may take a CANCELLED run.
    expect(fs.existsSync(path.join(dataDir, 'launch-runs', 'runs', runId, 'workspace'))).toBe(false);
    // The paused worker in the first process notices through its lease watcher and records the abort.
    const events = async () => {
      const resource = (await other.call('launch_get_status', { run_id: runId })).structured;
      return resource;
    };
    await events();
    for (;;) {
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(path.join(dataDir, 'launch-runs.sqlite'), { readonly: true });
      const row = db
        .prepare("SELECT payload FROM events WHERE run_id = ? AND type = 'WORK_ITEM_FAILED'")
        .get(runId) as { payload: string } | undefined;
      db.close();
      if (row !== undefined) {
        expect(JSON.parse(row.payload)).toMatchObject({ worker: 'W2', code: 'CANCELLED' });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(
      ((await worker.call('launch_get_status', { run_id: runId })).structured.status as { state: string })
        .state,
    ).toBe('CANCELLED');
  });
});
