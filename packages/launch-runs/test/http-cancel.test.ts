import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { clientFor, readWhenWritten, type ProtocolEra } from '@switchyard/server-kit/testing';
import { DIALECTS, lazyTestPostgres, type Dialect } from '@switchyard/test-postgres';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitForFile } from './support/child-server.js';
import { atRest, runConfig, tempDir, type Payload } from './support/harness.js';

/**
 * A launch_fix_next cancelled over stateless HTTP (issue #34, section 6). A 2025-era client cancels with a
 * `notifications/cancelled` POST of its own, which a load balancer may send to another process than the one
 * running the fix (and which, even on the same process, reaches another server instance): the cancel reaches
 * the run through the store (the lease marks its call's request id), so the fix stops before it is written
 * and does not count, as it does when the cancel reaches the call directly. A 2026-era client closes the
 * call's own stream instead. Two server processes on one database; the fix is held at the start of W8 (the
 * fake pipeline), until its signal aborts.
 */
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = path.join(packageDir, 'test', 'fixtures', 'server.ts');
const postgres = lazyTestPostgres();
const children: ChildProcess[] = [];
const clients: Client[] = [];
const dirs: string[] = [];

afterAll(() => postgres.stop());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  for (const child of children.splice(0)) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The fixture server over HTTP in its own process; its URL. */
async function httpChild(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    cwd: packageDir,
    env: {
      ...process.env,
      LAUNCH_TEST_HTTP: '1',
      LAUNCH_TEST_PIPELINE: 'fake',
      // The fake pipeline's repositories are in the OS temp folder (the default root is the data directory).
      LAUNCH_REPO_ROOTS: os.tmpdir(),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return readWhenWritten(
    () => {
      const url = /LAUNCH_TEST_URL (\S+)/.exec(stderr)?.[1];
      if (url === undefined) throw new Error(`no URL yet: ${stderr}`);
      return url;
    },
    { gaveUp: 'the child server printed no URL in 60 s', timeoutMs: 60_000, intervalMs: 50 },
  );
}

/** A client of `era` on `url` whose `notifications/cancelled` POSTs go to `cancelUrl` (another process). */
async function connect(era: ProtocolEra, url: string, cancelUrl: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: (input, init) => {
      const cancel = typeof init?.body === 'string' && init.body.includes('"notifications/cancelled"');
      return fetch(cancel ? cancelUrl : input, init);
    },
  });
  const client = clientFor(era, 'http-cancel-test');
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Payload> {
  return (await client.callTool({ name, arguments: args })).structuredContent as Payload;
}

type Status = Record<string, unknown> & { state: string; details: Record<string, unknown> };

/** The run's status once `done` holds, failing after 20 s (a fix that was never stopped stays busy). */
async function statusWhen(client: Client, runId: string, done: (status: Status) => boolean): Promise<Status> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = (await call(client, 'launch_get_status', { run_id: runId })).status as Status;
    if (done(status)) return status;
    if (Date.now() > deadline) throw new Error(`not within 20 s: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function storage(dialect: Dialect, dataDir: string): Promise<Record<string, string>> {
  const shared = { SWITCHYARD_DATA_DIR: dataDir, LAUNCH_LEASE_MS: '2000' };
  if (dialect === 'sqlite') return shared;
  return {
    ...shared,
    SWITCHYARD_DATABASE_URL: await postgres.createDatabase(),
    SWITCHYARD_MIGRATE_ON_START: '1',
  };
}

describe.each(DIALECTS)(
  'a cancelled launch_fix_next over stateless HTTP (%s)',
  { timeout: 180_000 },
  (dialect) => {
    it.each<ProtocolEra>(['legacy', 'modern'])(
      "a %s-era client's cancel stops the fix before it is written: nothing counts",
      async (era) => {
        const dataDir = tempDir('http-cancel');
        dirs.push(dataDir);
        const marker = path.join(dataDir, 'w8-reached');
        // SQLite: both processes on one data directory; PostgreSQL: one database (the second migrates nothing).
        const env = await storage(dialect, dataDir);
        const running = await httpChild({
          ...env,
          LAUNCH_TEST_PAUSE: JSON.stringify({ worker: 'W8', marker }),
        });
        const other = await httpChild(env);
        const client = await connect(era, running, other);

        const started = await call(client, 'launch_start_run', { run_config: runConfig() });
        const runId = started.run_id as string;
        const before = await statusWhen(client, runId, atRest);
        expect(before).toMatchObject({ state: 'VALIDATING', details: { fix_attempts: 0 } });

        const controller = new AbortController();
        const fix = client.callTool(
          { name: 'launch_fix_next', arguments: { run_id: runId } },
          { signal: controller.signal },
        );
        await waitForFile(marker);
        controller.abort('cancelled by the user');
        await expect(fix).rejects.toThrow();

        // The fix was held before its commit point: back to VALIDATING, the attempt not counted.
        const after = await statusWhen(client, runId, (status) => status.details.busy === false);
        expect(after).toMatchObject({
          state: 'VALIDATING',
          details: { fix_attempts: 0, active_worker: null, last_report_ok: false },
        });
        const events = (
          await client.readResource({ uri: `launch://runs/${runId}/events.ndjson` })
        ).contents.map((part) => ('text' in part ? part.text : ''));
        const last = JSON.parse(events.join('').trim().split('\n').at(-1)!) as { payload: unknown };
        expect(last.payload).toMatchObject({ from: 'FIXING', to: 'VALIDATING', reason: 'fix_not_applied' });
      },
    );
  },
);
