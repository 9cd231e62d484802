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
const result = spawnSync(
  process.execPath,
  [
    vitest,
    'run',
    '--reporter=default',
    '--reporter=./scripts/summary-reporter.mjs',
    ...config,
    ...args.filter((arg) => arg !== '--fast'),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
