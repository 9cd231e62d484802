import type { RunState, SectionState } from '@switchyard/contracts/launch-runs';
import type { RunRow } from '../../db/schema.js';
import { LeaseLostError, type RunFailure } from './errors.js';
import { assertTransition, isStable, isTerminal } from './state-machine.js';

// A run's events, the only thing its changes write: the store folds each into the run's row with reduce, in
// the transaction that appends it, so the row is the events' projection.

type Worker = { worker: string; name: string };

/** The events a run's chain holds, by type (WORK_ITEM_* and ARTIFACT_WRITTEN are the design's own names). */
export type RunEventInput =
  | { type: 'RUN_CREATED'; payload: Record<string, unknown> }
  | { type: 'STATE_CHANGED'; payload: StateChanged }
  | { type: 'WORK_ITEM_STARTED'; payload: Worker }
  /** W5 of a model-drafting run: what became of a draft (DraftRecord). */
  | { type: 'WORK_ITEM_FINISHED'; payload: Worker & { duration_ms: number } & DraftRecord }
  /** `interrupted`: the worker's step stays recorded (a shutdown or a cancelled request interrupted it). */
  | { type: 'WORK_ITEM_FAILED'; payload: Worker & { code: string; message: string; interrupted: boolean } }
  | { type: 'ARTIFACT_WRITTEN'; payload: { name: string; sha256: string; size: number; worker: string } }
  | { type: 'VALIDATION_RECORDED'; payload: { ok: boolean } & Record<string, unknown> }
  | { type: 'FIX_APPLYING'; payload: FixIntent }
  | { type: 'FIX_APPLIED'; payload: { attempt: number } & Record<string, unknown> }
  | { type: 'PR_OPENED'; payload: Record<string, unknown> }
  | { type: 'RUN_INTERRUPTED'; payload: { state: string; active_worker: string | null } }
  | { type: 'RUN_REWOUND'; payload: { from: RunState; to: RunState } }
  | { type: 'RUN_HALTED'; payload: { state: RunState; code: string; message: string; error: RunFailure } };

export type EventType = RunEventInput['type'];

/** One refusal of a draft, as the verifier names it. */
export type DraftIssue = { line: number; sentence: string; code: string; message: string };

/** What W5's WORK_ITEM_FINISHED records of a draft in a model-drafting run (runs/drafts.ts reads it). */
export type DraftRecord = {
  /** The caller's model's draft of this page was accepted: it is the page's draft. */
  accepted_page?: string;
  /** The draft the run's task asked the client's model for in `round` was refused with `issues`. */
  refused_page?: string;
  round?: number;
  issues?: DraftIssue[];
  /** That refusal used the page's last round: the page was drafted extractively instead. */
  fallback_page?: string;
};

/** FIX_APPLYING: what a fix is about to write, so a resume can tell whether it was written. */
export type FixIntent = {
  issue_id: string;
  attempt: number;
  patch_id: string;
  path: string;
  before_sha256: string;
  after_sha256: string;
};

/** STATE_CHANGED: `from` → `to`, with what the step that moved the run recorded on the way. */
export type StateChanged = {
  from: RunState;
  to: RunState;
  /** W1's pinned commits; W4..W6: the worker's progress on the run's sections (W6: and the patches it applied). */
  source_sha?: string;
  site_sha?: string;
  section_states?: Partial<Record<string, SectionState>>;
  applied_patch_ids?: string[];
  pr_url?: string;
  branch?: string;
  commit_sha?: string;
  /** Why the run moved (FAILED: the error code, and `error` the failure it keeps as its last error). */
  reason?: string;
  message?: string;
  detail_reason?: string;
  error?: RunFailure;
  /** PLAN_READY → DRAFTING of a model-drafting run: the pages it rests there waiting for (their drafts). */
  waiting_for_drafts?: string[];
  /** VALIDATING → FIXING and back: the fix attempt. */
  attempt?: number;
  max_fix_attempts?: number;
};

/** The payload fields of STATE_CHANGED a run keeps as columns. */
const COLUMNS = {
  source_sha: 'sourceSha',
  site_sha: 'siteSha',
  pr_url: 'prUrl',
  branch: 'branch',
  commit_sha: 'commitSha',
} as const satisfies Partial<Record<keyof StateChanged, keyof RunRow>>;

/** How entering a state changes each of the run's sections. */
const SECTIONS_ENTERING: Partial<Record<RunState, (state: SectionState) => SectionState>> = {
  DONE: () => 'DONE',
  FAILED: (state) => (state === 'DONE' ? state : 'BLOCKED'),
};

type Reducer<T extends EventType> = (
  row: RunRow,
  payload: Extract<RunEventInput, { type: T }>['payload'],
  at: string,
) => Partial<RunRow> | undefined;

function stateChanged(row: RunRow, change: StateChanged, at: string): Partial<RunRow> {
  if (row.state !== change.from) throw new LeaseLostError(row.runId);
  assertTransition(change.from, change.to);
  // A state change ends whatever step was under way (cancelled or failed) or follows one that finished.
  const values: Partial<RunRow> = { state: change.to, activeWorker: null };
  for (const [field, column] of Object.entries(COLUMNS)) {
    const value = change[field as keyof typeof COLUMNS];
    if (value !== undefined) Object.assign(values, { [column]: value });
  }
  const progress = change.section_states;
  const entering = SECTIONS_ENTERING[change.to];
  if (progress !== undefined || entering !== undefined) {
    // Progress on sections the run has not is dropped.
    const states = JSON.parse(row.sectionStates) as Record<string, SectionState>;
    for (const [section, state] of Object.entries(states))
      states[section] = entering?.(state) ?? progress?.[section] ?? state;
    values.sectionStates = JSON.stringify(states);
  }
  // A failed run records its failure; a run that opened its PR has none left.
  if (change.error !== undefined) values.lastError = JSON.stringify(change.error);
  if (change.pr_url !== undefined) values.lastError = null;
  // A run waiting for drafts rests where it is: a restart or a takeover leaves it there.
  if (isStable(change.to) || change.waiting_for_drafts !== undefined) values.lastStableState = change.to;
  if (isTerminal(change.to)) Object.assign(values, { finishedAt: at }, RELEASED_LEASE);
  return values;
}

/** What each event changes on the run's row (undefined: nothing, not even its update time). */
const REDUCERS: { [T in EventType]: Reducer<T> } = {
  RUN_CREATED: () => undefined,
  STATE_CHANGED: stateChanged,
  WORK_ITEM_STARTED: (_row, { worker }) => ({ activeWorker: worker }),
  WORK_ITEM_FINISHED: () => ({ activeWorker: null }),
  WORK_ITEM_FAILED: (row, { worker, interrupted }) =>
    interrupted || row.activeWorker !== worker ? {} : { activeWorker: null },
  ARTIFACT_WRITTEN: () => undefined,
  VALIDATION_RECORDED: (_row, { ok }) => ({ lastReportOk: ok, lastError: null }),
  FIX_APPLYING: () => ({}),
  FIX_APPLIED: (_row, { attempt }) => ({ fixAttempts: attempt }),
  PR_OPENED: () => ({}),
  RUN_INTERRUPTED: (_row, _payload, at) => ({ interruptedAt: at, leaseOwner: null, leaseExpiresMs: null }),
  RUN_REWOUND: (row, { from, to }) => {
    if (row.state !== from) throw new LeaseLostError(row.runId);
    return { state: to, activeWorker: null, interruptedAt: null, lastError: null };
  },
  RUN_HALTED: (_row, { error }) => ({ lastError: JSON.stringify(error), activeWorker: null }),
};

/**
 * The columns `events` change on `row`, one after the other, at `nowMs`: undefined when they change none.
 * Throws (LeaseLostError, an illegal transition) when the run is not where an event says it is.
 */
export function reduce(
  row: RunRow,
  events: readonly RunEventInput[],
  nowMs: number,
): Partial<RunRow> | undefined {
  const at = new Date(nowMs).toISOString();
  let values: Partial<RunRow> | undefined;
  for (const event of events) {
    const changes = (REDUCERS[event.type] as Reducer<EventType>)(
      { ...row, ...values },
      event.payload as never,
      at,
    );
    if (changes !== undefined) values = { ...values, ...changes, updatedAt: at };
  }
  return values;
}

/** The lease columns of a run nobody holds. */
export const RELEASED_LEASE = {
  leaseOwner: null,
  leaseExpiresMs: null,
  leaseRequest: null,
  leaseRequestCancelled: false,
} as const;
