import { join } from 'node:path';
import type { ValidationReport } from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerIds } from '../../src/gates/factual.js';
import { sentenceKey } from '../../src/pipeline/page-coherence.js';
import type {
  EvidenceMap,
  PagePlan,
  ProductFacts,
  SnippetCatalog,
} from '../../src/pipeline/artifact-schemas.js';
import { buildWritingBrief } from '../../src/pipeline/writing-brief.js';
import { verifierBriefFor } from '../../src/verifier/brief.js';
import { verifyPage } from '../../src/verifier/verify.js';
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

async function expectLaunchable(pkg: string, productName: string) {
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
  // The verifier a model's drafts will meet accepts the extractive drafts (no false refusal on real pages).
  const brief = buildWritingBrief({
    plan,
    facts,
    evidence: ctx.artifacts.json<EvidenceMap>('evidence_map.json'),
    catalog: ctx.artifacts.json<SnippetCatalog>('snippet_catalog.json'),
  });
  for (const page of plan.pages) {
    const body = ctx.artifacts.text(page.draft).replace(/^---\n[\s\S]*?\n---\n/, '');
    expect(verifyPage(body, verifierBriefFor(brief, page.page_id)!).issues, page.page_id).toEqual([]);
  }
  return ctx;
}

type PageItem = { claim: string; text: string } | { snippet: string };
const CLAIM_LINE = /^(?:- )?(.*) <!-- claim_id: (c_[0-9a-f]{12}) -->$/;
const SNIPPET_LINE = /^<!-- snippet_id: (s_[0-9a-f]{12}) -->$/;

/** A launched page's body as its cited sentences and code blocks, in order (code inside fences skipped). */
async function pageItems(
  ctx: Awaited<ReturnType<typeof expectLaunchable>>,
  path: string,
): Promise<PageItem[]> {
  const items: PageItem[] = [];
  let fence: string | undefined;
  for (const line of (await readSitePage(ctx, path)).split('\n')) {
    const opener = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (line.trim() === fence) fence = undefined;
      continue;
    }
    if (opener !== undefined) fence = opener;
    const claim = CLAIM_LINE.exec(line);
    const snippet = SNIPPET_LINE.exec(line);
    if (claim !== null) items.push({ claim: claim[2]!, text: claim[1]! });
    else if (snippet !== null) items.push({ snippet: snippet[1]! });
  }
  return items;
}

describe('real published packages from node_modules', () => {
  it('zod (HTML header, badges, long usage) reaches an ok report', async () => {
    await expectLaunchable('zod', 'Zod');
  });

  it('ky (HTML block, blockquote summary, long API and FAQ sections) reaches an ok report; its pages read as written', async () => {
    const ctx = await expectLaunchable('ky', 'Ky');
    const facts = ctx.artifacts.json<ProductFacts>('product_facts.json');
    const introduces = new Map(facts.claims.map((claim) => [claim.claim_id, claim.introduces ?? []]));
    const plan = ctx.artifacts.json<PagePlan>('page_plan.json');
    const pages = new Map<string, PageItem[]>();
    for (const page of plan.pages) pages.set(page.page_id, await pageItems(ctx, page.path));
    const texts = (pageId: string): string[] =>
      pages.get(pageId)!.flatMap((item) => ('text' in item ? [item.text] : []));

    // "With plain `fetch`, it would be:" introduces the plain-fetch block: never above the ky example.
    const plainFetch = facts.claims.find((claim) => claim.text === 'With plain `fetch`, it would be:')!;
    expect(plainFetch.introduces).toHaveLength(1);
    expect(texts('docs/getting-started')).not.toContain(plainFetch.text);
    for (const [pageId, items] of pages) {
      items.forEach((item, index) => {
        const leadsInto = 'claim' in item ? introduces.get(item.claim)! : [];
        if (leadsInto.length === 0) return;
        const next = items[index + 1];
        expect(
          next !== undefined && 'snippet' in next && leadsInto.includes(next.snippet),
          `${pageId}: ${'text' in item ? item.text : ''}`,
        ).toBe(true);
      });
    }
    const usage = pages.get('docs/usage')!;
    const plainAt = usage.findIndex((item) => 'claim' in item && item.claim === plainFetch.claim_id);
    expect(usage[plainAt + 1]).toEqual({ snippet: plainFetch.introduces![0] });

    // The tagline (the package description) is the Overview's only sentence, not repeated by the README's.
    const overview = texts('products/overview');
    expect(overview[0]).toBe(facts.claims.find((claim) => claim.kind === 'description')!.text);
    expect(overview).not.toContain('Ky is a tiny and elegant HTTP client based on the Fetch API');

    // No sentence or code block twice on a page (a lead-in above two different blocks stays with each).
    for (const [pageId, items] of pages) {
      const snippets = items.flatMap((item) => ('snippet' in item ? [item.snippet] : []));
      expect(snippets, pageId).toEqual([...new Set(snippets)]);
      const keys = items.flatMap((item) =>
        'claim' in item && introduces.get(item.claim)!.length === 0 ? [sentenceKey(item.text, 'Ky')] : [],
      );
      expect(keys, pageId).toEqual([...new Set(keys)]);
    }

    // "Install Ky with `npm install ky`." opens one page at most; no two pages open alike.
    const openings = [...pages.values()].map((items) =>
      'text' in items[0]! ? items[0].text : items[0]!.snippet,
    );
    expect(
      openings.filter((opening) => opening === 'Install Ky with `npm install ky`.').length,
    ).toBeLessThanOrEqual(1);
    expect(openings).toEqual([...new Set(openings)]);
  });
});
