#!/usr/bin/env node
// Runs every package's tests as vitest projects, in one process, and ends with `N passed, N failed`.
// `--fast` runs vitest.fast.config.ts instead: every project but the minutes-long ones (the packaging check and
// the hardening suite); .ci/run uses it for the second run on Node 22. Any other argument goes to vitest.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = process.argv.slice(2);
const fast = args.includes('--fast');
const config = fast ? ['--config', 'vitest.fast.config.ts'] : [];
// A failing test runs once more before it counts (SWITCHYARD_TEST_RETRIES, default 1; 0 for none): with files
// running side by side, a race in a test shows up now and then. One that passes on its retry is listed by name
// at the end of the run (summary-reporter.mjs), to be fixed; one that fails twice fails the run.
const retries = process.env.SWITCHYARD_TEST_RETRIES?.trim() || '1';
if (!/^\d+$/.test(retries)) {
  console.error(`SWITCHYARD_TEST_RETRIES must be a whole number (0 for none), not "${retries}"`);
  process.exit(2);
}
const result = spawnSync(
  process.execPath,
  [
    vitest,
    'run',
    '--reporter=default',
    '--reporter=./scripts/summary-reporter.mjs',
    `--retry=${retries}`,
    ...config,
    ...args.filter((arg) => arg !== '--fast'),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
