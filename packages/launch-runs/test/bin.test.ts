import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { RunConfigSchema } from '@switchyard/contracts/launch-runs';
import { clientFor } from '@switchyard/server-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { tempDir } from './support/harness.js';
import { freePort } from '@switchyard/server-kit/testing';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(packageDir, 'src', 'bin.ts');
const TOOLS = [
  'launch_cancel',
  'launch_fix_next',
  'launch_get_artifact',
  'launch_get_status',
  'launch_list_runs',
  'launch_open_pr',
  'launch_resume',
  'launch_start_run',
  'launch_submit_draft',
  'launch_validate',
];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = tempDir('bin');
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Child processes start slowly on a busy machine: these tests get more time than the default.
describe('switchyard-launch', { timeout: 180_000 }, () => {
  it.each(['modern', 'legacy'] as const)('serves the ten tools over stdio (%s era)', async (era) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', bin],
      cwd: packageDir,
      env: {
        ...(process.env as Record<string, string>),
        SWITCHYARD_DATA_DIR: dataDir(),
        SWITCHYARD_LOG_LEVEL: 'error',
      },
      stderr: 'pipe',
    });
    const client = clientFor(era, 'bin-test');
    await client.connect(transport);
    cleanups.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const listed = await client.callTool({ name: 'launch_list_runs', arguments: {} });
    expect(listed.structuredContent).toEqual({ ok: true, runs: [], next_cursor: null });
  });

  it('serves Streamable HTTP with --http --port, behind a bearer token, in both eras', async () => {
    const port = await freePort();
    const token = 'launch-test-token-0123456789abcdef';
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', bin, '--http', '--host', '127.0.0.1', '--port', String(port)],
      {
        cwd: packageDir,
        env: {
          ...process.env,
          SWITCHYARD_DATA_DIR: dataDir(),
          SWITCHYARD_LOG_LEVEL: 'error',
          SWITCHYARD_TOKEN: token,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    );
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const connect = async (era: 'modern' | 'legacy'): Promise<Client> => {
      const client = clientFor(era, 'bin-http-test');
      await client.connect(
        new StreamableHTTPClientTransport(url, {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      cleanups.push(() => client.close());
      return client;
    };
    let modern: Client | undefined;
    for (let attempt = 0; attempt < 300 && modern === undefined; attempt += 1) {
      modern = await connect('modern').catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return undefined;
      });
    }
    if (modern === undefined) throw new Error('the HTTP server did not come up');
    for (const client of [modern, await connect('legacy')]) {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    }
    const unauthorized = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauthorized.status).toBe(401);
  });

  it('--example-repos writes the example repositories and prints a run_config that validates', async () => {
    const run = promisify(execFile);
    const target = path.join(dataDir(), 'examples');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', bin, '--example-repos', target], {
      cwd: packageDir,
    });
    const printed = JSON.parse(stdout) as {
      run_config: { source: { repo: string }; site: { repo: string } };
    };
    expect(RunConfigSchema.safeParse(printed.run_config).success).toBe(true);
    expect(fs.existsSync(path.join(printed.run_config.source.repo, '.git'))).toBe(true);
    expect(fs.existsSync(path.join(printed.run_config.site.repo, 'HEAD'))).toBe(true);
  });

  it('lists --example-repos in --help', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', bin, '--help'], {
      cwd: packageDir,
    });
    expect(stdout).toContain('       switchyard-launch --example-repos DIR\n');
    expect(stdout).toContain("--example-repos DIR writes the README walk-through's example repositories");
  });

  it('refuses a bad --port with a message naming it', async () => {
    const run = promisify(execFile);
    await expect(
      run(process.execPath, ['--import', 'tsx', bin, '--port', 'eighty'], {
        cwd: packageDir,
        env: { ...process.env, SWITCHYARD_DATA_DIR: dataDir() },
      }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--port must be a port number') });
  });
});
