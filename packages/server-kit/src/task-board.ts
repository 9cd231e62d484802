import type { InputRequests } from '@modelcontextprotocol/server';
import type { SwitchyardError } from '@switchyard/contracts/errors';

/**
 * The domain side of the Tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28): a tool that may answer
 * with a task, and the board where a domain keeps its tasks. The server (the kit) owns the wire: who may see a
 * task, the scope check, `tasks/get`, `tasks/update`, `tasks/cancel`, polling pace and the result's shape. A
 * domain owns where tasks live (durably, when they must outlive the process) and what their status is.
 */

/** The extension's identifier, as clients declare it and the server advertises it. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** How a task ended, for the statuses that carry one. */
export type TaskOutcome =
  /** `completed`: the tool's success output, as its handler would have returned it (checked against `output`). */
  | { kind: 'output'; output: Record<string, unknown> }
  /** `completed` with `isError: true`: the failure the tool's handler would have thrown (its `errorPayload`). */
  | { kind: 'refusal'; error: SwitchyardError }
  /** `failed`: a JSON-RPC error during the work (never a tool-level failure). */
  | { kind: 'protocol-error'; code: number; message: string; data?: unknown };

/** What a domain knows of one of its tasks; the kit turns it into the wire's `Task`. */
export interface TaskSnapshot {
  /** The tool that created it, by its name in the domain (before any prefix): its scope guards `tasks/*`. */
  tool: string;
  status: TaskStatus;
  /** What the work is doing now, for people (any status). */
  statusMessage?: string;
  createdAt: Date;
  lastUpdatedAt: Date;
  /** How long after `createdAt` the task may be forgotten; null for never. */
  ttlMs: number | null;
  /** For `completed` (`output` or `refusal`) and `failed` (`protocol-error`). */
  outcome?: TaskOutcome;
  /** For `input_required`: every request the work waits on, by key. */
  inputRequests?: InputRequests;
}

/** One task as a request names it: its id and the principal asking (a task is seen only by its creator). */
export interface TaskRef {
  taskId: string;
  principal: string;
}

/**
 * Where a domain keeps its tasks. Every method answers undefined (or false) for a task it does not hold or that
 * another principal created: the kit answers both as an unknown task, so a task id reveals nothing.
 */
export interface TaskBoard {
  get(ref: TaskRef): Promise<TaskSnapshot | undefined>;
  /**
   * The client's answers to the task's `inputRequests` (raw: validate before use). True when the task is held
   * (the answers may be ignored if the task moved on: the spec's acknowledgement is eventually consistent).
   */
  update(ref: TaskRef, inputResponses: Readonly<Record<string, unknown>>): Promise<boolean>;
  /** Cancels the work behind the task; true when held (a task already ended stays as it ended). */
  cancel(ref: TaskRef): Promise<boolean>;
}

/**
 * What a tool handler gets (`call.task`) when the request declared the extension and the tool may answer with a
 * task (`ToolSpec.task`): the id the kit minted for it and the settings it is created with.
 */
export interface TaskCall {
  /** The id to store the task under; it names the domain, so `tasks/*` reach the right board. */
  readonly id: string;
  readonly ttlMs: number | null;
  /**
   * For a tool that answers with a task only when its work is slow (`task: 'when-slow'`): how long to wait for
   * the work before answering with a task instead (SWITCHYARD_TASK_AFTER_MS).
   */
  readonly afterMs: number;
}

/**
 * A handler's answer "this call is now a task": returned only after the task is durable, so that a `tasks/get`
 * for it resolves. The kit reads the task from the board and answers the `CreateTaskResult`.
 */
export class TaskStarted {
  constructor(readonly taskId: string) {}
}

/** `return taskStarted(call.task.id)` from a tool handler, once the board holds the task. */
export function taskStarted(taskId: string): TaskStarted {
  return new TaskStarted(taskId);
}
