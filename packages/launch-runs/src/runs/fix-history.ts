// What a run's event log says of its fixes: the ones written, and one a dead process left half done.
import type { RunEvent } from '../store/event-chain.js';
import type { EventMatch, LaunchStore } from '../store/launch-store.js';
import type { FixIntent } from './model/events.js';

/**
 * The fixes a run's events record as written, in order (each FIX_APPLIED with its FIX_APPLYING intent), and
 * the one a FIX_APPLYING announced last without its FIX_APPLIED.
 */
export function fixHistory(events: readonly RunEvent[]): { applied: FixIntent[]; pending?: FixIntent } {
  const applied: FixIntent[] = [];
  let pending: FixIntent | undefined;
  for (const event of events) {
    const fixing = event.type === 'STATE_CHANGED' && event.payload.to === 'FIXING';
    if (event.type === 'FIX_APPLYING') pending = event.payload as unknown as FixIntent;
    if (event.type === 'FIX_APPLIED' && pending !== undefined) applied.push(pending);
    if (event.type === 'FIX_APPLIED' || fixing) pending = undefined;
  }
  return { applied, pending };
}

/** The events fixHistory reads: the rest of a run's log says nothing of its fixes. */
const FIX_EVENTS: EventMatch[] = [
  { type: 'FIX_APPLYING' },
  { type: 'FIX_APPLIED' },
  { type: 'STATE_CHANGED', to: 'FIXING' },
];

/** fixHistory of the run, read from its fix events only (not its whole log). */
export async function fixHistoryOf(
  store: Pick<LaunchStore, 'events'>,
  runId: string,
): Promise<ReturnType<typeof fixHistory>> {
  return fixHistory(await store.events(runId, FIX_EVENTS));
}
