import { SECTIONS, type Section } from '@switchyard/contracts/launch-runs';
import { writeJsonArtifact } from './artifact-io.js';
import type { OutlineItem, PagePlan, PlannedPage } from './artifact-schemas.js';
import { compareCodePoints } from '../canonical-json.js';
import { throwIfCancelled } from './errors.js';
import { coherentPages } from './page-coherence.js';
import { pagesFor } from './page-templates.js';
import { FactIndex, type PlanInputs } from './plan-outline.js';
import type { PlanResult, SectionProgress, WorkerContext } from './types.js';
import { readPlanningInputs } from './worker-artifacts.js';

export { snippetUsable } from './plan-outline.js';

/** Builds the plan from the facts and snippet catalog: pure, so the same inputs give the same plan. */
export function buildPagePlan(inputs: PlanInputs, sections: readonly Section[]): PagePlan {
  const index = new FactIndex(inputs.facts);
  const ordered = SECTIONS.filter((section) => sections.includes(section));
  const drafts = coherentPages(
    ordered.flatMap((section) => pagesFor(section, inputs, index)),
    inputs.facts.claims,
    inputs.name,
  );
  const byId = new Map(drafts.map((page) => [page.page_id, page]));
  const pages: PlannedPage[] = drafts.map((page) => {
    const related = page.related.filter((id) => byId.has(id) && id !== page.page_id);
    const outline: OutlineItem[] = [
      ...page.outline,
      ...(related.length > 0
        ? [{ type: 'links', heading: 'Related pages', page_ids: related } as OutlineItem]
        : []),
    ];
    const claimIds = [
      ...new Set(outline.flatMap((item) => (item.type === 'claim' ? [item.claim_id] : []))),
    ].sort(compareCodePoints);
    const snippetIds = [
      ...new Set(outline.flatMap((item) => (item.type === 'snippet' ? [item.snippet_id] : []))),
    ].sort(compareCodePoints);
    const fileName = page.file.slice(page.file.lastIndexOf('/') + 1);
    return {
      page_id: page.page_id,
      section: page.section,
      template: page.template,
      title: page.title,
      description: page.description,
      weight: page.weight,
      path: [inputs.contentRoot, page.section, page.file].join('/'),
      url_path: page.url_path,
      draft: `drafts/${page.section}/${fileName}`,
      claim_ids: claimIds,
      snippet_ids: snippetIds,
      links: related.map((id) => byId.get(id)!.url_path),
      outline,
    };
  });
  return {
    schema_version: '1.0',
    product: { slug: inputs.slug, name: inputs.name },
    content_root: inputs.contentRoot,
    sections: ordered.map((section) => ({
      section,
      page_ids: pages.filter((page) => page.section === section).map((page) => page.page_id),
    })),
    pages,
  };
}

/** Normalised content root: relative, POSIX, without leading/trailing slashes or `./`. */
export function contentRootOf(value: string): string {
  return (
    value
      .replace(/\\/g, '/')
      .replace(/^\.\//, '')
      .replace(/^\/+|\/+$/g, '') || 'content'
  );
}

/** W4: the page plan per required section. Sections become OUTLINED. */
export async function planPages(ctx: WorkerContext): Promise<PlanResult> {
  const { facts, catalog } = await readPlanningInputs(ctx.artifacts);
  throwIfCancelled(ctx.signal);
  const plan = buildPagePlan(
    {
      facts,
      snippets: catalog.snippets,
      slug: ctx.config.product_slug,
      name: ctx.config.product_name,
      contentRoot: contentRootOf(ctx.config.site.content_root),
    },
    ctx.config.required_sections,
  );
  await writeJsonArtifact(ctx.artifacts, 'page_plan.json', plan);
  const sections: SectionProgress = {};
  for (const section of ctx.config.required_sections) sections[section] = 'OUTLINED';
  ctx.logger.info('W4 planned pages', { pages: plan.pages.length });
  return { sections };
}
