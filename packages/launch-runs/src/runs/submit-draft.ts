import { SwitchyardError } from '@switchyard/contracts/errors';
import type { LaunchSubmitDraftOutput } from '@switchyard/contracts/launch-runs';
import type { SubmittedDraft } from '../pipeline/types.js';
import { transitioned } from '../store/run-writes.js';
import type { Execution } from './executor.js';
import { pagesWaiting } from './drafts.js';
import { illegalState, TOOL_RULES } from './tool-rules.js';

// launch_submit_draft: one page of a model-drafting run, written by the caller's model, held by W5 to the
// page's evidence. The last page accepted moves the run on as the extractive W5 does.

export type DraftOutcome = Omit<LaunchSubmitDraftOutput, 'ok' | 'run_id' | 'page'>;

/** INVALID_INPUT for a draft over LAUNCH_MAX_DRAFT_BYTES, read before the run is touched. */
export function assertDraftSize(markdown: string, maxBytes: number): void {
  const bytes = Buffer.byteLength(markdown, 'utf8');
  if (bytes <= maxBytes) return;
  throw new SwitchyardError(
    'validation',
    `The draft is ${bytes} bytes; a page may have ${maxBytes} at most`,
    {
      code: 'INVALID_INPUT',
      hint: 'Split the page, or ask the operator to raise LAUNCH_MAX_DRAFT_BYTES.',
      details: { reason: 'draft_too_large', bytes, max_bytes: maxBytes },
    },
  );
}

/**
 * Verifies `draft` (W5) if the run waits for its page: accepted, it is the page's draft and the page is no
 * longer waited for; refused, nothing is stored and the issues say what to revise. When no page is left the
 * run moves to DRAFT_READY and continues to link and validate within this call.
 */
export async function submitDraft(execution: Execution, draft: SubmittedDraft): Promise<DraftOutcome> {
  const { deps, runId, lease, config } = execution;
  const waiting = pagesWaiting(await deps.store.events(runId));
  if (!waiting.includes(draft.page)) {
    throw illegalState({
      message: `Run ${runId} waits for no draft of page ${draft.page}; it waits for: ${waiting.join(', ')}`,
      current: 'DRAFTING',
      rule: TOOL_RULES.launch_submit_draft,
      hint: 'Submit one of the pages of waiting_for_drafts (launch_get_status), by its page_id.',
      details: { reason: 'page_not_waiting', waiting_for_drafts: waiting },
    });
  }
  const verdict = await execution.runWorker(
    'W5',
    (ctx) => deps.pipeline.acceptDraft(ctx, draft),
    ({ accepted }) => (accepted ? { accepted_page: draft.page } : {}),
  );
  const remaining = verdict.accepted ? waiting.filter((page) => page !== draft.page) : waiting;
  if (remaining.length === 0) {
    const drafted = Object.fromEntries(
      config.required_sections.map((section) => [section, 'DRAFTED' as const]),
    );
    await lease.append(transitioned('DRAFTING', 'DRAFT_READY', { section_states: drafted }));
    await execution.advance('no step left');
  }
  return { accepted: verdict.accepted, issues: verdict.issues, remaining_pages: remaining };
}
