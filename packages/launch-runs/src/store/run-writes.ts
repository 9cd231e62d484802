import type { RunState, ValidationReport } from '@switchyard/contracts/launch-runs';
import type { RunRow } from '../db/schema.js';
import type { RunEventInput, StateChanged } from '../runs/model/events.js';
import { runState, type ArtifactEntry, type Decide } from './launch-store.js';
import { artifactWrittenEvent, issueRows, validationTransitions } from './run-changes.js';
import type { NewTask } from './task-rows.js';

// The changes callers append to a run and its tasks (LaunchStore.append): events, some decided from the run's
// row as locked in the writing transaction. The store folds them into the row (runs/model/events.ts reduce)
// and appends them.

/** Events as they are: refused when the run is not where they say it is. */
export function recorded(...events: RunEventInput[]): Decide {
  return () => ({ events });
}

/** `from` → `to` (a transition of the lifecycle): STATE_CHANGED with what the step records on the way. */
export function transitioned(from: RunState, to: RunState, recording: Partial<StateChanged> = {}): Decide {
  return recorded({ type: 'STATE_CHANGED', payload: { ...recording, from, to } });
}

/** An event decided from the run as it is; nothing is written when that answers undefined. */
export function changed(decide: (row: RunRow) => RunEventInput | undefined): Decide {
  return (row) => {
    const event = decide(row);
    return event === undefined ? undefined : { events: [event] };
  };
}

/** CANCELLED from whatever state the run is in (nothing when it already is), unless `refuse` objects. */
export function cancelled(refuse: (row: RunRow) => Error | undefined): Decide {
  return (row) => {
    const refused = refuse(row);
    if (refused !== undefined) throw refused;
    const from = runState(row);
    if (from === 'CANCELLED') return undefined;
    return {
      events: [{ type: 'STATE_CHANGED', payload: { from, to: 'CANCELLED', reason: 'launch_cancel' } }],
    };
  };
}

/**
 * A W7 report: the run's issues replaced by the report's, VALIDATION_RECORDED with `payload`, and LINKING or
 * FIXING → VALIDATING (→ READY_FOR_PR when the report is ok).
 */
export function validationRecorded(
  report: ValidationReport,
  payload: { ok: boolean } & Record<string, unknown>,
): Decide {
  return (row) => ({
    events: [
      { type: 'VALIDATION_RECORDED', payload },
      ...validationTransitions(runState(row), report.ok).map(([from, to]): RunEventInput => ({
        type: 'STATE_CHANGED',
        payload: { from, to },
      })),
    ],
    issues: issueRows(row.runId, report),
  });
}

/** An artifact indexed (its bytes kept where the store keeps them) with ARTIFACT_WRITTEN. */
export function artifactRecorded(entry: ArtifactEntry, bytes: Uint8Array): Decide {
  return (_row, nowMs) => ({
    events: [artifactWrittenEvent(entry)],
    artifact: { row: { ...entry, writtenAt: new Date(nowMs).toISOString() }, bytes },
  });
}

/** A call's task opened on the run, bound to the lease `leaseOwner` its work holds (tools/slow-call.ts). */
export function taskOpened(task: NewTask, leaseOwner: string): Decide {
  return () => ({ events: [], task: { open: task, leaseOwner } });
}

/** How the task `taskId` ended (task-end.ts JSON), stored unless it has an end already: the first one stays. */
export function taskEnded(taskId: string, outcome: string): Decide {
  return () => ({ events: [], task: { end: taskId, outcome } });
}
