/**
 * The writing brief (writing_brief.json): everything a model needs to write each planned page, and only the
 * evidence, snippets and links the page may use, each traceable to the run's own artifacts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  EvidenceMap,
  PagePlan,
  ProductFacts,
  SnippetCatalog,
  WritingBrief,
} from '../../src/pipeline/artifact-schemas.js';
import { WritingBriefSchema } from '../../src/pipeline/artifact-schemas.js';
import { buildWritingBrief, HOUSE_RULES, writeWritingBrief } from '../../src/pipeline/writing-brief.js';
import { readWorkerArtifact } from '../../src/pipeline/worker-artifacts.js';
import { verifierBriefFor } from '../../src/verifier/brief.js';
import { verifyPage } from '../../src/verifier/verify.js';
import { prepareExampleRun, type PreparedRun } from './helpers.js';

let run: PreparedRun;
let brief: WritingBrief;
let plan: PagePlan;
let facts: ProductFacts;
let evidence: EvidenceMap;
let catalog: SnippetCatalog;

beforeAll(async () => {
  run = await prepareExampleRun({ prefix: 'writing-brief-', through: 'draft' });
  brief = await writeWritingBrief(run.ctx);
  plan = await readWorkerArtifact(run.ctx.artifacts, 'page_plan.json');
  facts = await readWorkerArtifact(run.ctx.artifacts, 'product_facts.json');
  evidence = await readWorkerArtifact(run.ctx.artifacts, 'evidence_map.json');
  catalog = await readWorkerArtifact(run.ctx.artifacts, 'snippet_catalog.json');
}, 120_000);

afterAll(() => run.cleanup());

describe('writing_brief.json', () => {
  it('is written as an artifact that reads back under its schema, one entry per planned page', async () => {
    const stored = await readWorkerArtifact(run.ctx.artifacts, 'writing_brief.json');
    expect(WritingBriefSchema.parse(stored)).toEqual(brief);
    expect(brief.pages.map((page) => page.page_id)).toEqual(plan.pages.map((page) => page.page_id));
    expect(brief.rules).toEqual(HOUSE_RULES);
    expect(brief.product.name).toBe(facts.product.name);
  });

  it('gives each page its title, purpose and the sections of its plan, covering every planned claim and snippet', () => {
    for (const page of brief.pages) {
      const planned = plan.pages.find((entry) => entry.page_id === page.page_id)!;
      expect(page.title).toBe(planned.title);
      expect(page.purpose).toBe(planned.description);
      const headings = planned.outline.flatMap((item) =>
        item.type === 'heading' && item.level === 2 ? [item.text] : [],
      );
      expect(page.sections.flatMap((section) => (section.heading === null ? [] : [section.heading]))).toEqual(
        headings,
      );
      expect(new Set(page.sections.flatMap((section) => section.claim_ids))).toEqual(
        new Set(planned.claim_ids),
      );
      expect(new Set(page.sections.flatMap((section) => section.snippet_ids))).toEqual(
        new Set(planned.snippet_ids),
      );
    }
  });

  it('quotes every evidence item exactly as the facts hold it, with the source lines of the evidence map', () => {
    const ref = (e: { path: string; line_start: number; line_end: number }): string =>
      `${e.path}:${e.line_start === e.line_end ? e.line_start : `${e.line_start}-${e.line_end}`}`;
    let checked = 0;
    for (const page of brief.pages) {
      for (const item of page.evidence) {
        const claim = facts.claims.find((entry) => entry.claim_id === item.claim_id)!;
        expect(item.quote).toBe(claim.text);
        expect(item.kind).toBe(claim.kind);
        expect(item.sources).toEqual(evidence.claims[item.claim_id]!.evidence.map(ref));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('lets every page cite the product-wide claims, and no other claim outside its plan', () => {
    const productWide = facts.claims.filter((claim) =>
      ['package_name', 'version', 'license', 'description', 'install', 'repository', 'homepage'].includes(
        claim.kind,
      ),
    );
    expect(productWide.length).toBeGreaterThan(0);
    for (const page of brief.pages) {
      const planned = plan.pages.find((entry) => entry.page_id === page.page_id)!;
      const allowed = new Set([...planned.claim_ids, ...productWide.map((claim) => claim.claim_id)]);
      expect(new Set(page.evidence.map((item) => item.claim_id))).toEqual(allowed);
    }
  });

  it('carries snippets byte for byte with their provenance and lead-in, and links only to planned pages', () => {
    const urls = new Map(plan.pages.map((page) => [page.page_id, page.url_path]));
    let leadIns = 0;
    for (const page of brief.pages) {
      for (const item of page.snippets) {
        const snippet = catalog.snippets.find((entry) => entry.snippet_id === item.snippet_id)!;
        expect(item.content).toBe(snippet.content);
        expect(item.sources).toEqual(
          snippet.provenance.map(
            (p) =>
              `${p.path}:${p.line_start === p.line_end ? p.line_start : `${p.line_start}-${p.line_end}`}`,
          ),
        );
        const introducer = facts.claims.find((claim) => claim.introduces?.includes(item.snippet_id));
        expect(item.lead_in_claim_id).toBe(introducer?.claim_id ?? null);
        if (introducer !== undefined) leadIns++;
      }
      for (const link of page.links) {
        expect(link.page_id).not.toBe(page.page_id);
        expect(link.url_path).toBe(urls.get(link.page_id));
      }
    }
    expect(leadIns).toBeGreaterThan(0);
    expect(brief.pages.some((page) => page.links.length > 0)).toBe(true);
  });

  it('names as not to be claimed each product fact the evidence lacks, and only those', () => {
    const known = buildWritingBrief({ plan, facts, evidence, catalog });
    expect(known.pages[0]!.must_not_claim.join('\n')).not.toContain('a license');
    const unlicensed = buildWritingBrief({
      plan,
      facts: { ...facts, product: { ...facts.product, license: null, version: null } },
      evidence,
      catalog,
    });
    for (const page of unlicensed.pages) {
      expect(page.must_not_claim).toContain('a license (the evidence has none)');
      expect(page.must_not_claim).toContain('a version number (the evidence has none)');
    }
  });

  it('is deterministic: the same artifacts give the same brief', () => {
    expect(buildWritingBrief({ plan, facts, evidence, catalog })).toEqual(brief);
  });

  it("holds enough for the verifier to accept each extractive draft against its own page's brief", async () => {
    for (const page of plan.pages) {
      const draft = new TextDecoder().decode(await run.ctx.artifacts.read(page.draft));
      const body = draft.replace(/^---\n[\s\S]*?\n---\n/, '');
      const result = verifyPage(body, verifierBriefFor(brief, page.page_id)!);
      expect(result.issues, page.page_id).toEqual([]);
      expect(result.sentences.length, page.page_id).toBeGreaterThan(0);
    }
    expect(verifierBriefFor(brief, 'docs/no-such-page')).toBeUndefined();
  });
});
