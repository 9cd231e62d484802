import type { RunRow } from '../db/schema.js';
import type { RunEvent } from '../store/event-chain.js';

// A run of run_config.drafting "model" rests in DRAFTING while the caller's model writes its pages: its
// STATE_CHANGED into DRAFTING names the pages (waiting_for_drafts), and each W5 work item that accepted a
// draft names its page (WORK_ITEM_FINISHED accepted_page). The events are the record; nothing else holds it.

/** Whether the run rests in DRAFTING waiting for drafts (a model-drafting run records it as where it rests). */
export function waitsForDrafts(row: Pick<RunRow, 'state' | 'lastStableState'>): boolean {
  return row.state === 'DRAFTING' && row.lastStableState === 'DRAFTING';
}

/** The pages the run still waits for: those it entered DRAFTING waiting for, less the drafts accepted since. */
export function pagesWaiting(events: readonly RunEvent[]): string[] {
  let waiting: string[] = [];
  for (const { type, payload } of events) {
    if (type === 'STATE_CHANGED' && payload.to === 'DRAFTING') {
      const pages = payload.waiting_for_drafts;
      waiting = Array.isArray(pages) ? pages.filter((page): page is string => typeof page === 'string') : [];
    } else if (type === 'WORK_ITEM_FINISHED' && typeof payload.accepted_page === 'string') {
      const accepted = payload.accepted_page;
      waiting = waiting.filter((page) => page !== accepted);
    }
  }
  return waiting;
}
