// What a run's event log says of its fixes: the ones written, and one a dead process left half done.
import type { AppliedFix } from '../pipeline/types.js';
import type { RunEvent } from '../store/event-chain.js';

/** The FIX_APPLYING event: what a fix is about to write, so a resume can tell whether it was written. */
export interface FixIntent extends AppliedFix {
  attempt: number;
  patch_id: string;
  before_sha256: string;
}

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
