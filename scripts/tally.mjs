#!/usr/bin/env node
// Sums the `passed failed` lines the summary reporter appended to the tally file (one per test run) and prints
// the total as CI's last line. Exit status of the runs is passed as the second argument: a run that stopped
// before its tests (build, typecheck, lint) counts as one failure, so the line never reads "0 failed" then.
import { readFileSync } from 'node:fs';

const [file, status = '0'] = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (const line of readFileSync(file, 'utf8').split('\n')) {
  const [p, f] = line.trim().split(/\s+/).map(Number);
  if (Number.isInteger(p) && Number.isInteger(f)) {
    passed += p;
    failed += f;
  }
}
if (status !== '0' && failed === 0) failed = 1;
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
