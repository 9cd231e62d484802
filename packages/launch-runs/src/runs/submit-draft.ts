import { SwitchyardError } from '@switchyard/contracts/errors';
import type { LaunchSubmitDraftOutput } from '@switchyard/contracts/launch-runs';
import type { DraftVerdict, SubmittedDraft } from '../pipeline/types.js';
import { transitioned } from '../store/run-writes.js';
import type { Execution } from './executor.js';
import type { DraftIssue, DraftRecord } from './model/events.js';
import { pageRoundsOf } from './drafts.js';
import { illegalState, TOOL_RULES } from './tool-rules.js';

// One page of a model-drafting run, written by the caller's model and held by W5 to the page's evidence, in
// either of two ways with one verifier: launch_submit_draft, or the run's task asking the client's model
// (sampling). The last page in moves the run on as the extractive W5 does.

export type DraftOutcome = Omit<LaunchSubmitDraftOutput, 'ok' | 'run_id' | 'page'>;

/** The client's model's answer to the run's task asking for `page` in `round` (tasks/task-drafts.ts). */
export interface SampledDraft {
  page: string;
  round: number;
  /** The answer's text; undefined when the answer was no text (refused as such, in its round). */
  markdown: string | undefined;
}

function draftTooLarge(bytes: number, maxBytes: number): SwitchyardError {
  return new SwitchyardError(
    'validation',
    `The draft is ${bytes} bytes; a page may have ${maxBytes} at most`,
    {
      code: 'INVALID_INPUT',
      hint: 'Split the page, or ask the operator to raise LAUNCH_MAX_DRAFT_BYTES.',
      details: { reason: 'draft_too_large', bytes, max_bytes: maxBytes },
    },
  );
}

/** INVALID_INPUT for a draft over LAUNCH_MAX_DRAFT_BYTES, read before the run is touched. */
export function assertDraftSize(markdown: string, maxBytes: number): void {
  const bytes = Buffer.byteLength(markdown, 'utf8');
  if (bytes > maxBytes) throw draftTooLarge(bytes, maxBytes);
}

/** A sampled answer that is no draft at all, refused as a draft would be so the round counts. */
function shapeIssue(draft: { markdown: string | undefined }, maxBytes: number): DraftIssue | undefined {
  if (draft.markdown === undefined) {
    return {
      line: 1,
      sentence: '',
      code: 'NOT_A_DRAFT',
      message: 'Answer with the page body as one text content block (role assistant).',
    };
  }
  const bytes = Buffer.byteLength(draft.markdown, 'utf8');
  if (bytes <= maxBytes) return undefined;
  return { line: 1, sentence: '', code: 'DRAFT_TOO_LARGE', message: draftTooLarge(bytes, maxBytes).message };
}

/**
 * Verifies `draft` (W5) if the run waits for its page: accepted, it is the page's draft and the page is no
 * longer waited for; refused, nothing is stored and the issues say what to revise. The tool's draft of a page
 * the run does not wait for is refused (ILLEGAL_STATE). A sampled draft is undefined when it is stale (the page
 * is drafted already, or the answer is of another round): ignored, as the spec lets an acknowledged update be;
 * its refusal counts a round, and one in the page's last round (LAUNCH_DRAFT_MAX_ROUNDS) drafts the page extractively
 * instead, recorded with the refusal.
 */
export async function submitDraft(
  execution: Execution,
  draft: SubmittedDraft | SampledDraft,
): Promise<DraftOutcome | undefined> {
  const { deps, runId } = execution;
  const { page } = draft;
  const round = 'round' in draft ? draft.round : undefined;
  const rounds = await pageRoundsOf(deps.store, runId);
  const waiting = rounds.map((entry) => entry.page);
  const asked = rounds.find((entry) => entry.page === page);
  if (round !== undefined && asked?.round !== round) return undefined;
  if (asked === undefined) {
    throw illegalState({
      message: `Run ${runId} waits for no draft of page ${page}; it waits for: ${waiting.join(', ')}`,
      current: 'DRAFTING',
      rule: TOOL_RULES.launch_submit_draft,
      hint: 'Submit one of the pages of waiting_for_drafts (launch_get_status), by its page_id.',
      details: { reason: 'page_not_waiting', waiting_for_drafts: waiting },
    });
  }
  // The tool's draft was held to LAUNCH_MAX_DRAFT_BYTES before the run was touched (assertDraftSize).
  const shape = shapeIssue(draft, deps.maxDraftBytes);
  const outcome = await execution.runWorker(
    'W5',
    async (ctx): Promise<DraftVerdict & { fellBack: boolean }> => {
      const via = round === undefined ? 'tool' : 'sampling';
      const verdict =
        shape === undefined
          ? await deps.pipeline.acceptDraft(ctx, { page, markdown: draft.markdown!, via })
          : { accepted: false, issues: [shape] };
      const fellBack = round !== undefined && !verdict.accepted && round >= deps.draftMaxRounds;
      if (fellBack)
        await deps.pipeline.fallBackDraft(ctx, { page, rounds: round, reason: fallbackReason(verdict) });
      return { ...verdict, fellBack };
    },
    ({ accepted, issues, fellBack }): DraftRecord => {
      if (accepted) return { accepted_page: page };
      // The tool's refused draft is its caller's to revise: it counts no round.
      if (round === undefined) return {};
      return { refused_page: page, round, issues, ...(fellBack ? { fallback_page: page } : {}) };
    },
  );
  const drafted = outcome.accepted || outcome.fellBack;
  return {
    accepted: outcome.accepted,
    issues: outcome.issues,
    remaining_pages: await continueAfter(execution, waiting, drafted, page),
  };
}

/** Why a page fell back, for its provenance: the last refusal's codes. */
function fallbackReason({ issues }: DraftVerdict): string {
  const codes = [...new Set(issues.map((issue) => issue.code))].join(', ');
  return `the client's model's drafts were refused in every round allowed (LAUNCH_DRAFT_MAX_ROUNDS); the last for: ${codes}`;
}

/**
 * The pages still waited for once `page` is `drafted` or not; with none left the run moves to DRAFT_READY
 * and continues to link and validate within this call.
 */
async function continueAfter(
  execution: Execution,
  waiting: readonly string[],
  drafted: boolean,
  page: string,
): Promise<string[]> {
  const remaining = drafted ? waiting.filter((entry) => entry !== page) : [...waiting];
  if (remaining.length > 0) return remaining;
  const sections = Object.fromEntries(
    execution.config.required_sections.map((section) => [section, 'DRAFTED' as const]),
  );
  await execution.lease.append(transitioned('DRAFTING', 'DRAFT_READY', { section_states: sections }));
  await execution.advance('no step left');
  return remaining;
}
