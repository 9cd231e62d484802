import { verifierBriefFor } from '../verifier/brief.js';
import { verifyPage } from '../verifier/verify.js';
import { writeJsonArtifact } from './artifact-io.js';
import type { DraftProvenance } from './artifact-schemas.js';
import { writeDraft } from './draft.js';
import { invalidArtifact, throwIfCancelled } from './errors.js';
import type { BriefResult, DraftVerdict, SubmittedDraft, WorkerContext } from './types.js';
import { readWorkerArtifact } from './worker-artifacts.js';
import { writeWritingBrief } from './writing-brief.js';

// W5 when run_config.drafting is "model": the run publishes the writing brief, and the caller's model writes
// the pages, each held to its page's evidence by the verifier before it becomes the page's draft.

const PROVENANCE = 'draft_provenance.json' as const;

export async function publishWritingBrief(ctx: WorkerContext): Promise<BriefResult> {
  const brief = await writeWritingBrief(ctx);
  return { page_ids: brief.pages.map((page) => page.page_id) };
}

export async function acceptDraft(
  ctx: WorkerContext,
  { page, markdown }: SubmittedDraft,
): Promise<DraftVerdict> {
  const brief = await readWorkerArtifact(ctx.artifacts, 'writing_brief.json');
  const plan = await readWorkerArtifact(ctx.artifacts, 'page_plan.json');
  const evidence = verifierBriefFor(brief, page);
  const planned = plan.pages.find((entry) => entry.page_id === page);
  if (evidence === undefined || planned === undefined)
    throw invalidArtifact('writing_brief.json', `the brief or the plan has no page ${page}`);
  const result = verifyPage(markdown, evidence);
  if (!result.accepted) return { accepted: false, issues: result.issues };
  const inventory = await readWorkerArtifact(ctx.artifacts, 'repo_inventory.json');
  throwIfCancelled(ctx.signal);
  await writeDraft(ctx, planned, inventory, markdown.trimEnd());
  const provenance: DraftProvenance =
    (await ctx.artifacts.read(PROVENANCE)) === undefined
      ? { schema_version: '1.0', pages: {} }
      : await readWorkerArtifact(ctx.artifacts, PROVENANCE);
  provenance.pages[page] = { written_by: 'model', sentences: result.sentences };
  await writeJsonArtifact(ctx.artifacts, PROVENANCE, provenance);
  ctx.logger.info('W5 accepted a model draft', { page, sentences: result.sentences.length });
  return { accepted: true, issues: [] };
}
