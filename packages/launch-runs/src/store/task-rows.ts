import type { TaskRow } from '../db/schema.js';

/**
 * Expired task rows deleted in one go, by default (LAUNCH_EXPIRED_TASK_BATCH): each task opened deletes up to
 * this many, in its own transaction, so the table never grows past the live tasks and a backlog that every
 * open shrinks, while no open waits on a long delete.
 */
export const EXPIRED_TASK_BATCH = 100;

/**
 * What a launch task waits for: the run's next stable state (launch_start_run, launch_resume: their answer is
 * read from the run), or the end of the one call that created it (launch_validate, launch_fix_next,
 * launch_open_pr: their answer is stored on the task when the call ends).
 */
export type TaskTarget = 'next-stable-state' | 'call';

/** A task to record with the change that starts its work (LaunchStore.insert, acquireLease, append). */
export interface NewTask {
  taskId: string;
  /** The principal creating it: the only one that sees it. */
  principal: string;
  tool: string;
  target: TaskTarget;
  ttlMs: number | null;
  /** The creating request declared the client's `sampling` capability (tasks/task-drafts.ts). */
  sampling: boolean;
}

/** The task's row, bound to `runId` and to the lease `leaseOwner` its work holds. */
export function taskRowValues(
  task: NewTask,
  runId: string,
  leaseOwner: string | null,
  nowMs: number,
): TaskRow {
  return {
    taskId: task.taskId,
    principal: task.principal,
    tool: task.tool,
    runId,
    target: task.target,
    leaseOwner,
    createdMs: nowMs,
    updatedMs: nowMs,
    ttlMs: task.ttlMs,
    outcome: null,
    sampling: task.sampling,
  };
}
