import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  callTool,
  clientFor,
  readWhenWritten,
  type ProtocolEra,
  type ToolAnswer,
} from '@switchyard/server-kit/testing';
import type { PausePoint } from './pausing-pipeline.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixture = path.join(packageDir, 'test', 'fixtures', 'server.ts');

export interface ChildServer {
  pid: number;
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  /** SIGKILL: no shutdown, no cleanup, exactly like a crash. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

/** A launch-runs server in its own process (node + tsx over the sources), spoken to over stdio. */
export async function startChildServer(options: {
  dataDir: string;
  pipeline: 'fake' | 'real';
  pause?: PausePoint;
  env?: Record<string, string>;
  /**
   * The protocol era the client speaks; the 2025 handshake by default: the SDK's 2026-07-28 stdio client
   * first probes a sibling process, which would open the same data directory (and sweep its runs) too.
   */
  era?: ProtocolEra;
}): Promise<ChildServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', fixture],
    cwd: packageDir,
    env: {
      ...(process.env as Record<string, string>),
      SWITCHYARD_DATA_DIR: options.dataDir,
      SWITCHYARD_LOG_LEVEL: 'error',
      LAUNCH_TEST_PIPELINE: options.pipeline,
      // Test repositories live in the OS temp folder (the server's default root is its data directory).
      LAUNCH_REPO_ROOTS: os.tmpdir(),
      ...(options.pause ? { LAUNCH_TEST_PAUSE: JSON.stringify(options.pause) } : {}),
      ...options.env,
    },
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = clientFor(options.era ?? 'legacy', 'launch-child-test');
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`child server did not start: ${String(error)}\n${stderr.join('')}`);
  }
  const pid = transport.pid;
  if (pid === null) throw new Error('child server has no pid');
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    transport.onclose = () => {
      exited = true;
      resolve();
    };
  });
  return {
    pid,
    call: (name, args) => callTool(client, name, args, { timeout: 120_000 }),
    async kill() {
      if (!exited) process.kill(pid, 'SIGKILL');
      await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 5000))]);
      await client.close().catch(() => undefined);
    },
    async close() {
      await client.close();
      await exit;
    },
  };
}

/** The text of `file` once a child server has written it (the pausing pipeline's marker). */
export function waitForFile(file: string): Promise<string> {
  const written = () => {
    const text = fs.readFileSync(file, 'utf8');
    if (text === '') throw new Error(`${file} is empty`);
    return text;
  };
  // Under the tests' 30 s, so that a marker never written fails by name rather than by the test's timeout.
  return readWhenWritten(written, {
    gaveUp: `${file} was not written in 25 s`,
    timeoutMs: 25_000,
    intervalMs: 20,
  });
}
