import type { RunRow } from '../db/schema.js';
import type { RunEvent } from '../store/event-chain.js';
import type { PageRound } from '../runs/drafts.js';
import type { StateChanged } from '../runs/model/events.js';
import { WORKER_NAMES, type WorkerId } from '../runs/worker-ids.js';

type GateResult = { name: string; ok: boolean; skipped: boolean };

/** The newest event `test` accepts. */
function lastOf(events: readonly RunEvent[], test: (event: RunEvent) => boolean): RunEvent | undefined {
  for (let at = events.length - 1; at >= 0; at--) if (test(events[at]!)) return events[at];
  return undefined;
}

/** The gates' results of the latest validation: `gates 9/10 passed (site-build failed)`. */
function gatesLine(events: readonly RunEvent[]): string | undefined {
  const validation = lastOf(events, (event) => event.type === 'VALIDATION_RECORDED');
  const gates = (validation?.payload as { gates?: GateResult[] } | undefined)?.gates;
  if (gates === undefined) return undefined;
  const ran = gates.filter((gate) => !gate.skipped);
  const failed = ran.filter((gate) => !gate.ok).map((gate) => gate.name);
  const passed = `gates ${ran.length - failed.length}/${ran.length} passed`;
  return failed.length === 0 ? passed : `${passed} (${failed.join(', ')} failed)`;
}

/** `fix attempt n of m`, from the STATE_CHANGED that entered the latest fix. */
function fixLine(events: readonly RunEvent[]): string | undefined {
  const entered = lastOf(
    events,
    (event) => event.type === 'STATE_CHANGED' && (event.payload as StateChanged).to === 'FIXING',
  );
  const change = entered?.payload as StateChanged | undefined;
  if (change?.attempt === undefined) return undefined;
  return change.max_fix_attempts === undefined
    ? `fix attempt ${change.attempt}`
    : `fix attempt ${change.attempt} of ${change.max_fix_attempts}`;
}

/**
 * What the run is doing, for people (a task's statusMessage): its state, the worker running, the fix attempt
 * and the latest gate results, from its events: `DRAFTING: W5 draft running`, `VALIDATING: fix attempt 2 of 5;
 * gates 9/10 passed (site-build failed)`.
 */
export function runActivity(
  row: Pick<RunRow, 'state' | 'activeWorker'>,
  events: readonly RunEvent[],
): string {
  const worker = row.activeWorker as WorkerId | null;
  const parts = [
    worker === null ? undefined : `${worker} (${WORKER_NAMES[worker]}) running`,
    fixLine(events),
    gatesLine(events),
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
