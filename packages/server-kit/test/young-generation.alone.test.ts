import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_YOUNG_GENERATION_MB } from '../src/limits.js';
import { FIXTURES_DIR, PACKAGE_DIR } from './helpers.js';

/** The new space's size in MiB after a busy process's allocations, with these settings and Node flags. */
function newSpaceAfterChurn(env: Record<string, string>, nodeFlags: string[] = []): string {
  const result = spawnSync(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', path.join(FIXTURES_DIR, 'young-generation-churn.ts')],
    { cwd: PACKAGE_DIR, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 60_000 },
  );
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim();
}

describe('the young generation is bounded (SWITCHYARD_MAX_YOUNG_GENERATION_MB)', { timeout: 120_000 }, () => {
  it(`stays within the default ${DEFAULT_MAX_YOUNG_GENERATION_MB} MiB where V8 alone grows it past that`, () => {
    expect(Number(newSpaceAfterChurn({}))).toBeLessThanOrEqual(DEFAULT_MAX_YOUNG_GENERATION_MB);
    // The same allocations with the bound off: V8's own growth, which the bound is there to stop.
    expect(Number(newSpaceAfterChurn({ SWITCHYARD_MAX_YOUNG_GENERATION_MB: '0' }))).toBeGreaterThan(
      DEFAULT_MAX_YOUNG_GENERATION_MB * 2,
    );
  });

  it('follows the setting', () => {
    expect(Number(newSpaceAfterChurn({ SWITCHYARD_MAX_YOUNG_GENERATION_MB: '4' }))).toBeLessThanOrEqual(4);
  });

  it("leaves V8 alone where the operator sized the young generation with Node's own flags", () => {
    const flag = '--max-semi-space-size=32';
    expect(Number(newSpaceAfterChurn({}, [flag]))).toBeGreaterThan(DEFAULT_MAX_YOUNG_GENERATION_MB * 2);
    expect(Number(newSpaceAfterChurn({ NODE_OPTIONS: flag }))).toBeGreaterThan(
      DEFAULT_MAX_YOUNG_GENERATION_MB * 2,
    );
  });

  it('refuses a value that is not a whole number of MiB, naming the variable', () => {
    expect(newSpaceAfterChurn({ SWITCHYARD_MAX_YOUNG_GENERATION_MB: 'lots' })).toBe(
      'refused: runServer: SWITCHYARD_MAX_YOUNG_GENERATION_MB must be a whole number of mebibytes >= 0 ' +
        `(0 = V8's own growth), got "lots"`,
    );
  });
});
