import { join } from 'node:path';
import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLaunchPipeline, exampleRunConfig, materializeExampleRepos } from '../../src/pipeline/index.js';
import {
  fixNext,
  ARTIFACTS_THROUGH_VALIDATION,
  runWorkersThrough,
  tempDir,
  workerContext,
  type TestContext,
} from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  dir = await tempDir('determinism');
});
afterAll(() => dir.cleanup());

/** W1..W7, one fix, W7 again: every artifact a run writes before the PR. */
async function run(name: string, runId: string): Promise<TestContext> {
  const repos = await materializeExampleRepos(join(dir.path, `${name}-repos`));
  const ctx = workerContext({
    runId,
    config: {
      ...exampleRunConfig(repos),
      required_sections: ['products', 'docs', 'reference', 'kb', 'blog'],
      allowed_paths: ['content/**'],
    },
    runDir: join(dir.path, `${name}-run`),
  });
  const pipeline = createLaunchPipeline();
  await runWorkersThrough(pipeline, ctx, 'link');
  const report = await pipeline.validateSite(ctx);
  await fixNext(pipeline, ctx, report);
  await pipeline.validateSite(ctx);
  return ctx;
}

/** validation_report.json with every gate's duration_ms set to 0 (timing is the one non-deterministic field). */
function masked(text: string): string {
  const report = JSON.parse(text) as ValidationReport;
  return JSON.stringify({ ...report, gates: report.gates.map((gate) => ({ ...gate, duration_ms: 0 })) });
}

describe('determinism', () => {
  it('two runs on the same inputs write byte-identical artifacts (duration_ms masked)', async () => {
    const a = await run('a', 'r_2026-01-21T10-00-00Z_aaaaaaaa');
    const b = await run('b', 'r_2026-02-02T08-30-00Z_bbbbbbbb');
    expect(b.artifacts.names()).toEqual(a.artifacts.names());
    expect(a.artifacts.names()).toEqual(expect.arrayContaining(ARTIFACTS_THROUGH_VALIDATION));
    expect(a.artifacts.names().some((name) => name.startsWith('fix_iss_'))).toBe(true);
    expect(a.artifacts.names().filter((name) => name.startsWith('drafts/'))).toHaveLength(7);
    for (const name of a.artifacts.names()) {
      if (name === 'validation_report.json') {
        expect(masked(b.artifacts.text(name))).toBe(masked(a.artifacts.text(name)));
      } else {
        expect(b.artifacts.text(name), name).toBe(a.artifacts.text(name));
      }
      expect(a.artifacts.text(name)).not.toContain(dir.path);
      expect(a.artifacts.text(name)).not.toContain(a.runId);
    }
  });
});
