import { parsePage } from '../gates/page-doc.js';
import { verifierBriefFor } from '../verifier/brief.js';
import { verifyPage } from '../verifier/verify.js';
import { writeJsonArtifact } from './artifact-io.js';
import type { DraftProvenance } from './artifact-schemas.js';
import { extractiveDrafter, writeDraft } from './draft.js';
import { invalidArtifact, throwIfCancelled } from './errors.js';
import type { BriefResult, DraftFallback, DraftVerdict, SubmittedDraft, WorkerContext } from './types.js';
import { readWorkerArtifact } from './worker-artifacts.js';
import { writeWritingBrief } from './writing-brief.js';

// W5 when run_config.drafting is "model": the run publishes the writing brief, and the caller's model writes
// the pages, each held to its page's evidence by the verifier before it becomes the page's draft.

const PROVENANCE = 'draft_provenance.json' as const;

/**
 * What the run writes itself, refused in a body: its own front matter or a level-1 heading would give the page
 * two (the run writes the front matter and the title from the plan).
 */
function bodyShapeIssues(markdown: string): DraftVerdict['issues'] {
  const page = parsePage('draft.md', markdown);
  const issues: DraftVerdict['issues'] = [];
  if (page.frontMatter.present && page.frontMatter.endLine > 0) {
    issues.push({
      line: 1,
      sentence: page.lines[0] ?? '',
      code: 'FRONT_MATTER',
      message: 'Leave the front matter out: the run writes it from the page plan.',
    });
  }
  for (const block of page.doc.blocks) {
    if (block.type !== 'heading' || block.level !== 1) continue;
    issues.push({
      line: block.startLine,
      sentence: page.lines[block.startLine - 1] ?? '',
      code: 'TITLE_HEADING',
      message: "Leave the level-1 heading out: the run adds the page's title; sections start at level 2.",
    });
  }
  return issues;
}

export async function publishWritingBrief(ctx: WorkerContext): Promise<BriefResult> {
  const brief = await writeWritingBrief(ctx);
  return { page_ids: brief.pages.map((page) => page.page_id) };
}

export async function acceptDraft(ctx: WorkerContext, draft: SubmittedDraft): Promise<DraftVerdict> {
  const { page, markdown } = draft;
  const brief = await readWorkerArtifact(ctx.artifacts, 'writing_brief.json');
  const plan = await readWorkerArtifact(ctx.artifacts, 'page_plan.json');
  const evidence = verifierBriefFor(brief, page);
  const planned = plan.pages.find((entry) => entry.page_id === page);
  if (evidence === undefined || planned === undefined)
    throw invalidArtifact('writing_brief.json', `the brief or the plan has no page ${page}`);
  const result = verifyPage(markdown, evidence);
  const issues = [...bodyShapeIssues(markdown), ...result.issues].sort((a, b) => a.line - b.line);
  if (issues.length > 0) return { accepted: false, issues };
  const inventory = await readWorkerArtifact(ctx.artifacts, 'repo_inventory.json');
  throwIfCancelled(ctx.signal);
  await writeDraft(ctx, planned, inventory, markdown.trimEnd());
  const via = draft.via ?? 'tool';
  await recordProvenance(ctx, page, { written_by: 'model', via, sentences: result.sentences });
  ctx.logger.info('W5 accepted a model draft', { page, via, sentences: result.sentences.length });
  return { accepted: true, issues: [] };
}

/** The page's extractive draft, for a page the caller's model did not write within its rounds. */
export async function fallBackDraft(
  ctx: WorkerContext,
  { page, rounds, reason }: DraftFallback,
): Promise<void> {
  const { plan, inventory, bodyOf } = await extractiveDrafter(ctx);
  const planned = plan.pages.find((entry) => entry.page_id === page);
  if (planned === undefined) throw invalidArtifact('page_plan.json', `the plan has no page ${page}`);
  throwIfCancelled(ctx.signal);
  await writeDraft(ctx, planned, inventory, bodyOf(planned));
  await recordProvenance(ctx, page, {
    written_by: 'extractive',
    fallback: { rounds, reason },
    sentences: [],
  });
  ctx.logger.info('W5 drafted a page extractively after the model', { page, rounds });
}

/** Who wrote `page`, into `draft_provenance.json` (created with the first page). */
async function recordProvenance(
  ctx: WorkerContext,
  page: string,
  entry: DraftProvenance['pages'][string],
): Promise<void> {
  const provenance: DraftProvenance =
    (await ctx.artifacts.read(PROVENANCE)) === undefined
      ? { schema_version: '1.0', pages: {} }
      : await readWorkerArtifact(ctx.artifacts, PROVENANCE);
  provenance.pages[page] = entry;
  await writeJsonArtifact(ctx.artifacts, PROVENANCE, provenance);
}
