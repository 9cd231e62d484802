import type { RunRow, TaskRow } from '../db/schema.js';
import { lastErrorOf, runState } from '../store/launch-store.js';
import type { TaskTarget } from '../store/task-rows.js';
import type { RunFailure } from '../runs/model/errors.js';
import { leftMidStep } from '../runs/model/interrupted.js';
import { isLeaseLive } from '../runs/model/lease.js';

/** Where a task's work stands, read from its run (a task with a stored end is past this). */
export type TaskProgress =
  | { kind: 'working' }
  | { kind: 'cancelled' }
  /** The run FAILED: the task ends with the run's failure. */
  | { kind: 'failed'; failure: RunFailure }
  /** The work's executor stopped before the work ended, and nobody will continue it for the task. */
  | { kind: 'interrupted' }
  /** The run rests where the task waited for it: the task ends with the tool's answer, read from the run. */
  | { kind: 'reached' };

/** A FAILED run that recorded no failure (none such is written; kept total for old rows). */
const UNRECORDED_FAILURE: RunFailure = {
  code: 'INTERNAL',
  message: 'The run failed',
  retryable: false,
  details: {},
};

/**
 * How `task` stands on `run` at `nowMs`. A call's task (`call`) works while the lease it was recorded under is
 * live: its end is stored before that lease is released, so a lease gone without an end is an executor that
 * died. A task waiting for the run's next stable state works while anyone holds the run (a replica that took
 * it over included) and, on a store shared by replicas (`takenOver`: they claim a run whose lease expired
 * unreleased), while such a run waits to be taken over; otherwise a run its executor left before it came to
 * rest is interrupted (it waits for launch_resume).
 */
export function taskProgress(
  task: Pick<TaskRow, 'target' | 'leaseOwner'>,
  run: RunRow,
  nowMs: number,
  takenOver: boolean,
): TaskProgress {
  const state = runState(run);
  if (state === 'CANCELLED') return { kind: 'cancelled' };
  const target = task.target as TaskTarget;
  if (target === 'call') {
    const own = run.leaseOwner === task.leaseOwner && isLeaseLive(run, nowMs);
    return own ? { kind: 'working' } : { kind: 'interrupted' };
  }
  if (isLeaseLive(run, nowMs)) return { kind: 'working' };
  // FAILED, or halted on a failure the run records (a resume may retry it): the task ends with it.
  const failure = lastErrorOf(run);
  if (state === 'FAILED' || failure !== undefined)
    return { kind: 'failed', failure: failure ?? UNRECORDED_FAILURE };
  if (run.interruptedAt !== null) return { kind: 'interrupted' };
  // A lease never released: its executor died before the run came to rest; replicas claim such a run.
  if (run.leaseOwner !== null) return takenOver ? { kind: 'working' } : { kind: 'interrupted' };
  // Released with a step under way (a shutdown): it waits for launch_resume.
  if (leftMidStep(run)) return { kind: 'interrupted' };
  return { kind: 'reached' };
}
