import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME, JOURNEY_TOOL_NAMES } from '../src/index.js';
import { tempDataDir } from './helpers.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = ['--import', 'tsx', path.join(packageDir, 'src', 'bin.ts')];

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, SWITCHYARD_LOG_LEVEL: 'error', ...extra };
}

describe('switchyard-journey (the standalone bin)', () => {
  it.each(['modern', 'legacy'] as const)(
    'serves the journey tools over stdio (%s era) and keeps data in SWITCHYARD_DATA_DIR',
    async (era) => {
      const dataDir = tempDataDir();
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: bin,
        cwd: packageDir,
        env: cleanEnv({ SWITCHYARD_DATA_DIR: dataDir }),
        stderr: 'pipe',
      });
      const client = clientFor(era, 'bin-test');
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual([...JOURNEY_TOOL_NAMES].sort());
        const result = await client.callTool({ name: 'get_or_create_journey', arguments: {} });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ is_new: true, session_count: 0 });
        expect(fs.existsSync(path.join(dataDir, DATABASE_FILE_NAME))).toBe(true);
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it('fails fast naming a bad variable or flag', () => {
    const run = (args: string[], env: Record<string, string>) =>
      spawnSync(process.execPath, [...bin, ...args], {
        cwd: packageDir,
        env: cleanEnv(env),
        encoding: 'utf8',
      });
    const badEnv = run([], { SWITCHYARD_DATA_DIR: tempDataDir(), JOURNEY_MAX_DOCUMENT_BYTES: 'lots' });
    expect(badEnv.status).toBe(1);
    expect(badEnv.stderr).toContain('JOURNEY_MAX_DOCUMENT_BYTES: must be a whole number');
    const badPort = run(['--http', '--port', 'x'], { SWITCHYARD_DATA_DIR: tempDataDir() });
    expect(badPort.status).toBe(1);
    expect(badPort.stderr).toContain('--port');
    const help = run(['--help'], {});
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: switchyard-journey');
  }, 60_000);
});
