import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR, PACKAGE_DIR, tempDir } from './helpers.js';

const entry = path.join(FIXTURES_DIR, 'standalone.ts');

function runBin(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, SWITCHYARD_DATA_DIR: path.join(tempDir(), 'data'), ...env },
    encoding: 'utf8',
    input: '',
    timeout: 30_000,
  });
}

describe('runStandaloneServer', () => {
  it('serves its module over stdio', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', entry],
      cwd: PACKAGE_DIR,
      env: { ...getDefaultEnvironment(), SWITCHYARD_DATA_DIR: path.join(tempDir(), 'data') },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'standalone-test', version: '0.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo_text');
    await client.close();
  });

  it('prints usage for --help and exits 0', () => {
    const result = runBin(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('usage: fixture-standalone [--http [--host HOST] [--port PORT]]');
  });

  it('exits 1 naming the problem when a flag is wrong or the module cannot be configured', () => {
    const badPort = runBin(['--http', '--port', 'eighty']);
    expect(badPort.status).toBe(1);
    expect(badPort.stderr).toContain(
      'fixture-standalone: --port must be a port number from 0 to 65535 (got "eighty")',
    );

    const unknownFlag = runBin(['--verbose']);
    expect(unknownFlag.status).toBe(1);
    expect(unknownFlag.stderr).toContain('usage: fixture-standalone');

    const missing = runBin([], { FIXTURE_FAIL_CONFIG: '1' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('fixture-standalone: FIXTURE_KEY is required');
  });
});
