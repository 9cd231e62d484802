import type { RunState, ValidationReport } from '@switchyard/contracts/launch-runs';
import type { ArtifactRow, IssueRow, RunRow } from '../db/schema.js';
import {
  runState,
  type ArtifactEntry,
  type RunChange,
  type RunEventInput,
  type RunPatch,
} from './launch-store.js';
import {
  artifactWrittenEvent,
  issueRows,
  patchValues,
  rewindValues,
  transitionValues,
  validationTransitions,
} from './run-changes.js';

// The changes of a run, each decided from its row as locked in the writing transaction. A dialect's store
// locks the row, asks the decision and writes what it answers (the row's values, the run's issues, an
// artifact), then appends its events: the one skeleton of every change, written once per dialect.

/** What one change writes. */
export interface RunWrite {
  /** The row's new values (none: the row stays as it is). */
  values?: Partial<RunRow>;
  /** The events recording the change, appended to the run's chain in this order. */
  events: RunEventInput[];
  /** The run's issues, replacing those it has. */
  issues?: IssueRow[];
  /** An artifact's index entry (and its bytes, which stores shared by replicas keep), replacing one of that name. */
  artifact?: { row: ArtifactRow; bytes: Uint8Array };
}

/** A change decided from the run's locked row: what to write, or undefined for nothing. Throws to refuse. */
export type Decide = (row: RunRow, nowMs: number) => RunWrite | undefined;

export interface StateChange {
  patch?: RunPatch;
  payload?: Record<string, unknown>;
}

function transitionWrite(
  row: RunRow,
  from: RunState,
  to: RunState,
  change: StateChange,
  nowMs: number,
): RunWrite {
  return {
    values: transitionValues(row, from, to, change.patch ?? {}, nowMs),
    events: [{ type: 'STATE_CHANGED', payload: { from, to, ...change.payload } }],
  };
}

/** `from` → `to` (a transition of the lifecycle), the change's patch, and STATE_CHANGED with its payload. */
export function transitioned(from: RunState, to: RunState, change: StateChange = {}): Decide {
  return (row, nowMs) => transitionWrite(row, from, to, change, nowMs);
}

/** A change that is not a state change (worker bookkeeping, fix counters), with its event. */
export function changed(change: RunChange): Decide {
  return (_row, nowMs) => ({
    values: patchValues(change.patch, nowMs),
    events: change.event === undefined ? [] : [change.event],
  });
}

/** What `decide` makes of the run as it is; nothing when it answers undefined. */
export function changedIf(decide: (row: RunRow) => RunChange | undefined): Decide {
  return (row, nowMs) => {
    const change = decide(row);
    return change === undefined ? undefined : changed(change)(row, nowMs);
  };
}

/** An interrupted run back to `to` (RUN_REWOUND): undoes a step that never finished. */
export function rewound(from: RunState, to: RunState): Decide {
  return (row, nowMs) => ({
    values: rewindValues(row, from, to, nowMs),
    events: [{ type: 'RUN_REWOUND', payload: { from, to } }],
  });
}

/** CANCELLED from whatever state the run is in (nothing when it already is), unless `refuse` objects. */
export function cancelled(refuse: (row: RunRow) => Error | undefined): Decide {
  return (row, nowMs) => {
    const refused = refuse(row);
    if (refused !== undefined) throw refused;
    const state = runState(row);
    if (state === 'CANCELLED') return { events: [] };
    return transitionWrite(
      row,
      state,
      'CANCELLED',
      { patch: { activeWorker: null }, payload: { reason: 'launch_cancel' } },
      nowMs,
    );
  };
}

/**
 * A W7 report: the run's issues replaced by the report's, VALIDATION_RECORDED with `payload`, and LINKING or
 * FIXING → VALIDATING (→ READY_FOR_PR when the report is ok).
 */
export function validationRecorded(report: ValidationReport, payload: Record<string, unknown>): Decide {
  return (row, nowMs) => {
    let values = patchValues({ lastReportOk: report.ok, lastError: null }, nowMs);
    const events: RunEventInput[] = [{ type: 'VALIDATION_RECORDED', payload }];
    for (const [from, to] of validationTransitions(runState(row), report.ok)) {
      const step = transitionWrite({ ...row, ...values }, from, to, {}, nowMs);
      values = { ...values, ...step.values };
      events.push(...step.events);
    }
    return { values, events, issues: issueRows(row.runId, report) };
  };
}

/** An artifact indexed (its bytes kept where the store keeps them) with ARTIFACT_WRITTEN. */
export function artifactRecorded(entry: ArtifactEntry, bytes: Uint8Array): Decide {
  return (_row, nowMs) => ({
    events: [artifactWrittenEvent(entry)],
    artifact: { row: { ...entry, writtenAt: new Date(nowMs).toISOString() }, bytes },
  });
}
