import { SwitchyardError } from '@switchyard/contracts/errors';
import type { TaskBoard, TaskOutcome, TaskRef, TaskSnapshot } from '@switchyard/server-kit';
import type { RunRow, TaskRow } from '../db/schema.js';
import type { LaunchStore } from '../store/launch-store.js';
import { taskEnded } from '../store/run-writes.js';
import { runFailureError } from '../runs/model/errors.js';
import { isRetiredHereLately } from '../runs/model/lease.js';
import { activityEvents, draftsActivity, runActivity } from './task-activity.js';
import { decodeTaskEnd, encodeTaskEnd } from './task-end.js';
import { taskProgress, type TaskProgress } from './task-progress.js';
import { workInterrupted } from '../runs/tool-rules.js';
import { pageRoundsOf, waitsForDrafts, type PageRound } from '../runs/drafts.js';
import type { TaskDrafts } from './task-drafts.js';

/**
 * The answer of each tool whose task waits for the run's next stable state, built from the run as it rests
 * there, by the same code the tool's synchronous answer uses (tools/task-outputs.ts).
 */
export type TaskOutputs = Readonly<Record<string, (run: RunRow) => Promise<Record<string, unknown>>>>;

/**
 * The launch tools' tasks (server-kit's TaskBoard) over the run store: every replica on the database answers
 * for every task. A task's status is read from its run (task-progress.ts) until it ends; its end is then
 * stored on its row, first writer wins, so it stays what it first was whatever the run does next. A task past
 * createdAt + ttlMs is forgotten (answers as unknown). A task whose creating request declared the client's
 * `sampling` capability asks for input while its model-drafting run waits for drafts (task-drafts.ts).
 */
export class LaunchTaskBoard implements TaskBoard {
  constructor(
    private readonly store: LaunchStore,
    /** launch_cancel's effect on the run (LaunchRunService.cancel). */
    private readonly cancelRun: (runId: string) => Promise<unknown>,
    private readonly outputs: TaskOutputs,
    private readonly drafts: TaskDrafts,
    private readonly now: () => number = Date.now,
  ) {}

  async get(ref: TaskRef): Promise<TaskSnapshot | undefined> {
    const task = await this.held(ref);
    return task === undefined ? undefined : this.snapshot(task, await this.runOf(task));
  }

  /** The client's model's drafts, when the task asks for them; any other answer is ignored. */
  async update(ref: TaskRef, inputResponses: Readonly<Record<string, unknown>>): Promise<boolean> {
    const task = await this.held(ref);
    if (task === undefined) return false;
    const waiting = task.outcome === null ? await this.pagesAsked(task, await this.runOf(task)) : [];
    if (waiting.length > 0) await this.drafts.answer(task.runId, waiting, inputResponses);
    return true;
  }

  /** The pages the task asks the client's model for: those its run, at rest, waits for, if it may sample. */
  private async pagesAsked(
    task: TaskRow,
    run: RunRow,
    progress: TaskProgress = this.progress(task, run),
  ): Promise<PageRound[]> {
    const asks = task.sampling && progress.kind === 'reached' && waitsForDrafts(run);
    return asks ? pageRoundsOf(this.store, run.runId) : [];
  }

  /**
   * Cancels the run as launch_cancel does while the task works or asks for drafts; an ended task stays as it
   * ended.
   */
  async cancel(ref: TaskRef): Promise<boolean> {
    const task = await this.held(ref);
    if (task === undefined) return false;
    const run = await this.runOf(task);
    if (task.outcome !== null) return true;
    const progress = this.progress(task, run);
    const asking = (await this.pagesAsked(task, run, progress)).length > 0;
    if (progress.kind !== 'working' && !asking) {
      await this.snapshot(task, run);
      return true;
    }
    await this.cancelRun(task.runId).catch((error: unknown) => {
      // It ended (DONE or FAILED) between the read and the cancel: it stays as it ended.
      if (!(error instanceof SwitchyardError && error.code === 'ILLEGAL_STATE')) throw error;
    });
    return true;
  }

  /** The principal's task, unless its ttl has passed. */
  private async held(ref: TaskRef): Promise<TaskRow | undefined> {
    const task = await this.store.task(ref.taskId, ref.principal);
    if (task === undefined) return undefined;
    const forgotten = task.ttlMs !== null && this.now() > task.createdMs + task.ttlMs;
    return forgotten ? undefined : task;
  }

  /** The task's run; read again when it names a lease this process released a moment ago (status.ts does too). */
  private async runOf(task: TaskRow): Promise<RunRow> {
    let run = await this.store.get(task.runId);
    if (run !== undefined && isRetiredHereLately(run, Date.now())) run = await this.store.get(task.runId);
    if (run === undefined) throw new Error(`the run ${task.runId} of task ${task.taskId} is missing`);
    return run;
  }

  private progress(task: TaskRow, run: RunRow): TaskProgress {
    return taskProgress(task, run, Date.now(), this.store.sharedByReplicas);
  }

  private async snapshot(task: TaskRow, run: RunRow): Promise<TaskSnapshot> {
    const base = {
      tool: task.tool,
      createdAt: new Date(task.createdMs),
      lastUpdatedAt: new Date(Math.max(task.updatedMs, Date.parse(run.updatedAt))),
      ttlMs: task.ttlMs,
    };
    if (task.outcome !== null) return ended(base, decodeTaskEnd(task.outcome));
    const progress = this.progress(task, run);
    if (progress.kind === 'working') {
      const statusMessage = runActivity(run, await activityEvents(this.store, run.runId));
      return { ...base, status: 'working', statusMessage };
    }
    if (progress.kind === 'cancelled')
      return { ...base, status: 'cancelled', statusMessage: `Run ${run.runId} was cancelled` };
    const asked = await this.pagesAsked(task, run, progress);
    if (asked.length > 0) {
      return {
        ...base,
        status: 'input_required',
        statusMessage: draftsActivity(run, asked),
        inputRequests: await this.drafts.requests(run.runId, asked),
      };
    }
    const outcome = encodeTaskEnd(await this.endOf(task, run, progress));
    await this.store.append(run.runId, null, taskEnded(task.taskId, outcome));
    // Another replica may have stored its end first: the stored one is the answer.
    const stored = (await this.store.task(task.taskId, task.principal)) ?? { ...task, outcome };
    return this.snapshot(stored, run);
  }

  private async endOf(
    task: TaskRow,
    run: RunRow,
    progress: Extract<TaskProgress, { kind: 'failed' | 'interrupted' | 'reached' }>,
  ): Promise<Extract<TaskOutcome, { kind: 'output' | 'refusal' }>> {
    if (progress.kind === 'failed') return { kind: 'refusal', error: runFailureError(progress.failure) };
    if (progress.kind === 'interrupted') return { kind: 'refusal', error: workInterrupted(run) };
    const output = this.outputs[task.tool];
    if (output === undefined) throw new Error(`no task output for ${task.tool}`);
    return { kind: 'output', output: await output(run) };
  }
}

function ended(base: Omit<TaskSnapshot, 'status'>, outcome: TaskOutcome): TaskSnapshot {
  return { ...base, status: 'completed', outcome };
}
