import { RUN_STATES } from '@switchyard/contracts/launch-runs';
import { and, eq, gt, inArray, ne, or, type AnyColumn, type SQL } from 'drizzle-orm';
import { isTerminal } from '../runs/model/state-machine.js';

// What LAUNCH_MAX_ACTIVE_RUNS bounds: a principal's runs that hold a workspace, or will. Its unfinished runs,
// and its DONE runs while a lease holds them (launch_validate rebuilds a DONE run's two clones for the call;
// FAILED and CANCELLED runs are never leased). Both stores count them in the transaction that adds one.

const UNFINISHED = RUN_STATES.filter((state) => !isTerminal(state));

/** The runs table's columns the count reads, in either dialect's schema. */
interface RunColumns {
  runId: AnyColumn;
  owner: AnyColumn;
  state: AnyColumn;
  leaseExpiresMs: AnyColumn;
}

/** `owner`'s active runs at `nowMs`, except the run `except` (the one a lease is being taken on). */
export function activeRunsOf(runs: RunColumns, owner: string, nowMs: number, except?: string): SQL {
  const active = or(
    inArray(runs.state, UNFINISHED),
    and(eq(runs.state, 'DONE'), gt(runs.leaseExpiresMs, nowMs)),
  );
  return and(eq(runs.owner, owner), active, except === undefined ? undefined : ne(runs.runId, except))!;
}
