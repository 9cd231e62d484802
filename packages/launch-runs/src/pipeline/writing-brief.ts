import { writeJsonArtifact } from './artifact-io.js';
import type {
  Claim,
  ClaimKind,
  Evidence,
  EvidenceMap,
  PagePlan,
  PlannedPage,
  ProductFacts,
  Snippet,
  SnippetCatalog,
  WritingBrief,
  WritingBriefPage,
} from './artifact-schemas.js';
import { throwIfCancelled } from './errors.js';
import { claimMarker, snippetMarker } from './markers.js';
import type { WorkerContext } from './types.js';
import { readPlanningInputs, readWorkerArtifact } from './worker-artifacts.js';

/**
 * The writing brief: what a writer (the caller's model) needs to write each planned page from the evidence,
 * and nothing it may not use. Per page its title, purpose and sections (the plan's outline), the evidence
 * items it may cite (claim_id, the exact quote, where it stands in the source), the snippets it may show,
 * the pages it may link to, and what it must not claim. Pure: the same artifacts give the same brief.
 */

/** How every page is written; the verifier and the gates hold a draft to these. */
export const HOUSE_RULES: readonly string[] = [
  'Write the page body in Markdown only: no front matter and no level-1 heading (the run adds the title).',
  'Use level-2 headings for the page sections listed in the brief, in their order; level 3 and 4 below them.',
  `Put each sentence on a line of its own. End every sentence that states a fact about the product with the markers of the evidence items it states, e.g. ${claimMarker('c_0123456789ab')}.`,
  'State only what the cited evidence says: every number, version, date, URL, option, flag, code span, identifier and name must appear in the cited evidence (or the product facts of this brief).',
  'Paraphrase freely, but do not add reasons, guarantees, comparisons or consequences the evidence does not state.',
  `Show code only by copying a listed snippet byte for byte, with its marker line ${snippetMarker('s_0123456789ab')} and a blank line above the fenced block; never shorten, edit or invent code.`,
  'A sentence that introduces a snippet (a lead-in) stays directly above that snippet.',
  'Link only to the pages listed under links, by their url_path.',
  'Do not repeat a sentence or a snippet on the same page, and do not open the page with another page’s opening.',
];

/** What no page may claim without evidence, whatever the product. */
const ALWAYS_UNSUPPORTED: readonly string[] = [
  'performance, benchmark, size or comparison figures',
  'compatibility with runtimes, platforms or versions',
  'security, support or stability guarantees',
  'plans, roadmaps or future releases',
];

/** Product facts a page may state when they are known, and how to name each one when it is not. */
const PRODUCT_FACTS: ReadonlyArray<{ field: keyof ProductFacts['product']; absent: string }> = [
  { field: 'version', absent: 'a version number' },
  { field: 'license', absent: 'a license' },
  { field: 'install_command', absent: 'an install command' },
  { field: 'repository_url', absent: 'a repository URL' },
  { field: 'package_name', absent: 'a package name' },
];

/** Claims about the product as a whole: any page may cite them, besides the claims its plan chose. */
const PRODUCT_CLAIM_KINDS: ReadonlySet<ClaimKind> = new Set([
  'package_name',
  'version',
  'license',
  'description',
  'install',
  'repository',
  'homepage',
]);

/** `README.md:12` or `README.md:12-14`. */
function sourceRef(evidence: Evidence): string {
  const lines =
    evidence.line_start === evidence.line_end
      ? String(evidence.line_start)
      : `${evidence.line_start}-${evidence.line_end}`;
  return `${evidence.path}:${lines}`;
}

/** The plan's outline as sections: the lead (before the first heading), then one per level-2 heading. */
function pageSections(page: PlannedPage): WritingBriefPage['sections'] {
  const sections: WritingBriefPage['sections'] = [{ heading: null, claim_ids: [], snippet_ids: [] }];
  for (const item of page.outline) {
    const current = sections[sections.length - 1]!;
    if (item.type === 'heading' && item.level === 2)
      sections.push({ heading: item.text, claim_ids: [], snippet_ids: [] });
    else if (item.type === 'claim' && !current.claim_ids.includes(item.claim_id))
      current.claim_ids.push(item.claim_id);
    else if (item.type === 'snippet' && !current.snippet_ids.includes(item.snippet_id))
      current.snippet_ids.push(item.snippet_id);
  }
  return sections.filter(
    (section) => section.heading !== null || section.claim_ids.length + section.snippet_ids.length > 0,
  );
}

export interface WritingBriefInputs {
  plan: PagePlan;
  facts: ProductFacts;
  evidence: EvidenceMap;
  catalog: SnippetCatalog;
}

export function buildWritingBrief({ plan, facts, evidence, catalog }: WritingBriefInputs): WritingBrief {
  const claims = new Map(facts.claims.map((claim) => [claim.claim_id, claim]));
  const snippets = new Map(catalog.snippets.map((snippet) => [snippet.snippet_id, snippet]));
  const productClaimIds = facts.claims
    .filter((claim) => PRODUCT_CLAIM_KINDS.has(claim.kind))
    .map((claim) => claim.claim_id);
  const leadIns = new Map<string, string>();
  for (const claim of facts.claims)
    for (const snippetId of claim.introduces ?? []) leadIns.set(snippetId, claim.claim_id);

  const evidenceItem = (claim: Claim): WritingBriefPage['evidence'][number] => ({
    claim_id: claim.claim_id,
    kind: claim.kind,
    quote: claim.text,
    topics: claim.topics,
    sources: (evidence.claims[claim.claim_id]?.evidence ?? []).map(sourceRef),
  });
  const snippetItem = (snippet: Snippet): WritingBriefPage['snippets'][number] => ({
    snippet_id: snippet.snippet_id,
    language: snippet.language,
    content: snippet.content,
    topics: snippet.topics,
    sources: snippet.provenance.map(sourceRef),
    lead_in_claim_id: leadIns.get(snippet.snippet_id) ?? null,
  });
  const pagesById = new Map(plan.pages.map((page) => [page.page_id, page]));
  const unknownFacts = PRODUCT_FACTS.filter(({ field }) => facts.product[field] === null).map(
    ({ absent }) => `${absent} (the evidence has none)`,
  );

  const pages = plan.pages.map((page): WritingBriefPage => {
    const citable = [...new Set([...page.claim_ids, ...productClaimIds])];
    const linked = page.outline.flatMap((item) => (item.type === 'links' ? item.page_ids : []));
    return {
      page_id: page.page_id,
      section: page.section,
      title: page.title,
      purpose: page.description,
      path: page.path,
      url_path: page.url_path,
      sections: pageSections(page),
      evidence: citable.flatMap((id) => {
        const claim = claims.get(id);
        return claim === undefined ? [] : [evidenceItem(claim)];
      }),
      snippets: page.snippet_ids.flatMap((id) => {
        const snippet = snippets.get(id);
        return snippet === undefined ? [] : [snippetItem(snippet)];
      }),
      links: linked.flatMap((id) => {
        const target = pagesById.get(id);
        return target === undefined
          ? []
          : [{ page_id: target.page_id, title: target.title, url_path: target.url_path }];
      }),
      must_not_claim: [...unknownFacts, ...ALWAYS_UNSUPPORTED],
    };
  });

  return {
    schema_version: '1.0',
    product: {
      name: facts.product.name,
      slug: facts.product.slug,
      package_name: facts.product.package_name,
      version: facts.product.version,
      license: facts.product.license,
      install_command: facts.product.install_command,
      repository_url: facts.product.repository_url,
    },
    markers: { claim: claimMarker('<claim_id>'), snippet: snippetMarker('<snippet_id>') },
    rules: [...HOUSE_RULES],
    pages,
  };
}

/** Writes `writing_brief.json` from the plan (W4) and the facts, evidence and snippets (W2, W3). */
export async function writeWritingBrief(ctx: WorkerContext): Promise<WritingBrief> {
  const plan = await readWorkerArtifact(ctx.artifacts, 'page_plan.json');
  const evidence = await readWorkerArtifact(ctx.artifacts, 'evidence_map.json');
  const { facts, catalog } = await readPlanningInputs(ctx.artifacts);
  throwIfCancelled(ctx.signal);
  const brief = buildWritingBrief({ plan, facts, evidence, catalog });
  await writeJsonArtifact(ctx.artifacts, 'writing_brief.json', brief);
  ctx.logger.info('wrote the writing brief', { pages: brief.pages.length });
  return brief;
}
