import { describe, expect, it } from 'vitest';
import { fixtureOutput } from './helpers.js';

/** The most MiB V8's compiler zones held at once while many functions warmed up, with these Node flags. */
const compilerPeakMib = (nodeFlags: string[] = []): number =>
  Number(fixtureOutput('compiler-memory-churn.ts', {}, nodeFlags).split(' ')[0]);

// Measured: 13.5-15.5 MiB freed as each is installed, 65.6 MiB left to V8's worker threads.
describe("the compiler's memory is freed as each function is installed", { timeout: 120_000 }, () => {
  it("holds the compiler zones' peak to a fraction of what V8's own deferred freeing holds", () => {
    const deferred = compilerPeakMib(['--maglev-destroy-on-background']);
    expect(compilerPeakMib()).toBeLessThanOrEqual(deferred / 2);
  });
});
