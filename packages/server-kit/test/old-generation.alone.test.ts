import { describe, expect, it } from 'vitest';
import { fixtureOutput } from './helpers.js';

/** Full collections while live objects are replaced, with these settings and Node flags. */
const fullCollectionsInChurn = (env: Record<string, string>, nodeFlags: string[] = []): string =>
  fixtureOutput('old-generation-churn.ts', env, nodeFlags);

const collections = (env: Record<string, string>, nodeFlags: string[] = []): number =>
  Number(fullCollectionsInChurn(env, nodeFlags));

// The old space's size is what the bound is for, but its peaks depend on when V8's sweeper and marker run on a
// busy machine; the number of full collections a fixed churn takes follows the growth step alone (measured: the
// default 20% 23-26, V8's own growth and 300% 4).
describe(
  'the old generation grows a bounded step (SWITCHYARD_HEAP_GROWING_PERCENT)',
  { timeout: 120_000 },
  () => {
    it("collects in smaller steps than V8's own growth by default", () => {
      const own = collections({ SWITCHYARD_HEAP_GROWING_PERCENT: '0' });
      expect(collections({})).toBeGreaterThan(own * 2);
    });

    it('follows the setting: a larger percent collects less often', () => {
      expect(collections({ SWITCHYARD_HEAP_GROWING_PERCENT: '300' }) * 2).toBeLessThan(collections({}));
    });

    it("leaves V8 alone where the operator set the growth with Node's own flag", () => {
      expect(collections({}, ['--heap-growing-percent=300']) * 2).toBeLessThan(collections({}));
    });

    it('refuses a value that is not a whole number of percent, naming the variable', () => {
      expect(fullCollectionsInChurn({ SWITCHYARD_HEAP_GROWING_PERCENT: 'x' })).toBe(
        'refused: runServer: SWITCHYARD_HEAP_GROWING_PERCENT must be a whole number of percent >= 0 ' +
          `(0 = V8's own growth), got "x"`,
      );
    });
  },
);
