import { toSwitchyardError } from '@switchyard/contracts/errors';
import { taskStarted, type TaskOutcome, type TaskStarted, type ToolCall } from '@switchyard/server-kit';
import type { LaunchCallState } from '../open.js';
import type { CallOptions, LaunchRunService, WorkWatch } from '../runs/service.js';
import { encodeTaskEnd } from '../tasks/task-end.js';
import type { NewTask } from '../store/task-rows.js';
import { newTaskOf } from './task-call.js';

type End = Extract<TaskOutcome, { kind: 'output' | 'refusal' }>;

/**
 * One call's work as it may become a task: once `record` has written the task (bound to the lease the work
 * holds), the work's end is stored on it before the lease is released, so any replica answers it; a lease gone
 * without an end is an executor that died (runs/task-progress.ts).
 */
class SlowCall<T> {
  private token: string | undefined;
  private recording: Promise<void> | undefined;
  private over = false;

  constructor(
    private readonly service: LaunchRunService,
    private readonly task: NewTask,
    private readonly runId: string,
    private readonly output: (value: T) => Record<string, unknown>,
    private readonly call: ToolCall,
  ) {}

  readonly watch: WorkWatch = {
    leased: (token) => {
      this.token = token;
    },
    ended: async (end) => {
      this.over = true;
      if (this.recording === undefined) return;
      const outcome = this.endOf(end);
      if (outcome === undefined) return;
      try {
        await this.recording;
        await this.service.endTask(this.runId, this.task.taskId, encodeTaskEnd(outcome));
      } catch (error) {
        // Unstored, the task reads as interrupted once the lease is released: the work's end is still logged.
        this.call.logger.warn('could not store the end of a task', { task: this.task.taskId, error });
      }
    },
  };

  /** A cancel of the run is no end of the task's own: the run, CANCELLED, answers for it. */
  private endOf(end: { value: unknown } | { error: unknown }): End | undefined {
    if ('value' in end) return { kind: 'output', output: this.output(end.value as T) };
    const error = toSwitchyardError(end.error);
    return error.kind === 'cancelled' ? undefined : { kind: 'refusal', error };
  }

  /** Records the task while the work holds its lease: false when it has ended, or holds none yet. */
  async record(): Promise<boolean> {
    if (this.over || this.token === undefined) return false;
    this.recording = this.service.recordTask(this.task, this.runId, this.token);
    await this.recording;
    return true;
  }
}

/** Resolves 'slow' after `ms` unless `done` settles first ('done'). */
function slowerThan(done: Promise<unknown>, ms: number): Promise<'slow' | 'done'> {
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => (timer = setTimeout(() => resolve('slow'), ms)));
  const settled = done.then(
    () => 'done' as const,
    () => 'done' as const,
  );
  return Promise.race([slow, settled]).finally(() => clearTimeout(timer));
}

/**
 * A `when-slow` tool's call (launch_validate, launch_fix_next, launch_open_pr): its work runs as always; when
 * the request declared the Tasks extension and the work is not done within `call.task.afterMs`, the call
 * becomes a task (recorded, then `taskStarted`) and the work goes on, no longer stopped by the request; its
 * answer, or its error, is stored on the task. Otherwise the tool's usual answer.
 */
export async function answerOrTask<T, O extends Record<string, unknown>>(
  call: ToolCall<LaunchCallState>,
  tool: string,
  runId: string,
  options: CallOptions,
  work: (options: CallOptions) => Promise<T>,
  output: (value: T) => O,
): Promise<O | TaskStarted> {
  const task = newTaskOf(call, tool, 'call');
  if (task === undefined || call.task === undefined) return output(await work(options));
  const slow = new SlowCall(call.state.runs, task, runId, output, call);
  // The request stops the work only until the call is a task: tasks/cancel stops it after.
  const stop = new AbortController();
  const follow = () => stop.abort(call.signal.reason);
  if (call.signal.aborted) follow();
  call.signal.addEventListener('abort', follow, { once: true });
  try {
    const running = work({ ...options, signal: stop.signal, watch: slow.watch });
    if ((await slowerThan(running, call.task.afterMs)) === 'slow' && (await slow.record())) {
      running.catch(() => undefined);
      return taskStarted(task.taskId);
    }
    return output(await running);
  } finally {
    call.signal.removeEventListener('abort', follow);
  }
}
