import {
  RunStateSchema,
  SectionStateSchema,
  type RunState,
  type SectionState,
} from '@switchyard/contracts/launch-runs';
import type { ArtifactRow, IssueRow, RunRow, TaskRow } from '../db/schema.js';
import type { RunFailure } from '../runs/model/errors.js';
import type { RunEventInput } from '../runs/model/events.js';
import type { RunEvent } from './event-chain.js';
import type { NewTask } from './task-rows.js';

// The launch runs' one store interface. Two implementations pass one test suite: SQLite in the data directory
// (sqlite-launch-store.ts) and PostgreSQL shared by replicas (postgres-launch-store.ts). Every method is one
// transaction: a state change and its event are written together or not at all.

export type SectionStates = Record<string, SectionState>;

export function runState(row: Pick<RunRow, 'state'>): RunState {
  return RunStateSchema.parse(row.state);
}

export function sectionStatesOf(row: Pick<RunRow, 'sectionStates'>): SectionStates {
  const raw = JSON.parse(row.sectionStates) as Record<string, unknown>;
  const out: SectionStates = {};
  for (const [section, state] of Object.entries(raw)) out[section] = SectionStateSchema.parse(state);
  return out;
}

export function lastErrorOf(row: Pick<RunRow, 'lastError'>): RunFailure | undefined {
  return row.lastError === null ? undefined : (JSON.parse(row.lastError) as RunFailure);
}

export interface NewRun {
  runId: string;
  /** The principal starting it (its idempotency keys are its own). */
  owner: string;
  productSlug: string;
  config: string;
  configHash: string;
  idempotencyKey: string | undefined;
  sectionStates: SectionStates;
  /** The executor that will drive the run from CREATED (its lease starts with the row). */
  leaseOwner: string;
  leaseMs: number;
  /** The most active runs the owner may have (active-runs.ts): with that many already, the insert is refused. */
  maxActiveRuns: number;
  /** An MCP task following the run (store/task-rows.ts): written with it, or bound to the key's run. */
  task?: NewTask;
}

/** What one change of a run writes (LaunchStore.append). */
export interface RunWrite {
  /** The events recording the change, appended to the run's chain in this order; the row is their projection. */
  events: RunEventInput[];
  /** The run's issues, replacing those it has. */
  issues?: IssueRow[];
  /** An artifact's index entry (and its bytes, which stores shared by replicas keep), replacing one of that name. */
  artifact?: { row: ArtifactRow; bytes: Uint8Array };
  /** One of the run's MCP tasks opened or ended with the change (it may carry no events). */
  task?: TaskChange;
}

/**
 * A task opened on the run, bound to the lease `leaseOwner` its work holds (a call become slow); or a task's
 * end (task-end.ts JSON) stored unless it has one: the first writer's end stays.
 */
export type TaskChange = { open: NewTask; leaseOwner: string } | { end: string; outcome: string };

/** A change decided from the run's locked row: what to write, or undefined for nothing. Throws to refuse. */
export type Decide = (row: RunRow, nowMs: number) => RunWrite | undefined;

export interface ListFilter {
  /** Only this principal's runs. */
  owner?: string;
  productSlug?: string;
  state?: RunState;
  /** Exclusive upper bound of the (created_ms, run_id) order: the previous page's last row. */
  before?: { createdMs: number; runId: string };
  /** Only run ids that start with this (compared as text: `_` and `%` are no wildcards here). */
  runIdPrefix?: string;
  limit: number;
}

/** The events a bounded read of a run's log selects: of `type`, and for STATE_CHANGED, into `to` when given. */
export interface EventMatch {
  type: RunEventInput['type'];
  to?: RunState;
}

/**
 * A run's events after its event `after` (0: from its first) and, with `until`, up to its event `until`: a run's
 * events are numbered 1, 2, 3, ..., so that range holds at most `until - after` of them. With `matches`, only
 * those one of them selects.
 */
export interface EventsAfter {
  runId: string;
  after: number;
  until?: number;
  matches?: readonly EventMatch[];
}

export interface RunSnapshot {
  run: RunRow;
  artifacts: ArtifactRow[];
  openIssues: IssueRow[];
}

/** An artifact's index entry as a writer records it. */
export type ArtifactEntry = Omit<ArtifactRow, 'writtenAt'>;

/** `request-cancelled`: held, and the tool call holding it was cancelled by its client (cancelRequest). */
export type LeaseStatus = 'held' | 'lost' | 'cancelled' | 'request-cancelled';

export interface LeaseOptions {
  /**
   * LAUNCH_MAX_ACTIVE_RUNS, for a lease that makes a DONE run active again (launch_validate rebuilds its
   * workspace): see active-runs.ts.
   */
  maxActiveRuns?: number;
  /**
   * The tool call taking the lease: its JSON-RPC id as JSON text, recorded with the lease so that its
   * client's cancel reaches it from any process (cancelRequest).
   */
  request?: string;
  /**
   * Whether the caller takes the lease on the run as locked (`held`: it cannot, someone holds it or the run
   * has FAILED or been CANCELLED); throws to refuse. Nothing is written unless it answers true.
   */
  admit?: (row: RunRow, held: boolean) => boolean;
  /** An MCP task following the work the lease is taken for, written with the lease (launch_resume). */
  task?: NewTask;
}

/**
 * The runs, their hash-chained event logs, artifact index and issues. `token` arguments name the lease
 * holder: with one, a change is refused (LeaseLostError) unless that executor holds the run's lease.
 */
export interface LaunchStore {
  /**
   * Whether several machines share this store (PostgreSQL): then artifact bytes live in it rather than in
   * files beside it, a run whose executor died is taken over rather than marked interrupted at start, and a
   * run's workspace missing on this machine is rebuilt rather than refused. SQLite: one data directory.
   */
  readonly sharedByReplicas: boolean;

  get(runId: string): Promise<RunRow | undefined>;
  getByIdempotencyKey(owner: string, key: string): Promise<RunRow | undefined>;
  /** Newest first, by (created_ms, run_id). */
  list(filter: ListFilter): Promise<RunRow[]>;
  /** Runs that are not finished: candidates for the start-up sweep. */
  unfinished(): Promise<RunRow[]>;
  /** The run's event log in order; with `matches`, only the events one of them selects. */
  events(runId: string, matches?: readonly EventMatch[]): Promise<RunEvent[]>;
  /** The part of the run's event log `selection` names, in order. */
  eventsAfter(selection: EventsAfter): Promise<RunEvent[]>;
  /** The run's newest event `match` selects; read without the rest of its log. */
  lastEvent(runId: string, match: EventMatch): Promise<RunEvent | undefined>;
  /** The run's newest event `match` selects and every event after it, in order ([] when none matches). */
  eventsFrom(runId: string, match: EventMatch): Promise<RunEvent[]>;
  /**
   * The run with its artifact index and the OPEN issues of its latest report (in report order), read in
   * one transaction, so the three agree (launch_get_status); undefined when there is no such run.
   */
  snapshot(runId: string): Promise<RunSnapshot | undefined>;
  artifacts(runId: string): Promise<ArtifactRow[]>;
  artifact(runId: string, name: string): Promise<ArtifactRow | undefined>;
  /** The stored bytes of an indexed artifact (stores shared by replicas keep them; others answer undefined). */
  artifactBytes(runId: string, name: string): Promise<Uint8Array | undefined>;

  /**
   * Inserts a CREATED run with RUN_CREATED, or returns the run that already holds the owner's
   * idempotency key (`created: false`): the unique index decides between concurrent starts. An owner with
   * `maxActiveRuns` active runs (active-runs.ts) is refused (activeRunLimit), counted in the inserting
   * transaction so that concurrent starts, also from other processes, never exceed it; a key's run is
   * returned regardless.
   */
  insert(run: NewRun): Promise<{ row: RunRow; created: boolean }>;
  /**
   * One change of a run and its tasks, in one transaction: its row locked (runNotFound when there is none;
   * LeaseLostError unless `token`, when given, holds its lease), `decide` asked what to write (it throws to
   * refuse), the row's values, the run's issues, an artifact and a task change written, the events appended to
   * the chain. Answers the run after the change (as it was when `decide` answers nothing or no event). The
   * changes callers append are in run-writes.ts.
   */
  append(runId: string, token: string | null, decide: Decide): Promise<RunRow>;

  /**
   * The lease for `token` unless someone else holds a live one (`busy`, with the run as it is) or
   * `options.admit` declines it. With `maxActiveRuns`, a DONE run's lease is refused (activeRunLimit) when
   * its owner already has that many other active runs, counted in this transaction as insert counts them.
   */
  acquireLease(
    runId: string,
    token: string,
    leaseMs: number,
    options?: LeaseOptions,
  ): Promise<{ row: RunRow; busy: boolean }>;
  renewLease(runId: string, token: string, leaseMs: number): Promise<'renewed' | 'lost' | 'cancelled'>;
  leaseStatus(runId: string, token: string): Promise<LeaseStatus>;
  releaseLease(runId: string, token: string): Promise<void>;
  /**
   * `owner`'s tool call `request` (a JSON-RPC id as JSON text) was cancelled by its client: marks the lease
   * that call holds, if any, for its executor's watch (LeaseStatus `request-cancelled`). The number of leases
   * marked (0 or 1 for a client whose ids are unique).
   */
  cancelRequest(owner: string, request: string): Promise<number>;
  /**
   * A run whose executor died mid-work (its lease expired, never released), now leased to `token`, or
   * undefined when there is none. Concurrent claimers each get a different run.
   */
  claimAbandoned(token: string, leaseMs: number): Promise<RunRow | undefined>;

  /** `principal`'s task `taskId`; undefined for a task another principal created, as for none. */
  task(taskId: string, principal: string): Promise<TaskRow | undefined>;

  close(): Promise<void>;
}
