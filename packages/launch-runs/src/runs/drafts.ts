import type { RunRow } from '../db/schema.js';
import type { RunEvent } from '../store/event-chain.js';
import type { EventMatch, LaunchStore } from '../store/launch-store.js';
import type { DraftIssue, DraftRecord } from './model/events.js';

// A run of run_config.drafting "model" rests in DRAFTING while the caller's model writes its pages: its
// STATE_CHANGED into DRAFTING names the pages (waiting_for_drafts), and each W5 work item records what became
// of a draft (WORK_ITEM_FINISHED, DraftRecord): accepted, or, asked for by the run's task, refused in a round
// and perhaps replaced by the extractive draft. The events are the record; nothing else holds it, so the rounds
// survive a restart and a takeover as the run does.

/** Whether the run rests in DRAFTING waiting for drafts (a model-drafting run records it as where it rests). */
export function waitsForDrafts(row: Pick<RunRow, 'state' | 'lastStableState'>): boolean {
  return row.state === 'DRAFTING' && row.lastStableState === 'DRAFTING';
}

/** A page the run waits for, as the run's task asks the client's model for it. */
export interface PageRound {
  page: string;
  /** The round its next draft is asked in: 1, then one more after each refused sampled draft. */
  round: number;
  /** The issues of the draft refused in the previous round; [] in round 1. */
  issues: DraftIssue[];
}

/** The STATE_CHANGED the rounds start at: the events before the run's latest entry into DRAFTING say nothing. */
const ENTERED_DRAFTING: EventMatch = { type: 'STATE_CHANGED', to: 'DRAFTING' };

/** pageRounds of the run, read from its latest entry into DRAFTING on (not its whole log). */
export async function pageRoundsOf(
  store: Pick<LaunchStore, 'eventsFrom'>,
  runId: string,
): Promise<PageRound[]> {
  return pageRounds(await store.eventsFrom(runId, ENTERED_DRAFTING));
}

/** Every page the run still waits for, in the brief's order, with its sampling round. */
export function pageRounds(events: readonly RunEvent[]): PageRound[] {
  let waiting: PageRound[] = [];
  for (const { type, payload } of events) {
    if (type === 'STATE_CHANGED' && payload.to === 'DRAFTING') {
      const pages = payload.waiting_for_drafts;
      waiting = (Array.isArray(pages) ? pages : [])
        .filter((page): page is string => typeof page === 'string')
        .map((page) => ({ page, round: 1, issues: [] }));
    } else if (type === 'WORK_ITEM_FINISHED') {
      const record = payload as DraftRecord;
      const drafted = record.accepted_page ?? record.fallback_page;
      if (drafted !== undefined) waiting = waiting.filter((entry) => entry.page !== drafted);
      else if (record.refused_page !== undefined) {
        waiting = waiting.map((entry) =>
          entry.page === record.refused_page
            ? { page: entry.page, round: entry.round + 1, issues: record.issues ?? [] }
            : entry,
        );
      }
    }
  }
  return waiting;
}
