import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DUMMY_KEYS, REPO_ROOT, cleanEnv, requireBuiltBin, spawnHttpServer, tempDir } from './helpers.js';

// Node 24 changed what native addons built on the raw node::ObjectWrap may do at exit: better-sqlite3 <= 12
// aborted there (exit 134) in most starts. Each bin is started repeatedly on the Node running this test, made
// to use its database, and must exit normally every time.
const STARTS = 10;

const BINS = {
  switchyard: {
    path: () => requireBuiltBin(),
    call: { name: 'get_or_create_journey', arguments: {} },
  },
  'switchyard-transit': {
    path: () => path.join(REPO_ROOT, 'packages', 'transit', 'bin', 'switchyard-transit.js'),
    call: {
      name: 'save_user_variable',
      arguments: { key: 'home', value: { type: 'location', lat: 60.1699, lon: 24.9384 } },
    },
  },
  'switchyard-journey': {
    path: () => path.join(REPO_ROOT, 'packages', 'journey-continuity', 'bin', 'switchyard-journey.js'),
    call: { name: 'get_or_create_journey', arguments: {} },
  },
  'switchyard-launch': {
    path: () => path.join(REPO_ROOT, 'packages', 'launch-runs', 'bin', 'switchyard-launch.js'),
    call: { name: 'launch_list_runs', arguments: {} },
  },
} as const;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  answers: { id?: number; result?: { isError?: boolean } }[];
  stderr: string;
}

/** One stdio session in raw JSON-RPC: initialize, one tool call that touches SQLite, then end of input. */
function oneStdioSession(bin: string, call: { name: string; arguments: object }): Promise<Exit> {
  const child = spawn(process.execPath, [bin], {
    env: cleanEnv({ ...DUMMY_KEYS, SWITCHYARD_DATA_DIR: tempDir('switchyard-node-runtime-') }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const answers: Exit['answers'] = [];
  const send = (message: object): void => {
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  };
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    let newline = stdout.indexOf('\n');
    while (newline >= 0) {
      const answer = JSON.parse(stdout.slice(0, newline)) as Exit['answers'][number];
      stdout = stdout.slice(newline + 1);
      newline = stdout.indexOf('\n');
      if (answer.id === undefined) continue;
      answers.push(answer);
      if (answer.id === 1) {
        send({ method: 'notifications/initialized' });
        send({ id: 2, method: 'tools/call', params: call });
      } else if (answer.id === 2) {
        child.stdin.end();
      }
    }
  });
  send({
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'runtime', version: '0' },
    },
  });
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, answers, stderr })),
  );
}

describe(`the bins on Node ${process.versions.node}`, () => {
  it.each(Object.entries(BINS))(
    `%s answers over stdio and exits normally in ${STARTS} of ${STARTS} starts`,
    async (_name, bin) => {
      for (let start = 0; start < STARTS; start += 1) {
        const exit = await oneStdioSession(bin.path(), bin.call);
        expect({ start, code: exit.code, signal: exit.signal }, exit.stderr).toEqual({
          start,
          code: 0,
          signal: null,
        });
        expect(exit.answers.map((answer) => answer.id)).toEqual([1, 2]);
        expect(exit.answers[1]?.result?.isError, exit.stderr).not.toBe(true);
      }
    },
  );

  it(`switchyard over HTTP stops with exit code 0 on SIGTERM in ${STARTS} of ${STARTS} starts`, async () => {
    for (let start = 0; start < STARTS; start += 1) {
      const server = await spawnHttpServer({ ...DUMMY_KEYS, SWITCHYARD_DATA_DIR: tempDir() });
      const health = await fetch(new URL('/healthz', server.url));
      expect(health.status).toBe(200);
      expect({ start, code: await server.stop() }, server.stderr()).toEqual({ start, code: 0 });
    }
  });
});
