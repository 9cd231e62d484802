// The standalone bin: refuses to start without its keys, and serves MCP over stdio when configured.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor } from '@switchyard/server-kit/testing';
import { startDigitransitMock, startTflMock } from '@switchyard/upstream-mocks';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = ['--import', 'tsx', path.join(root, 'src', 'bin.ts')];

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

describe('switchyard-transit', () => {
  it('exits non-zero naming TFL_API_KEY when it is missing', () => {
    const result = spawnSync(process.execPath, BIN, {
      cwd: root,
      env: { ...baseEnv(), DIGITRANSIT_SUBSCRIPTION_KEY: 'dt-key-1234' },
      encoding: 'utf8',
      input: '',
      timeout: 30_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.status).not.toBeNull();
    expect(result.stderr).toMatch(/TFL_API_KEY: is required/);
  });

  it('names the provider keys and TRANSIT_PROVIDERS in --help', () => {
    const result = spawnSync(process.execPath, [...BIN, '--help'], {
      cwd: root,
      env: baseEnv(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(0);
    for (const variable of ['TRANSIT_PROVIDERS', 'TFL_API_KEY', 'DIGITRANSIT_SUBSCRIPTION_KEY']) {
      expect(result.stdout).toContain(variable);
    }
  });

  it('exits non-zero naming the variable for a bad value', () => {
    const result = spawnSync(process.execPath, BIN, {
      cwd: root,
      env: {
        ...baseEnv(),
        TFL_API_KEY: 'k-1234',
        DIGITRANSIT_SUBSCRIPTION_KEY: 'd-1234',
        TFL_TIMEOUT_MS: 'x',
      },
      encoding: 'utf8',
      input: '',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/TFL_TIMEOUT_MS/);
  });

  it.each(['modern', 'legacy'] as const)('serves every tool over stdio (%s era)', async (era) => {
    const tfl = await startTflMock();
    const digitransit = await startDigitransitMock();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-bin-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: BIN,
      cwd: root,
      stderr: 'pipe',
      env: {
        ...baseEnv(),
        TFL_API_KEY: 'bin-tfl-key-1234',
        DIGITRANSIT_SUBSCRIPTION_KEY: 'bin-dt-key-1234',
        TFL_API_BASE_URL: tfl.url,
        DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
        DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
        SWITCHYARD_DATA_DIR: dataDir,
      },
    });
    const client = clientFor(era, 'bin-test');
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'delete_user_variable',
        'find_london_stops',
        'find_stops',
        'get_departures',
        'get_line_status',
        'get_london_arrivals',
        'get_user_variables',
        'planJourney',
        'plan_trip',
        'save_user_variable',
      ]);
      const result = await client.callTool({
        name: 'planJourney',
        arguments: { from: 'Bank', to: 'Mile End' },
      });
      expect(result.structuredContent).toMatchObject({ success: true, code: 'OK' });
      expect(fs.existsSync(path.join(dataDir, 'transit.sqlite'))).toBe(true);
    } finally {
      await client.close();
      await tfl.close();
      await digitransit.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
