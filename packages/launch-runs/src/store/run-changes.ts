import type { RunState, ValidationReport } from '@switchyard/contracts/launch-runs';
import { canonicalJson } from '../canonical-json.js';
import type { IssueRow, RunRow } from '../db/schema.js';
import { activeRunLimit, LeaseLostError, runNotFound } from '../runs/model/errors.js';
import type { RunEventInput } from '../runs/model/events.js';
import { isLeaseLive } from '../runs/model/lease.js';
import { computeEventHash, GENESIS_HASH, type RunEvent, type TraceIds } from './event-chain.js';
import type { ArtifactEntry, LeaseOptions, LeaseStatus, NewRun } from './launch-store.js';

// What a store writes, decided without a database: both implementations read the rows, ask these, and
// write the answers in their own transaction.

/** The run as a change needs it: present, and leased to `token` when one is given. */
export function requireRun(row: RunRow | undefined, runId: string, token: string | null): RunRow {
  if (row === undefined) throw runNotFound(runId);
  if (token !== null && row.leaseOwner !== token) throw new LeaseLostError(runId);
  return row;
}

/** The run as the statement changing it answered it: present, since the change holds its row locked. */
export function changedRun(runId: string, row: RunRow | undefined): RunRow {
  if (row === undefined) throw new Error(`run ${runId} vanished during a change`);
  return row;
}

/**
 * A new run's row. Creation times strictly increase (a run started in the same millisecond as the newest
 * one is dated a millisecond later), so "newest first" is the order the runs were started in.
 */
export function newRunValues(run: NewRun, newestMs: number | null, now: number): RunRow {
  const nowMs = Math.max(now, (newestMs ?? -1) + 1);
  const iso = new Date(nowMs).toISOString();
  return {
    runId: run.runId,
    owner: run.owner,
    productSlug: run.productSlug,
    config: run.config,
    configHash: run.configHash,
    idempotencyKey: run.idempotencyKey ?? null,
    state: 'CREATED',
    lastStableState: null,
    sectionStates: JSON.stringify(run.sectionStates),
    fixAttempts: 0,
    lastReportOk: null,
    activeWorker: null,
    lastError: null,
    interruptedAt: null,
    sourceSha: null,
    siteSha: null,
    prUrl: null,
    branch: null,
    commitSha: null,
    createdAt: iso,
    createdMs: nowMs,
    updatedAt: iso,
    finishedAt: null,
    ...leaseValues(run.leaseOwner, nowMs + run.leaseMs),
  };
}

/** One more active run of an owner who has `active` (active-runs.ts): refused at `limit`. */
export function assertActiveRunRoom(limit: number, active: number): void {
  if (active >= limit) throw activeRunLimit(limit, active);
}

/**
 * What LaunchStore.insert writes once its transaction found no run holding the key: the new row, dated after
 * the `newestMs` run, and RUN_CREATED; refused when its owner already has `active` runs at the limit.
 */
export function runInsert(
  run: NewRun,
  active: number,
  newestMs: number | null,
  nowMs: number,
): { values: RunRow; events: RunEventInput[] } {
  assertActiveRunRoom(run.maxActiveRuns, active);
  return { values: newRunValues(run, newestMs, nowMs), events: [runCreatedEvent(run)] };
}

/** The run that took `run`'s idempotency key first, when the insert conflicted (a run without a key cannot). */
export function insertWinner(run: NewRun, winner: RunRow | undefined): { row: RunRow; created: false } {
  if (winner === undefined) throw new Error(`run ${run.runId} could not be inserted`);
  return { row: winner, created: false };
}

function runCreatedEvent(run: NewRun): RunEventInput {
  return {
    type: 'RUN_CREATED',
    payload: {
      product_slug: run.productSlug,
      config_hash: run.configHash,
      idempotency_key: run.idempotencyKey ?? null,
      section_states: run.sectionStates,
    },
  };
}

export function artifactWrittenEvent(entry: ArtifactEntry): RunEventInput {
  return {
    type: 'ARTIFACT_WRITTEN',
    payload: { name: entry.name, sha256: entry.sha256, size: entry.size, worker: entry.worker },
  };
}

type LeaseColumns = Pick<RunRow, 'leaseOwner' | 'leaseExpiresMs' | 'leaseRequest' | 'leaseRequestCancelled'>;

/** The lease columns of `token`'s lease until `expiresMs`, taken by the tool call `request` (or background work). */
export function leaseValues(token: string, expiresMs: number, request?: string): LeaseColumns {
  return {
    leaseOwner: token,
    leaseExpiresMs: expiresMs,
    leaseRequest: request ?? null,
    leaseRequestCancelled: false,
  };
}

/**
 * What acquireLease makes of the run as locked: the run as it is when another executor holds a live lease
 * (`busy`) or it is finished; else `token`'s lease, taken once its owner has room for one more active run
 * under `roomUnder` (a DONE run made active again, with options.maxActiveRuns).
 */
export function leaseTake(
  row: RunRow,
  token: string,
  leaseMs: number,
  options: LeaseOptions,
  nowMs: number,
): { answer: { row: RunRow; busy: boolean } } | { values: LeaseColumns; roomUnder: number | undefined } {
  if (row.leaseOwner !== token && isLeaseLive(row, nowMs)) return { answer: { row, busy: true } };
  // DONE runs may still be re-validated (read-only for their state); FAILED and CANCELLED ones never work again.
  if (row.state === 'FAILED' || row.state === 'CANCELLED') return { answer: { row, busy: false } };
  return {
    values: leaseValues(token, nowMs + leaseMs, options.request),
    roomUnder: row.state === 'DONE' ? options.maxActiveRuns : undefined,
  };
}

/** What a renewal that extended nothing means, from the lease's status: the run cancelled or the lease lost. */
export function renewalRefused(status: LeaseStatus): 'lost' | 'cancelled' {
  return status === 'cancelled' ? 'cancelled' : 'lost';
}

/** How the lease of `token` stands on the run as read. */
export function leaseStatusOf(
  row: Pick<RunRow, 'state' | 'leaseOwner' | 'leaseRequestCancelled'> | undefined,
  token: string,
): LeaseStatus {
  if (row?.state === 'CANCELLED') return 'cancelled';
  if (row?.leaseOwner !== token) return 'lost';
  return row.leaseRequestCancelled ? 'request-cancelled' : 'held';
}

/** The transitions a recorded report makes: into VALIDATING after W7, on to READY_FOR_PR when it is ok. */
export function validationTransitions(state: RunState, ok: boolean): [RunState, RunState][] {
  const steps: [RunState, RunState][] = [];
  let at = state;
  if (at === 'LINKING' || at === 'FIXING') {
    steps.push([at, 'VALIDATING']);
    at = 'VALIDATING';
  }
  if (at === 'VALIDATING' && ok) steps.push([at, 'READY_FOR_PR']);
  return steps;
}

/** A report's issues as the issues table stores them, in report order. */
export function issueRows(runId: string, report: ValidationReport): IssueRow[] {
  return report.issues.map((issue, ord) => ({
    runId,
    ord,
    issueId: issue.issue_id,
    gate: issue.gate,
    severity: issue.severity,
    errorCode: issue.error_code,
    message: issue.message,
    path: issue.location.path,
    line: issue.location.line,
    status: issue.status,
    suggestedFix: issue.suggested_fix,
  }));
}

/**
 * The next event of a run's chain after `tail` (none: the first). `(run_id, run_seq)` is unique, so a
 * concurrent writer that read the same tail fails instead of forking the chain.
 */
function chainedEvent(
  tail: { runSeq: number; eventHash: string } | undefined,
  runId: string,
  event: RunEventInput,
  trace: TraceIds | undefined,
  nowMs: number,
): RunEvent {
  const seq = (tail?.runSeq ?? 0) + 1;
  const unhashed: Omit<RunEvent, 'event_hash'> = {
    event_id: `${runId}.${seq}`,
    run_id: runId,
    seq,
    ts: new Date(nowMs).toISOString(),
    type: event.type,
    payload: JSON.parse(canonicalJson(event.payload)) as Record<string, unknown>,
    trace_id: trace?.traceId ?? null,
    span_id: trace?.spanId ?? null,
    prev_hash: tail?.eventHash ?? GENESIS_HASH,
  };
  return { ...unhashed, event_hash: computeEventHash(unhashed) };
}

/** The events table's rows of `added`, chained in order after `tail`. */
export function chainedEventRows(
  tail: { runSeq: number; eventHash: string } | undefined,
  runId: string,
  added: RunEventInput[],
  trace: TraceIds | undefined,
  nowMs: number,
): EventValues[] {
  let last = tail;
  return added.map((input) => {
    const event = chainedEvent(last, runId, input, trace, nowMs);
    last = { runSeq: event.seq, eventHash: event.event_hash };
    return eventValues(event);
  });
}

export type EventValues = ReturnType<typeof eventValues>;

/** The events table's row of an event. */
export function eventValues(event: RunEvent) {
  return {
    eventId: event.event_id,
    runId: event.run_id,
    runSeq: event.seq,
    ts: event.ts,
    type: event.type,
    payload: canonicalJson(event.payload),
    traceId: event.trace_id,
    spanId: event.span_id,
    prevHash: event.prev_hash,
    eventHash: event.event_hash,
  };
}
