import { writeMarkdownArtifact } from './artifact-io.js';
import type { PagePlan, PlannedPage, RepoInventory } from './artifact-schemas.js';
import { throwIfCancelled } from './errors.js';
import { launchFrontMatter } from './front-matter-values.js';
import { renderBody, renderPage } from './render.js';
import { expectedKeys } from './site/archetypes.js';
import type { DraftResult, SectionProgress, WorkerContext } from './types.js';
import { readPlanningInputs, readWorkerArtifact } from './worker-artifacts.js';
import { workspacePaths } from './workspace.js';

/**
 * W5: one Markdown draft per planned page (`drafts/<section>/<file>.md`): YAML front matter with the keys
 * the site's archetype expects, then the outline rendered by deterministic templates, every factual line
 * ending with its claim marker and every code block citing its catalog snippet. Sections become DRAFTED.
 */
export async function draftPages(ctx: WorkerContext): Promise<DraftResult> {
  const { plan, inventory, bodyOf } = await extractiveDrafter(ctx);
  for (const page of plan.pages) {
    throwIfCancelled(ctx.signal);
    await writeDraft(ctx, page, inventory, bodyOf(page));
  }
  const sections: SectionProgress = {};
  for (const entry of plan.sections) sections[entry.section] = 'DRAFTED';
  ctx.logger.info('W5 drafted pages', { pages: plan.pages.length });
  return { sections };
}

/** What the extractive drafter needs of the run's artifacts, and the body it renders for a planned page. */
export async function extractiveDrafter(ctx: WorkerContext): Promise<{
  plan: PagePlan;
  inventory: RepoInventory;
  bodyOf: (page: PlannedPage) => string;
}> {
  const plan = await readWorkerArtifact(ctx.artifacts, 'page_plan.json');
  const { facts, catalog } = await readPlanningInputs(ctx.artifacts);
  const inventory = await readWorkerArtifact(ctx.artifacts, 'repo_inventory.json');
  const context = {
    claims: new Map(facts.claims.map((claim) => [claim.claim_id, claim])),
    snippets: new Map(catalog.snippets.map((snippet) => [snippet.snippet_id, snippet])),
    pages: new Map(plan.pages.map((page) => [page.page_id, page])),
  };
  return { plan, inventory, bodyOf: (page) => renderBody(page.outline, context, page.page_id) };
}

/**
 * A page's draft artifact (`page.draft`): the front matter the site's archetype expects, then `body`. Whoever
 * wrote the body (W5's templates, or the caller's model through launch_submit_draft), the page is the same.
 */
export async function writeDraft(
  ctx: WorkerContext,
  page: PlannedPage,
  inventory: RepoInventory,
  body: string,
): Promise<void> {
  const expected = await expectedKeys(workspacePaths(ctx.runDir).site, page.section);
  const frontMatter = launchFrontMatter(
    { title: page.title, description: page.description, weight: page.weight, urlPath: page.url_path },
    expected,
    ctx.config,
    inventory.source.committed_at,
  );
  await writeMarkdownArtifact(ctx.artifacts, page.draft, renderPage(frontMatter, body));
}
