import type { RunState } from '@switchyard/contracts/launch-runs';
import {
  and,
  asc,
  desc,
  eq,
  gt,
  isNotNull,
  like,
  lt,
  lte,
  ne,
  notInArray,
  or,
  sql,
  type AnyColumn,
  type Placeholder,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import { activeRunsOf } from './active-runs.js';
import type { EventMatch, EventsAfter, ListFilter } from './launch-store.js';

// The conditions (and orders) both stores query with, each written once over either dialect's tables: a store
// binds them to its own tables with runConditions.

/** The columns the conditions read, in either dialect's schema. */
interface Tables {
  runs: {
    runId: AnyColumn;
    owner: AnyColumn;
    idempotencyKey: AnyColumn;
    productSlug: AnyColumn;
    state: AnyColumn;
    createdMs: AnyColumn;
    leaseOwner: AnyColumn;
    leaseExpiresMs: AnyColumn;
    leaseRequest: AnyColumn;
    leaseRequestCancelled: AnyColumn;
  };
  artifacts: { runId: AnyColumn; name: AnyColumn };
  issues: { runId: AnyColumn; status: AnyColumn };
  events: { runId: AnyColumn; runSeq: AnyColumn; type: AnyColumn; payload: AnyColumn };
}

const FINISHED: RunState[] = ['DONE', 'FAILED', 'CANCELLED'];

/** The conditions over `tables`, comparing and ordering run ids as `runIdOrder` does (the dialect's part). */
export function runConditions<T extends Tables>(tables: T, runIdOrder: SQLWrapper) {
  const { runs, artifacts, issues, events } = tables;
  /** The columns leaseStatusOf (run-changes.ts) reads. */
  const leaseStatusColumns: Pick<T['runs'], 'state' | 'leaseOwner' | 'leaseRequestCancelled'> = {
    state: tables.runs.state,
    leaseOwner: tables.runs.leaseOwner,
    leaseRequestCancelled: tables.runs.leaseRequestCancelled,
  };
  const unfinished = notInArray(runs.state, FINISHED);
  /**
   * The events `match` selects. A payload is canonical JSON (sorted keys, no spaces, quotes inside strings
   * escaped), and a STATE_CHANGED payload has no nested objects: `"to":"<state>"` in its text is its `to` and
   * nothing else.
   */
  const selects = (match: EventMatch): SQL =>
    and(
      eq(events.type, match.type),
      match.to === undefined ? undefined : like(events.payload, `%"to":${JSON.stringify(match.to)}%`),
    )!;
  /** The run while `token` holds its lease. */
  const leasedTo = (runId: string, token: string): SQL =>
    and(eq(runs.runId, runId), eq(runs.leaseOwner, token))!;
  return {
    /** The runs `filter` selects (`before` in the newestFirst order). */
    list({ owner, productSlug, state, runIdPrefix: prefix, before }: ListFilter): SQL | undefined {
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
    },
    /** LaunchStore.list's order: newest first, by (created_ms, run id). */
    newestFirst: [desc(runs.createdMs), desc(runIdOrder)],
    /** The newest run's creation time (null: no runs), a number in either dialect (PostgreSQL answers text). */
    newestCreatedMs: sql<number | null>`max(${runs.createdMs})`.mapWith(Number),
    /** `owner`'s run started with the idempotency key `key`. */
    keyed: (owner: string, key: string) => and(eq(runs.owner, owner), eq(runs.idempotencyKey, key)),
    unfinished,
    /** Unfinished runs whose lease expired at `nowMs` without being released (their executor died mid-work). */
    abandoned: (nowMs: number) =>
      and(unfinished, isNotNull(runs.leaseOwner), lte(runs.leaseExpiresMs, nowMs)),
    /** The order abandoned runs are taken over in: oldest first, by (created_ms, run id). */
    oldestFirst: [asc(runs.createdMs), asc(runIdOrder)],
    /** `owner`'s active runs at `nowMs` but `except` (active-runs.ts). */
    active: (owner: string, nowMs: number, except?: string) => activeRunsOf(runs, owner, nowMs, except),
    leasedTo,
    /** The run while `token` holds its lease and it is not cancelled: the runs a renewal extends. */
    renewable: (runId: string, token: string) => and(leasedTo(runId, token), ne(runs.state, 'CANCELLED')),
    /** The leased runs `owner`'s tool call `request` works on. */
    leasedForRequest: (owner: string, request: string) =>
      and(eq(runs.owner, owner), eq(runs.leaseRequest, request), isNotNull(runs.leaseOwner)),
    leaseStatusColumns,
    /** The run's artifact named `name`. */
    artifactNamed: (runId: string, name: string) => and(eq(artifacts.runId, runId), eq(artifacts.name, name)),
    /** The OPEN issues of the run's latest report. */
    openIssues: (runId: string | Placeholder) => and(eq(issues.runId, runId), eq(issues.status, 'OPEN')),
    /** The run's events `match` selects. */
    eventsMatching: (runId: string, match: EventMatch) => and(eq(events.runId, runId), selects(match)),
    /** The run's events after its event `after` (through `until`); with `matches`, those one of them selects. */
    eventsAfter: ({ runId, after, until, matches }: EventsAfter) =>
      and(
        eq(events.runId, runId),
        gt(events.runSeq, after),
        until === undefined ? undefined : lte(events.runSeq, until),
        matches && or(...matches.map(selects)),
      ),
    /** A run's events newest first, and in order. */
    newestEventFirst: desc(events.runSeq),
    eventOrder: asc(events.runSeq),
  };
}

/**
 * The tasks past created_ms + ttl_ms at `nowMs`, in either dialect's table: those LaunchTaskBoard forgets (it
 * answers them as unknown). A null ttl_ms is kept forever.
 */
export function expiredTasks(tasks: { createdMs: AnyColumn; ttlMs: AnyColumn }, nowMs: number): SQL {
  return and(isNotNull(tasks.ttlMs), lt(sql`${tasks.createdMs} + ${tasks.ttlMs}`, nowMs))!;
}
