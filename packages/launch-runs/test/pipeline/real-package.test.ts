import { join } from 'node:path';
import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerIds } from '../../src/gates/factual.js';
import type { PagePlan, ProductFacts } from '../../src/pipeline/artifact-schemas.js';
import {
  createLaunchPipeline,
  materializeExampleRepos,
  type ExampleRepos,
} from '../../src/pipeline/index.js';
import {
  fixNext,
  expectEvidenceIsReal,
  gitRepoFrom,
  installedPackageDir,
  readSitePage,
  runWorkersThrough,
  tempDir,
  workerContext,
} from './helpers.js';

let dir: { path: string; cleanup: () => Promise<void> };
let site: ExampleRepos;
beforeAll(async () => {
  dir = await tempDir('real');
  site = await materializeExampleRepos(join(dir.path, 'site'), { seedFixableProblem: false });
});
afterAll(() => dir.cleanup());

/** The whole pipeline (W1..W7, then W8 + W7 until ok, at most 10 fixes) on a published package's files. */
async function launch(pkg: string, productName: string) {
  const source = await gitRepoFrom(await installedPackageDir(pkg), join(dir.path, `${pkg}-src`));
  const ctx = workerContext({
    config: {
      schema_version: '1.0',
      product_slug: pkg,
      product_name: productName,
      source: { repo: source },
      site: { repo: site.siteRepo },
      required_sections: ['products', 'docs', 'reference', 'kb', 'blog'],
      allowed_paths: ['content/**'],
    },
    runDir: join(dir.path, `${pkg}-run`),
  });
  const pipeline = createLaunchPipeline();
  await runWorkersThrough(pipeline, ctx, 'link');
  let report: ValidationReport = await pipeline.validateSite(ctx);
  let fixes = 0;
  while (!report.ok && fixes < 10) {
    const fix = await fixNext(pipeline, ctx, report);
    expect(fix.changed).toBe(true);
    fixes += 1;
    report = await pipeline.validateSite(ctx);
  }
  return { ctx, report, fixes };
}

async function expectLaunchable(pkg: string, productName: string): Promise<void> {
  const { ctx, report } = await launch(pkg, productName);
  expect(report.issues.filter((issue) => issue.status === 'OPEN' && issue.severity !== 'warn')).toEqual([]);
  expect(report.ok).toBe(true);
  for (const gate of ['TruthLock', 'InternalLinks'])
    expect(report.gates.find((entry) => entry.name === gate)).toMatchObject({ ok: true });
  const facts = ctx.artifacts.json<ProductFacts>('product_facts.json');
  expect(facts.product.package_name).toBe(pkg);
  expect(await expectEvidenceIsReal(ctx)).toBeGreaterThan(30);
  const plan = ctx.artifacts.json<PagePlan>('page_plan.json');
  expect(plan.pages).toHaveLength(7);
  for (const page of plan.pages) {
    const text = await readSitePage(ctx, page.path);
    const markers = text.split('\n').flatMap((line) => markerIds(line));
    expect(markers.length, page.path).toBeGreaterThan(0);
  }
}

describe('real published packages from node_modules', () => {
  it('zod (HTML header, badges, long usage) reaches an ok report', async () => {
    await expectLaunchable('zod', 'Zod');
  });

  it('ky (HTML block, blockquote summary, long API and FAQ sections) reaches an ok report', async () => {
    await expectLaunchable('ky', 'Ky');
  });
});
