import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_DIR, spawnHttpServer, tempDir, type SpawnedServer } from './helpers.js';

const BASELINE = path.join(PACKAGE_DIR, 'conformance', 'baseline.yml');
const require = createRequire(import.meta.url);
const SUITE_BIN = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);

/** Scenarios every MCP server must pass, whatever its tools: none of them may be in the baseline. */
const UNIVERSAL_SCENARIOS = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'tools-list',
  'server-sse-multiple-streams',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
];

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

function runSuite(url: string, outputDir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [SUITE_BIN, 'server', '--url', url, '--expected-failures', BASELINE, '-o', outputDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** The checks of each scenario, from the result folders the suite writes (`server-<scenario>-<time>`). */
function checksByScenario(outputDir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const folder of fs.readdirSync(outputDir)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(folder)?.[1];
    if (scenario === undefined) continue;
    const checks = JSON.parse(
      fs.readFileSync(path.join(outputDir, folder, 'checks.json'), 'utf8'),
    ) as Check[];
    results.set(scenario, checks);
  }
  return results;
}

describe('official MCP conformance suite against switchyard --http', () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnHttpServer({ SWITCHYARD_DATA_DIR: tempDir() });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('passes every scenario outside the baseline, and every baseline entry still fails', async () => {
    const outputDir = tempDir('switchyard-conformance-');
    const { code, output } = await runSuite(server.url, outputDir);
    expect(code, output).toBe(0);

    const baseline = fs.readFileSync(BASELINE, 'utf8');
    const results = checksByScenario(outputDir);
    for (const scenario of UNIVERSAL_SCENARIOS) {
      expect(baseline, `${scenario} must not be excused`).not.toMatch(
        new RegExp(`^\\s*- ${scenario}\\s*$`, 'm'),
      );
      const checks = results.get(scenario);
      expect(checks, `${scenario} ran`).toBeDefined();
      const failed = (checks ?? []).filter((check) => check.status === 'FAILURE');
      expect(failed, `${scenario}: ${JSON.stringify(failed)}`).toEqual([]);
      expect((checks ?? []).some((check) => check.status === 'SUCCESS')).toBe(true);
    }
  }, 180_000);
});
