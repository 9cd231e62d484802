import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_YOUNG_GENERATION_MB } from '../src/limits.js';
import { fixtureOutput } from './helpers.js';

/** The new space's largest size in MiB during a busy process's allocations, with these settings and Node flags. */
const newSpaceAfterChurn = (env: Record<string, string>, nodeFlags: string[] = []): string =>
  fixtureOutput('young-generation-churn.ts', env, nodeFlags);

const largest = (env: Record<string, string>): number => Number(newSpaceAfterChurn(env));

// V8 12 (Node 22) stops the new space at the doubling the bound allows. V8 13 (Node 24) still grows it in small
// steps under a long burst, and shrinks it back when allocation slows: measured peaks of the churn with the
// default bound 7.75-15 MiB (4 MiB: up to 20.5), against V8's own 64. So a small bound is held to a fraction of
// V8's own growth, and larger bounds (where the stop falls on a doubling) exactly.
describe('the young generation is bounded (SWITCHYARD_MAX_YOUNG_GENERATION_MB)', { timeout: 120_000 }, () => {
  it(`holds it to a fraction of V8's own growth at the default ${DEFAULT_MAX_YOUNG_GENERATION_MB} MiB`, () => {
    const own = largest({ SWITCHYARD_MAX_YOUNG_GENERATION_MB: '0' });
    expect(own).toBeGreaterThan(DEFAULT_MAX_YOUNG_GENERATION_MB * 2);
    expect(largest({})).toBeLessThanOrEqual(own / 2);
  });

  it('follows the setting: never past it, and a larger one lets it grow further', () => {
    const at16 = largest({ SWITCHYARD_MAX_YOUNG_GENERATION_MB: '16' });
    const at32 = largest({ SWITCHYARD_MAX_YOUNG_GENERATION_MB: '32' });
    expect(at16).toBeLessThanOrEqual(16);
    expect(at32).toBeLessThanOrEqual(32);
    expect(at32).toBeGreaterThan(at16);
  });

  it("leaves V8 alone where the operator sized the young generation with Node's own flags", () => {
    const flag = '--max-semi-space-size=32';
    expect(Number(newSpaceAfterChurn({}, [flag]))).toBeGreaterThan(DEFAULT_MAX_YOUNG_GENERATION_MB * 4);
    expect(Number(newSpaceAfterChurn({ NODE_OPTIONS: flag }))).toBeGreaterThan(
      DEFAULT_MAX_YOUNG_GENERATION_MB * 4,
    );
  });

  it('refuses a value that is not a whole number of MiB, naming the variable', () => {
    expect(newSpaceAfterChurn({ SWITCHYARD_MAX_YOUNG_GENERATION_MB: 'lots' })).toBe(
      'refused: runServer: SWITCHYARD_MAX_YOUNG_GENERATION_MB must be a whole number of mebibytes >= 0 ' +
        `(0 = V8's own growth), got "lots"`,
    );
  });
});
