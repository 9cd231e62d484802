// A vitest reporter that ends the run with one plain line, `N passed, N failed`, which CI reads, after the names
// of the tests that passed only on a retry (scripts/run-tests.mjs sets --retry). With
// SWITCHYARD_TEST_TALLY set it also appends `passed failed` to that file, so .ci/run can total several runs.
//
// It also keeps the tests to their own data directories: if the user's Switchyard data directory
// (`~/.local/share/switchyard` on Linux) appears during the run, a test or a server it started ran without
// SWITCHYARD_DATA_DIR, and that counts as a failure.
import { appendFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where the servers' data directory falls back to without SWITCHYARD_DATA_DIR (env-paths' choice). */
function userDataDir() {
  if (process.platform === 'darwin') {
    return path.join(os.homedir(), 'Library', 'Application Support', 'switchyard');
  }
  const base = process.env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'switchyard');
}

export default class SummaryReporter {
  onInit() {
    this.dataDirExisted = existsSync(userDataDir());
  }

  onTestRunEnd(testModules, unhandledErrors) {
    let passed = 0;
    let failed = 0;
    const flaky = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        if (state === 'passed' && test.diagnostic()?.flaky)
          flaky.push(`${path.relative(process.cwd(), testModule.moduleId)} > ${test.fullName}`);
      }
      // A file that failed to load has no tests but is a failure all the same.
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed += 1;
    }
    failed += unhandledErrors?.length ?? 0;
    if (this.dataDirExisted === false && existsSync(userDataDir())) {
      failed += 1;
      process.exitCode = 1;
      process.stdout.write(
        `\nThe test run created ${userDataDir()}: a test or a server it started ran without ` +
          'SWITCHYARD_DATA_DIR. Give it a temporary data directory.\n',
      );
    }
    if (flaky.length > 0) {
      process.stdout.write(
        `\nPassed only when run again (a race in the test or the code: fix it):\n${flaky.map((name) => `  ${name}\n`).join('')}`,
      );
    }
    // Printed after the default reporter's summary so it is the last line of the run.
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
    const tally = process.env.SWITCHYARD_TEST_TALLY;
    if (tally) appendFileSync(tally, `${passed} ${failed}\n`);
  }
}
