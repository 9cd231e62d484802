import type { RunState, ValidationReport } from '@switchyard/contracts/launch-runs';
import type { RunRow } from '../db/schema.js';
import {
  runState,
  type ArtifactEntry,
  type Decide,
  type RunChange,
  type RunEventInput,
  type RunPatch,
  type RunWrite,
} from './launch-store.js';
import {
  artifactWrittenEvent,
  issueRows,
  patchValues,
  rewindValues,
  transitionValues,
  validationTransitions,
} from './run-changes.js';

// The changes callers append to a run (LaunchStore.append), each decided from the run's row as locked in the
// writing transaction: the store locks the row, asks the decision, writes what it answers.

/** What a state change records on the run besides the state: columns and the STATE_CHANGED payload. */
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

/**
 * A change that is not a state change (worker bookkeeping, fix counters), with its event; given as what the
 * run as it is makes of it, nothing is written when that answers undefined.
 */
export function changed(change: RunChange | ((row: RunRow) => RunChange | undefined)): Decide {
  return (row, nowMs) => {
    const decided = typeof change === 'function' ? change(row) : change;
    if (decided === undefined) return undefined;
    return {
      values: patchValues(decided.patch, nowMs),
      events: decided.event === undefined ? [] : [decided.event],
    };
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
    if (state === 'CANCELLED') return undefined;
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
