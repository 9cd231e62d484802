import type { RunRow } from '../db/schema.js';
import type { RunEvent } from '../store/event-chain.js';
import type { EventMatch, LaunchStore } from '../store/launch-store.js';
import type { PageRound } from '../runs/drafts.js';
import type { StateChanged } from '../runs/model/events.js';
import { WORKER_NAMES, type WorkerId } from '../runs/worker-ids.js';

type GateResult = { name: string; ok: boolean; skipped: boolean };

/** The events runActivity reads: the newest of each, never the whole log (a task's status is polled). */
export const ACTIVITY_EVENTS = {
  /** The latest validation's gate results. */
  validation: { type: 'VALIDATION_RECORDED' },
  /** The STATE_CHANGED that entered the latest fix. */
  enteredFix: { type: 'STATE_CHANGED', to: 'FIXING' },
} as const satisfies Record<string, EventMatch>;

/** The newest event of each of ACTIVITY_EVENTS (undefined: none yet). */
export type ActivityEvents = Record<keyof typeof ACTIVITY_EVENTS, RunEvent | undefined>;

/** The gates' results of the latest validation: `gates 9/10 passed (site-build failed)`. */
function gatesLine(validation: RunEvent | undefined): string | undefined {
  const gates = (validation?.payload as { gates?: GateResult[] } | undefined)?.gates;
  if (gates === undefined) return undefined;
  const ran = gates.filter((gate) => !gate.skipped);
  const failed = ran.filter((gate) => !gate.ok).map((gate) => gate.name);
  const passed = `gates ${ran.length - failed.length}/${ran.length} passed`;
  return failed.length === 0 ? passed : `${passed} (${failed.join(', ')} failed)`;
}

/** `fix attempt n of m`, from the STATE_CHANGED that entered the latest fix. */
function fixLine(enteredFix: RunEvent | undefined): string | undefined {
  const change = enteredFix?.payload as StateChanged | undefined;
  if (change?.attempt === undefined) return undefined;
  return change.max_fix_attempts === undefined
    ? `fix attempt ${change.attempt}`
    : `fix attempt ${change.attempt} of ${change.max_fix_attempts}`;
}

/** The newest of each of ACTIVITY_EVENTS in the run's log. */
export async function activityEvents(
  store: Pick<LaunchStore, 'lastEvent'>,
  runId: string,
): Promise<ActivityEvents> {
  const [validation, enteredFix] = await Promise.all([
    store.lastEvent(runId, ACTIVITY_EVENTS.validation),
    store.lastEvent(runId, ACTIVITY_EVENTS.enteredFix),
  ]);
  return { validation, enteredFix };
}

/**
 * What the run is doing, for people (a task's statusMessage): its state, the worker running, the fix attempt
 * and the latest gate results, from its events: `DRAFTING: W5 draft running`, `VALIDATING: fix attempt 2 of 5;
 * gates 9/10 passed (site-build failed)`.
 */
export function runActivity(row: Pick<RunRow, 'state' | 'activeWorker'>, latest: ActivityEvents): string {
  const worker = row.activeWorker as WorkerId | null;
  const parts = [
    worker === null ? undefined : `${worker} (${WORKER_NAMES[worker]}) running`,
    fixLine(latest.enteredFix),
    gatesLine(latest.validation),
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? row.state : `${row.state}: ${parts.join('; ')}`;
}

/**
 * What a run waiting for the client's model does, for people: `DRAFTING: waiting for the client's model to
 * write docs/usage (round 2), ...`.
 */
export function draftsActivity(row: Pick<RunRow, 'state'>, asked: readonly PageRound[]): string {
  const pages = asked.map(({ page, round }) => `${page} (round ${round})`).join(', ');
  return `${row.state}: waiting for the client's model to write ${pages}`;
}
