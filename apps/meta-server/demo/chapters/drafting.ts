import type { Client } from '@modelcontextprotocol/client';
import { LaunchSubmitDraftOutputSchema, type RunConfigInput } from '@switchyard/contracts/launch-runs';
import { exampleRunConfig, materializeExampleRepos, quotingDraft } from '@switchyard/launch-runs';
import { callTool } from '../call.js';
import { chapter, line, step } from '../print.js';
import { POLL_MS, readArtifact, restsForClient, startRun, watchRun } from '../launch-run.js';

/** A page of writing_brief.json, as far as this chapter and the scripted writer read it. */
type BriefPage = Parameters<typeof quotingDraft>[0] & { page_id: string; title: string };
interface WritingBrief {
  product: { version: string };
  rules: string[];
  pages: BriefPage[];
}
interface DraftProvenance {
  pages: Record<
    string,
    { written_by: string; via?: keyof typeof CHANNELS; sentences: { accepted: boolean }[] }
  >;
}

/** How a model's page reached the run, by draft_provenance.json's `via`. */
const CHANNELS: Record<'tool' | 'sampling', string> = {
  tool: 'through launch_submit_draft',
  sampling: "through the run's task (sampling)",
};

/**
 * The scripted writer's faithful page with one fact made up: the sentence stating the product's version names
 * the next major version instead, still citing the evidence item that states the real one.
 */
function withWrongVersion(
  page: BriefPage,
  faithful: string,
  version: string,
): { draft: string; planted: string; cited: BriefPage['evidence'][number] } {
  const fact = page.evidence.find((item) => item.kind === 'version' && item.quote.includes(version));
  if (fact === undefined) throw new Error(`the brief of ${page.page_id} states no version to get wrong`);
  const wrong = `${Number(version.split('.')[0]) + 1}.0.0`;
  const planted = fact.quote.replace(version, wrong);
  return { draft: faithful.replace(fact.quote, planted), planted, cited: fact };
}

/** Submits a page and tells the verdict; a verdict other than the one the story expects stops the demo. */
async function submitDraft(
  client: Client,
  runId: string,
  page: string,
  markdown: string,
  expected: 'accepted' | 'refused',
): Promise<void> {
  const verdict = await callTool(
    client,
    'launch_submit_draft',
    { run_id: runId, page, markdown },
    LaunchSubmitDraftOutputSchema,
  );
  const left = verdict.remaining_pages.length;
  if (verdict.accepted) {
    line(`${page}: accepted; ${left === 0 ? 'no page left' : `${left} page(s) left`}`);
  } else {
    line(`${page}: refused, nothing stored:`);
    for (const issue of verdict.issues) {
      line(`- line ${issue.line} [${issue.code}] "${issue.sentence}"`, 2);
      line(issue.message, 3);
    }
  }
  if (verdict.accepted !== (expected === 'accepted')) {
    throw new Error(
      `the verifier ${verdict.accepted ? 'accepted' : 'refused'} a draft of ${page} it should have ${expected}`,
    );
  }
}

/** A run that waits for the assistant's model to write its pages, each sentence held to what it cites. */
export async function draftingRun(client: Client, workDir: string): Promise<void> {
  chapter(
    '5. Writing with your model: every sentence held to its evidence',
    'The same product, but the run leaves the writing to the assistant: it publishes a writing brief and\n' +
      'waits. Each page the assistant submits is checked sentence by sentence against the evidence it cites.',
  );
  const runConfig: RunConfigInput = {
    ...exampleRunConfig(await materializeExampleRepos(workDir)),
    drafting: 'model',
  };

  step('launch_start_run', 'product tallyho, drafting "model"');
  const runId = await startRun(client, runConfig, 'demo-tallyho-drafting-1');

  step('launch_get_status', `polled every ${POLL_MS} ms until the run waits for drafts`);
  const waiting = await watchRun(
    client,
    runId,
    (status) => status.state === 'DRAFTING' && (status.waiting_for_drafts?.length ?? 0) > 0,
  );
  line(`waiting for ${waiting.waiting_for_drafts!.join(', ')}`);

  step('launch_get_artifact', 'writing_brief.json: what each page may say, and the house rules');
  const brief = JSON.parse(await readArtifact(client, runId, 'writing_brief.json')) as WritingBrief;
  for (const page of brief.pages) {
    line(
      `${page.page_id} "${page.title}": ${page.evidence.length} evidence items, ${page.snippets.length} snippet(s)`,
    );
  }
  line(`${brief.rules.length} house rules, among them:`);
  line(
    brief.rules.find((rule) => rule.startsWith('State only what'))!,
    2,
  );

  const [first, ...others] = brief.pages.filter((page) => waiting.waiting_for_drafts!.includes(page.page_id));
  if (first === undefined) throw new Error('the brief lists none of the pages the run waits for');
  const faithful = quotingDraft(first);
  const { draft, planted, cited } = withWrongVersion(first, faithful, brief.product.version);
  step('launch_submit_draft', `${first.page_id}, by the scripted writer with one made-up fact`);
  line(`planted: "${planted}" citing ${cited.claim_id}, which says "${cited.quote}"`);
  await submitDraft(client, runId, first.page_id, draft, 'refused');

  step('launch_submit_draft', `${first.page_id} again, the sentence revised to what its evidence says`);
  await submitDraft(client, runId, first.page_id, faithful, 'accepted');

  step('launch_submit_draft', 'the other pages, by the scripted writer');
  for (const page of others) await submitDraft(client, runId, page.page_id, quotingDraft(page), 'accepted');

  step('launch_get_status', 'the run links the pages into the site and validates them');
  const rested = await watchRun(client, runId, restsForClient);
  line(`${rested.artifacts.length} artifacts written, ${rested.open_issues.length} open issue(s):`);
  for (const issue of rested.open_issues) line(`- [${issue.severity}] ${issue.gate}: ${issue.title}`, 2);
  line('from here on the run goes as in chapter 4: launch_fix_next, then launch_open_pr');

  step('launch_get_artifact', 'draft_provenance.json: who wrote each page');
  const provenance = JSON.parse(
    await readArtifact(client, runId, 'draft_provenance.json'),
  ) as DraftProvenance;
  for (const [page, record] of Object.entries(provenance.pages)) {
    const supported = record.sentences.filter((sentence) => sentence.accepted).length;
    const writer =
      record.via === undefined ? record.written_by : `${record.written_by}, ${CHANNELS[record.via]}`;
    line(`${page}: written by the ${writer}; ${supported} of ${record.sentences.length} sentences supported`);
  }
}
