import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
  type Result,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { taskOutcomeResult, type ToolRunner } from './call-tool.js';
import type { CatalogTool } from './catalog.js';
import type { DomainLifecycle } from './domain.js';
import { callerPrincipal } from './principal.js';
import type { Logger } from './runtime/logger.js';
import { TASKS_EXTENSION, type TaskCall, type TaskRef } from './task-board.js';
import type { FoundTask, TaskBoards } from './task-boards.js';
import {
  declaresTasks,
  mintTaskId,
  PollPace,
  REQUIRED_TASKS,
  taskFields,
  type TaskSettings,
} from './task-wire.js';

export interface TaskDeskDeps {
  boards: TaskBoards;
  /** Each tool's runner, by the name a client calls it by. */
  runners: ReadonlyMap<string, ToolRunner<DomainLifecycle>>;
  settings: TaskSettings;
  loggerOf(domain: string): Logger;
}

const TaskIdParams = z.looseObject({ taskId: z.string() });
// The SDK lifts a request's `inputResponses` into `ctx.mcpReq.inputResponses` (multi round-trip requests).
const UpdateParams = z.looseObject({
  taskId: z.string(),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
});

function taskNotFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Task not found');
}

/** A task located for a request: what the boards found, and how the request names it. */
interface LocatedTask extends FoundTask {
  ref: TaskRef;
}

/**
 * The server side of the Tasks extension (`io.modelcontextprotocol/tasks`), built once per server factory: which
 * tools/call may become a task, the `CreateTaskResult`, and `tasks/get`, `tasks/update`, `tasks/cancel` over the
 * domains' boards. Who may see a task (its principal) and the polling pace are checked here (the scope of the
 * tool that created it, by the HTTP layer: task-boards.ts); where tasks live and their status belong to the
 * domains.
 */
export class TaskDesk {
  private readonly pace: PollPace;

  constructor(private readonly deps: TaskDeskDeps) {
    this.pace = new PollPace(deps.settings.pollIntervalMs);
  }

  /** True when some mounted domain keeps tasks: only then is the extension advertised and served. */
  get offered(): boolean {
    return this.deps.boards.any;
  }

  /** `call.task` for a tools/call of `tool`, when the tool may answer with a task and the request declared it. */
  callFor(tool: CatalogTool, capabilities: ClientCapabilities): TaskCall | undefined {
    if (tool.spec.task === undefined || !declaresTasks(capabilities) || !this.deps.boards.keeps(tool.domain))
      return undefined;
    const { ttlMs, afterMs } = this.deps.settings;
    return { id: mintTaskId(tool.domain), ttlMs, afterMs };
  }

  /** The `CreateTaskResult` of a task a handler started, read back from its board (so it is durable). */
  async created(domain: string, taskId: string, principal: string): Promise<Result> {
    const board = await this.deps.boards.boardOf(domain);
    const snapshot = await board?.get({ taskId, principal });
    if (snapshot === undefined) {
      this.deps.loggerOf(domain).error('a started task is not on its board', { taskId });
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error: the task was not recorded');
    }
    return { resultType: 'task', ...taskFields(taskId, snapshot, this.deps.settings.pollIntervalMs) };
  }

  /** Serves `tasks/get`, `tasks/update` and `tasks/cancel` on `server` (a 2026-07-28 one). */
  register(server: Server, declaredBy: (ctx: ServerContext) => ClientCapabilities): void {
    const locate = async (taskId: string, ctx: ServerContext): Promise<LocatedTask> => {
      if (!declaresTasks(declaredBy(ctx))) {
        throw new MissingRequiredClientCapabilityError(
          REQUIRED_TASKS,
          `tasks/* need the extension ${TASKS_EXTENSION}: the request's client capabilities do not declare it`,
        );
      }
      const ref = { taskId, principal: callerPrincipal(ctx.http?.authInfo) };
      const found = await this.deps.boards.find(ref);
      if (found === undefined) throw taskNotFound();
      return { ...found, ref };
    };

    server.setRequestHandler('tasks/get', { params: TaskIdParams }, async ({ taskId }, ctx) => {
      await this.pace.wait(callerPrincipal(ctx.http?.authInfo), taskId, ctx.mcpReq.signal);
      return { resultType: 'complete', ...this.detailedTask(await locate(taskId, ctx), server) };
    });
    server.setRequestHandler('tasks/update', { params: UpdateParams }, async (params, ctx) => {
      const { board, ref } = await locate(params.taskId, ctx);
      const inputResponses = params.inputResponses ?? ctx.mcpReq.inputResponses ?? {};
      if (!(await board.update(ref, inputResponses))) throw taskNotFound();
      return { resultType: 'complete' };
    });
    server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async ({ taskId }, ctx) => {
      const { board, ref } = await locate(taskId, ctx);
      if (!(await board.cancel(ref))) throw taskNotFound();
      return { resultType: 'complete' };
    });
  }

  /**
   * What `tasks/get` answers for `ref` (the `DetailedTask`, without the result's `resultType`), read from its
   * board now; undefined for a task this principal cannot see. For task notifications (task-listens.ts), on a
   * 2026-07-28 `server` from the same factory (it shapes a tool's result as tools/call would).
   */
  async detailed(ref: TaskRef, server: Server): Promise<Record<string, unknown> | undefined> {
    const found = await this.deps.boards.find(ref);
    return found === undefined ? undefined : this.detailedTask({ ...found, ref }, server);
  }

  private detailedTask(task: LocatedTask, server: Server): Record<string, unknown> {
    return {
      ...taskFields(task.ref.taskId, task.snapshot, this.deps.settings.pollIntervalMs),
      ...this.details(task, server),
    };
  }

  /** The status's own fields: the tool's result, the JSON-RPC error, or the outstanding input requests. */
  private details({ domain, ref, snapshot, tool }: LocatedTask, server: Server): Record<string, unknown> {
    const { status, outcome } = snapshot;
    if (status === 'input_required') return { inputRequests: snapshot.inputRequests ?? {} };
    if (status === 'completed' && outcome !== undefined && outcome.kind !== 'protocol-error') {
      const runner = this.deps.runners.get(tool.name) as ToolRunner<DomainLifecycle>;
      const result = server.projectCallToolResult(
        taskOutcomeResult(runner, outcome),
        tool.listing.outputSchema,
      );
      // As tools/call itself would answer it in 2026-07-28 (the ext-tasks requester checks it so).
      return { result: { ...result, resultType: 'complete' } };
    }
    if (status === 'failed' && outcome?.kind === 'protocol-error') {
      const { code, message, data } = outcome;
      return { error: { code, message, ...(data === undefined ? {} : { data }) } };
    }
    if (status === 'completed' || status === 'failed') {
      this.deps.loggerOf(domain).error('a finished task has no outcome of its kind', {
        taskId: ref.taskId,
        status,
      });
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error: the task has no outcome');
    }
    return {};
  }
}
