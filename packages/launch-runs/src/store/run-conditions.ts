import type { RunState } from '@switchyard/contracts/launch-runs';
import {
  and,
  eq,
  isNotNull,
  lt,
  ne,
  notInArray,
  or,
  sql,
  type AnyColumn,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { ListFilter } from './launch-store.js';

// The conditions on runs both stores query with, over either dialect's runs table; only how a dialect
// compares run ids (`runIdOrder`) differs.

/** The runs table's columns the conditions read, in either dialect's schema. */
interface RunColumns {
  runId: AnyColumn;
  owner: AnyColumn;
  productSlug: AnyColumn;
  state: AnyColumn;
  createdMs: AnyColumn;
  leaseOwner: AnyColumn;
  leaseRequest: AnyColumn;
  leaseRequestCancelled: AnyColumn;
}

const FINISHED: RunState[] = ['DONE', 'FAILED', 'CANCELLED'];

/** The runs `filter` selects, `before` in the (created_ms, run id as `runIdOrder` compares it) order. */
export function listConditions(
  runs: RunColumns,
  runIdOrder: SQLWrapper,
  filter: ListFilter,
): SQL | undefined {
  const { owner, productSlug, state, runIdPrefix: prefix, before } = filter;
  return and(
    owner === undefined ? undefined : eq(runs.owner, owner),
    productSlug === undefined ? undefined : eq(runs.productSlug, productSlug),
    state === undefined ? undefined : eq(runs.state, state),
    prefix === undefined || prefix === ''
      ? undefined
      : sql`substr(${runs.runId}, 1, ${prefix.length}) = ${prefix}`,
    before === undefined
      ? undefined
      : or(
          lt(runs.createdMs, before.createdMs),
          and(eq(runs.createdMs, before.createdMs), lt(runIdOrder, before.runId)),
        ),
  );
}

export function unfinishedRuns(runs: RunColumns): SQL {
  return notInArray(runs.state, FINISHED);
}

/** The run while `token` holds its lease. */
export function leasedTo(runs: RunColumns, runId: string, token: string): SQL {
  return and(eq(runs.runId, runId), eq(runs.leaseOwner, token))!;
}

/** The run while `token` holds its lease and it is not cancelled: the runs a renewal extends. */
export function renewable(runs: RunColumns, runId: string, token: string): SQL {
  return and(leasedTo(runs, runId, token), ne(runs.state, 'CANCELLED'))!;
}

/** The leased runs `owner`'s tool call `request` works on. */
export function leasedForRequest(runs: RunColumns, owner: string, request: string): SQL {
  return and(eq(runs.owner, owner), eq(runs.leaseRequest, request), isNotNull(runs.leaseOwner))!;
}

/** The columns leaseStatusOf (run-changes.ts) reads. */
export function leaseStatusColumns<T extends RunColumns>(
  runs: T,
): Pick<T, 'state' | 'leaseOwner' | 'leaseRequestCancelled'> {
  return {
    state: runs.state,
    leaseOwner: runs.leaseOwner,
    leaseRequestCancelled: runs.leaseRequestCancelled,
  };
}
