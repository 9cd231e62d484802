import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) run as its CLI runs it, and its
 * results and baselines read back: shared by the test against `switchyard --http` and the one against the
 * conformance fixtures.
 */
const require = createRequire(import.meta.url);
const SUITE_BIN = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);

export type Revision = '2026-07-28' | '2025-11-25';

export interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Runs the suite's server scenarios of `revision` against `url`; exit 0 means the baseline holds exactly. */
export function runSuite(
  url: string,
  revision: Revision,
  baseline: string,
  outputDir: string,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [
      SUITE_BIN,
      'server',
      '--url',
      url,
      '--requirements',
      revision,
      '--expected-failures',
      baseline,
      '-o',
      outputDir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** The checks of each scenario, from the result folders the suite writes (`server-<scenario>-<time>`). */
export function checksByScenario(outputDir: string): Map<string, Check[]> {
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

const ENTRY = /^\s*-\s+(\S+)\s*$/;

/** A baseline's entries: whole scenarios, and single checks as `scenario:check-id`. */
export function baselineEntries(baseline: string): string[] {
  return fs
    .readFileSync(baseline, 'utf8')
    .split('\n')
    .map((line) => ENTRY.exec(line)?.[1])
    .filter((entry): entry is string => entry !== undefined);
}

/**
 * The entries no comment gives a reason for: an entry is explained by the comment right above it, or above
 * the run of entries it belongs to.
 */
export function entriesWithoutReason(baseline: string): string[] {
  const unexplained: string[] = [];
  let explained = false;
  for (const line of fs.readFileSync(baseline, 'utf8').split('\n')) {
    const entry = ENTRY.exec(line)?.[1];
    if (entry !== undefined) {
      if (!explained) unexplained.push(entry);
    } else {
      explained = /^\s*#\s*\S/.test(line);
    }
  }
  return unexplained;
}
