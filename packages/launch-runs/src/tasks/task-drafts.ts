import { SwitchyardError } from '@switchyard/contracts/errors';
import { ask, sampledText, type TaskSnapshot } from '@switchyard/server-kit';
import type { Logger } from '@switchyard/server-kit/runtime';
import { WritingBriefSchema, type WritingBrief } from '../pipeline/artifact-schemas.js';
import type { ArtifactRepository } from '../store/artifact-store.js';
import type { LaunchStore } from '../store/launch-store.js';
import type { PageRound } from '../runs/drafts.js';
import type { SampledDraft } from '../runs/submit-draft.js';

// A model-drafting run's task whose creating request declared the client's `sampling` capability asks the
// client's model for the pages itself: `input_required` with one sampling/createMessage request per page the
// run waits for, keyed by page and round; the answers (tasks/update) go through launch_submit_draft's verifier.

const BRIEF = 'writing_brief.json';

/** `draft/r<round>/<page_id>`: a key names the page and the round it was asked in. */
export function draftRequestKey({ page, round }: Pick<PageRound, 'page' | 'round'>): string {
  return `draft/r${round}/${page}`;
}

/** What a page's request says: write from the page's brief entry, and revise what the last round's issues name. */
function requestText(brief: WritingBrief, { page, round, issues }: PageRound): string {
  const entry = brief.pages.find((candidate) => candidate.page_id === page)!;
  const lines = [
    `Write the body of the page "${entry.title}" (page_id ${page}) of the ${brief.product.name} documentation ` +
      'in Markdown, from its entry of the writing brief below and nothing else. Answer with the page body only.',
    `Claim marker: ${brief.markers.claim}. Snippet marker: ${brief.markers.snippet}.`,
    `Product facts any page may state: ${JSON.stringify(brief.product)}`,
    "The page's entry of the writing brief:",
    `\`\`\`\`json\n${JSON.stringify(entry, null, 2)}\n\`\`\`\``,
  ];
  if (issues.length > 0) {
    lines.push(
      `Your draft of round ${round - 1} was refused. Write the page again, revising exactly the sentences these ` +
        'issues name, as each message says:',
      issues
        .map(
          ({ line, sentence, code, message }) =>
            `- line ${line} [${code}] ${JSON.stringify(sentence)}: ${message}`,
        )
        .join('\n'),
    );
  }
  return lines.join('\n\n');
}

/**
 * Runs whose writing brief stays parsed. A brief is read only while its run's task asks for drafts, on every
 * poll of it (each open notifications/tasks listen polls too); a few dozen such runs at once is a busy server,
 * and a run that drops out costs one read again.
 */
const BRIEFS_KEPT = 32;

export interface TaskDraftsDeps {
  artifacts: Pick<ArtifactRepository, 'read'>;
  /** The artifact index: whether the kept brief is the run's writing_brief.json still (its sha256). */
  index: Pick<LaunchStore, 'artifact'>;
  /** The run service's sampled draft path (LaunchRunService.submitDraft). */
  submit(runId: string, draft: SampledDraft): Promise<unknown>;
  /** LAUNCH_DRAFT_MAX_TOKENS. */
  maxTokens: number;
  logger: Logger;
}

/** The sampling side of a launch task: its input requests, and its answers handed to the run. */
export class TaskDrafts {
  /** The parsed writing briefs of the runs polled last, least recently used first, by the sha256 read. */
  private readonly briefs = new Map<string, { sha256: string; brief: WritingBrief }>();

  constructor(private readonly deps: TaskDraftsDeps) {}

  /** One sampling/createMessage request per page waiting: the brief entry as the message, the rules as system. */
  async requests(
    runId: string,
    waiting: readonly PageRound[],
  ): Promise<NonNullable<TaskSnapshot['inputRequests']>> {
    const brief = await this.brief(runId);
    const systemPrompt = [
      'You write documentation pages in which every sentence is held to its evidence. The rules of the house:',
      ...brief.rules.map((rule, index) => `${index + 1}. ${rule}`),
    ].join('\n');
    return Object.fromEntries(
      waiting.map((entry) => [
        draftRequestKey(entry),
        ask.sample({
          messages: [{ role: 'user', content: { type: 'text', text: requestText(brief, entry) } }],
          systemPrompt,
          maxTokens: this.deps.maxTokens,
        }),
      ]),
    );
  }

  /**
   * The client's answers to the requests of `waiting` (as `requests` keyed them) go through the verifier, one
   * page at a time; any other key (one the run never made, of an earlier round, of a page drafted since) is
   * ignored, and so is an answer the run refuses as launch_submit_draft would (it moved on, another executor
   * holds it): the task asks again while the page waits.
   */
  async answer(
    runId: string,
    waiting: readonly PageRound[],
    inputResponses: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const input = { clientCapabilities: {}, inputResponses, requestState: undefined };
    for (const { page, round } of waiting) {
      const key = draftRequestKey({ page, round });
      if (!Object.hasOwn(inputResponses, key)) continue;
      try {
        await this.deps.submit(runId, { page, round, markdown: sampledText(input, key) });
      } catch (error) {
        if (!(error instanceof SwitchyardError)) throw error;
        this.deps.logger.info('a sampled draft was not taken', {
          run_id: runId,
          page,
          round,
          code: error.code,
        });
      }
    }
  }

  /**
   * The run's writing brief: kept parsed while its index entry names the bytes it was parsed from (W4 writes
   * it once per run; the one-row index read catches any rewrite), else read, checked and parsed again.
   */
  private async brief(runId: string): Promise<WritingBrief> {
    const indexed = await this.deps.index.artifact(runId, BRIEF);
    const kept = this.briefs.get(runId);
    this.briefs.delete(runId);
    if (kept !== undefined && kept.sha256 === indexed?.sha256) {
      this.briefs.set(runId, kept);
      return kept.brief;
    }
    const content = await this.deps.artifacts.read(runId, BRIEF);
    if (content === undefined) throw new Error(`run ${runId} waits for drafts without ${BRIEF}`);
    const brief = WritingBriefSchema.parse(JSON.parse(Buffer.from(content.bytes).toString('utf8')));
    this.briefs.set(runId, { sha256: content.sha256, brief });
    if (this.briefs.size > BRIEFS_KEPT) this.briefs.delete(this.briefs.keys().next().value!);
    return brief;
  }
}
