import { cp, lstat, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factualReason, markerIds, SNIPPET_MARKER, statementOf } from '../../src/gates/factual.js';
import { parsePage } from '../../src/gates/page-doc.js';
import type {
  EvidenceMap,
  PagePlan,
  PatchBundle,
  ProductFacts,
  RepoInventory,
  SnippetCatalog,
} from '../../src/pipeline/artifact-schemas.js';
import { patchId } from '../../src/pipeline/hashing.js';
import { createLaunchPipeline } from '../../src/pipeline/index.js';
import { buildPagePlan } from '../../src/pipeline/plan.js';
import {
  copyRun,
  failure,
  gitRepoFrom,
  prepareExampleRun,
  readSitePage,
  type PreparedRun,
} from './helpers.js';

const pipeline = createLaunchPipeline();
let prepared: PreparedRun;

beforeAll(async () => {
  prepared = await prepareExampleRun({ prefix: 'pages', through: 'draft' });
});
afterAll(() => prepared.cleanup());

describe('W4 planPages', () => {
  it('plans the pages of the required sections with paths, URLs, claims, snippets and cross links', () => {
    const plan = prepared.ctx.artifacts.json<PagePlan>('page_plan.json');
    const facts = prepared.ctx.artifacts.json<ProductFacts>('product_facts.json');
    const catalog = prepared.ctx.artifacts.json<SnippetCatalog>('snippet_catalog.json');
    expect(plan.pages.map((page) => [page.page_id, page.path, page.url_path])).toEqual([
      ['products/overview', 'content/products/tallyho.md', '/products/tallyho/'],
      ['docs/getting-started', 'content/docs/tallyho/getting-started.md', '/docs/tallyho/getting-started/'],
      ['docs/installation', 'content/docs/tallyho/installation.md', '/docs/tallyho/installation/'],
      ['docs/usage', 'content/docs/tallyho/usage.md', '/docs/tallyho/usage/'],
    ]);
    const claimIds = new Set(facts.claims.map((claim) => claim.claim_id));
    const snippetIds = new Set(catalog.snippets.map((snippet) => snippet.snippet_id));
    const urls = new Set(plan.pages.map((page) => page.url_path));
    for (const page of plan.pages) {
      expect(page.claim_ids.length).toBeGreaterThan(0);
      expect(page.claim_ids).toEqual([...page.claim_ids].sort());
      expect(page.claim_ids.every((id) => claimIds.has(id))).toBe(true);
      expect(page.snippet_ids.every((id) => snippetIds.has(id))).toBe(true);
      expect(page.links.every((url) => urls.has(url))).toBe(true);
      expect(page.links).not.toContain(page.url_path);
    }
    expect(plan.pages.find((page) => page.page_id === 'products/overview')!.template).toBe(
      'products/overview',
    );
  });

  it('every section gets pages: reference from the API section, a FAQ, a launch post', () => {
    const facts = prepared.ctx.artifacts.json<ProductFacts>('product_facts.json');
    const catalog = prepared.ctx.artifacts.json<SnippetCatalog>('snippet_catalog.json');
    const plan = buildPagePlan(
      { facts, snippets: catalog.snippets, slug: 'tallyho', name: 'Tallyho', contentRoot: 'site/content' },
      ['blog', 'kb', 'reference'],
    );
    expect(plan.sections.map((entry) => entry.section)).toEqual(['reference', 'kb', 'blog']);
    const reference = plan.pages.find((page) => page.section === 'reference')!;
    expect(reference.path).toBe('site/content/reference/tallyho.md');
    const apiHeadings = reference.outline
      .filter((item) => item.type === 'heading')
      .map((item) => item.type === 'heading' && item.text);
    expect(apiHeadings).toEqual(
      expect.arrayContaining(['API', 'tally(text, options?)', 'formatTally(counts, format)']),
    );
    const faq = plan.pages.find((page) => page.section === 'kb')!;
    expect(faq.claim_ids).toContain(facts.claims.find((claim) => claim.kind === 'license')!.claim_id);
    const blog = plan.pages.find((page) => page.section === 'blog')!;
    expect(blog.claim_ids).toContain(facts.claims.find((claim) => claim.kind === 'release')!.claim_id);
  });
});

describe('W5 draftPages', () => {
  it('drafts carry the archetype keys, a marker on every factual line and a citation above every code block', () => {
    const plan = prepared.ctx.artifacts.json<PagePlan>('page_plan.json');
    const evidence = prepared.ctx.artifacts.json<EvidenceMap>('evidence_map.json');
    const inventory = prepared.ctx.artifacts.json<RepoInventory>('repo_inventory.json');
    for (const page of plan.pages) {
      const doc = parsePage(page.path, prepared.ctx.artifacts.text(page.draft));
      expect(Object.keys(doc.frontMatter.data!)).toEqual(['title', 'description', 'weight', 'date', 'draft']);
      expect(doc.frontMatter.data).toMatchObject({
        title: page.title,
        weight: page.weight,
        draft: false,
        date: inventory.source.committed_at,
      });
      let markers = 0;
      doc.lines.forEach((line, index) => {
        if (doc.kinds[index] !== 'prose') return;
        const ids = markerIds(line);
        markers += ids.length;
        for (const id of ids) expect(evidence.claims[id]).toBeDefined();
        if (factualReason(statementOf(line, ['Tallyho'])) !== undefined)
          expect(ids.length).toBeGreaterThan(0);
      });
      expect(markers).toBe(page.outline.filter((item) => item.type === 'claim').length);
      for (const block of doc.doc.blocks.filter((candidate) => candidate.type === 'fence')) {
        expect(doc.lines[block.startLine - 3]).toMatch(SNIPPET_MARKER);
      }
    }
  });
});

describe('W6 linkPages', () => {
  it('applies the drafts as create patches with content-hash ids; a re-run changes nothing', async () => {
    const ctx = await copyRun(prepared, 'link-create');
    const result = await pipeline.linkPages(ctx);
    const bundle = ctx.artifacts.json<PatchBundle>('patch_bundle.json');
    const plan = ctx.artifacts.json<PagePlan>('page_plan.json');
    expect(result.sections).toEqual({ products: 'MERGED_IN_WORKTREE', docs: 'MERGED_IN_WORKTREE' });
    expect(result.applied_patch_ids).toEqual(bundle.patches.map((patch) => patch.patch_id));
    for (const patch of bundle.patches) {
      expect(patch.op).toBe('create');
      expect(patch.patch_id).toBe(patchId('create', patch.path, patch.content));
      const draft = ctx.artifacts.text(plan.pages.find((page) => page.path === patch.path)!.draft);
      expect(await readSitePage(ctx, patch.path)).toBe(draft);
    }
    const before = ctx.artifacts.text('patch_bundle.json');
    const mtime = (await lstat(join(ctx.runDir, 'workspace', 'site', bundle.patches[0]!.path))).mtimeMs;
    await pipeline.linkPages(ctx);
    expect(ctx.artifacts.text('patch_bundle.json')).toBe(before);
    expect((await lstat(join(ctx.runDir, 'workspace', 'site', bundle.patches[0]!.path))).mtimeMs).toBe(mtime);
    expect(ctx.artifacts.text('diff_report.md')).toContain('| create | `content/products/tallyho.md` |');
  });

  it('refuses the whole bundle when one page is outside allowed_paths, writing nothing', async () => {
    const ctx = await copyRun(prepared, 'link-refused', { allowed_paths: ['content/docs/**'] });
    const error = await failure(pipeline.linkPages(ctx));
    expect(error.code).toBe('ALLOWED_PATHS_VIOLATION');
    expect(error.details).toMatchObject({
      paths: ['content/products/tallyho.md'],
      allowed_paths: ['content/docs/**'],
    });
    await expect(
      lstat(join(ctx.runDir, 'workspace', 'site', 'content', 'docs', 'tallyho')),
    ).rejects.toThrow();
    expect(ctx.artifacts.files.has('patch_bundle.json')).toBe(false);
  });

  it('refuses a target whose folder is a symlink leaving the worktree', async () => {
    const ctx = await copyRun(prepared, 'link-symlink');
    const outside = join(prepared.root, 'outside');
    await mkdir(outside, { recursive: true });
    const products = join(ctx.runDir, 'workspace', 'site', 'content', 'products');
    await rm(products, { recursive: true });
    await symlink(outside, products);
    const error = await failure(pipeline.linkPages(ctx));
    expect(error.code).toBe('ALLOWED_PATHS_VIOLATION');
    await expect(readFile(join(outside, 'tallyho.md'), 'utf8')).rejects.toThrow();
  });

  it('updates a page the site already has, keeping its own front matter keys', async () => {
    const siteSource = join(prepared.root, 'site-with-page');
    await cp(prepared.repos.siteWorkingCopy, siteSource, {
      recursive: true,
      filter: (path) => !path.includes('.git'),
    });
    await writeFile(
      join(siteSource, 'content', 'products', 'tallyho.md'),
      '---\ntitle: Old\naliases:\n  - /tallyho/\n---\n\nOld page.\n',
    );
    const siteRepo = await gitRepoFrom(siteSource, join(prepared.root, 'site-with-page.git'));
    const run = await prepareExampleRun({ prefix: 'pages-update', siteRepo });
    try {
      const bundle = run.ctx.artifacts.json<PatchBundle>('patch_bundle.json');
      const update = bundle.patches.find((patch) => patch.path === 'content/products/tallyho.md')!;
      expect(update.op).toBe('update');
      expect(update.base_sha256).not.toBeNull();
      expect(update.front_matter_keys).toEqual([
        'aliases',
        'date',
        'description',
        'draft',
        'title',
        'weight',
      ]);
      const page = parsePage(update.path, await readSitePage(run.ctx, update.path));
      expect(page.frontMatter.data).toMatchObject({ title: 'Tallyho', aliases: ['/tallyho/'] });
      expect(page.text).not.toContain('Old page.');
      expect(run.ctx.artifacts.text('diff_report.md')).toContain('-Old page.');
    } finally {
      await run.cleanup();
    }
  });
});
