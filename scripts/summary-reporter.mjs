// A vitest reporter that ends the run with one plain line, `N passed, N failed`, which CI reads. With
// SWITCHYARD_TEST_TALLY set it also appends `passed failed` to that file, so .ci/run can total several runs.
import { appendFileSync } from 'node:fs';

export default class SummaryReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    let passed = 0;
    let failed = 0;
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
      }
      // A file that failed to load has no tests but is a failure all the same.
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed += 1;
    }
    failed += unhandledErrors?.length ?? 0;
    // Printed after the default reporter's summary so it is the last line of the run.
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
    const tally = process.env.SWITCHYARD_TEST_TALLY;
    if (tally) appendFileSync(tally, `${passed} ${failed}\n`);
  }
}
