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
import type { Catalog, CatalogTool } from './catalog.js';
import type { DomainLifecycle } from './domain.js';
import { JSONRPC_SERVER_ERROR } from './host.js';
import { callerOAuth, callerPrincipal } from './principal.js';
import type { Logger } from './runtime/logger.js';
import { toolScope } from './scopes.js';
import {
  TASKS_EXTENSION,
  type TaskBoard,
  type TaskCall,
  type TaskRef,
  type TaskSnapshot,
} from './task-board.js';
import {
  declaresTasks,
  domainOfTaskId,
  mintTaskId,
  PollPace,
  taskFields,
  type TaskSettings,
} from './task-wire.js';

export interface TaskDeskDeps {
  catalog: Catalog;
  /** Each tool's runner, by the name a client calls it by. */
  runners: ReadonlyMap<string, ToolRunner<DomainLifecycle>>;
  settings: TaskSettings;
  /** What a domain's handlers get as their state (its board is resolved from it). */
  handlerState(domain: string): Promise<unknown>;
  loggerOf(domain: string): Logger;
}

const TaskIdParams = z.looseObject({ taskId: z.string() });
// The SDK lifts a request's `inputResponses` into `ctx.mcpReq.inputResponses` (multi round-trip requests).
const UpdateParams = z.looseObject({
  taskId: z.string(),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
});

const REQUIRED_TASKS = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };

function taskNotFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Task not found');
}

/** A task located for a request: its board, its ref and what the board holds. */
interface LocatedTask {
  domain: string;
  board: TaskBoard;
  ref: TaskRef;
  snapshot: TaskSnapshot;
  tool: CatalogTool;
}

/**
 * The server side of the Tasks extension (`io.modelcontextprotocol/tasks`), built once per server factory: which
 * tools/call may become a task, the `CreateTaskResult`, and `tasks/get`, `tasks/update`, `tasks/cancel` over the
 * domains' boards. Who may see a task (its principal), the scope of the tool that created it, and the polling
 * pace are checked here; where tasks live and what their status is belongs to the domains.
 */
export class TaskDesk {
  /** True when some mounted domain keeps tasks: only then is the extension advertised and served. */
  readonly offered: boolean;
  private readonly pace: PollPace;
  /** Each tool by its domain and its name in the domain (a snapshot's `tool`). */
  private readonly toolsByDomain = new Map<string, CatalogTool>();

  constructor(private readonly deps: TaskDeskDeps) {
    this.pace = new PollPace(deps.settings.pollIntervalMs);
    for (const tool of deps.catalog.tools.values())
      this.toolsByDomain.set(`${tool.domain}\n${tool.spec.name}`, tool);
    this.offered = [...deps.catalog.domains.values()].some((entry) => entry.mount.domain.tasks !== undefined);
  }

  /** `call.task` for a tools/call of `tool`, when the tool may answer with a task and the request declared it. */
  callFor(tool: CatalogTool, capabilities: ClientCapabilities): TaskCall | undefined {
    if (tool.spec.task === undefined || !declaresTasks(capabilities) || !this.hasBoard(tool.domain))
      return undefined;
    const { ttlMs, afterMs } = this.deps.settings;
    return { id: mintTaskId(tool.domain), ttlMs, afterMs };
  }

  /** The `CreateTaskResult` of a task a handler started, read back from its board (so it is durable). */
  async created(domain: string, taskId: string, principal: string): Promise<Result> {
    const board = await this.boardOf(domain);
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
      const domain = domainOfTaskId(taskId);
      const board = domain === undefined ? undefined : await this.boardOf(domain);
      const ref = { taskId, principal: callerPrincipal(ctx.http?.authInfo) };
      const snapshot = await board?.get(ref);
      const tool = snapshot && this.toolsByDomain.get(`${domain}\n${snapshot.tool}`);
      if (domain === undefined || board === undefined || snapshot === undefined || tool === undefined)
        throw taskNotFound();
      this.checkScope(tool, ctx);
      return { domain, board, ref, snapshot, tool };
    };

    server.setRequestHandler('tasks/get', { params: TaskIdParams }, async ({ taskId }, ctx) => {
      await this.pace.wait(callerPrincipal(ctx.http?.authInfo), taskId, ctx.mcpReq.signal);
      const task = await locate(taskId, ctx);
      return {
        resultType: 'complete',
        ...taskFields(taskId, task.snapshot, this.deps.settings.pollIntervalMs),
        ...this.details(task, server),
      };
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

  /**
   * An OAuth caller needs the scope of the tool that created the task, as it would to call that tool; it is
   * refused with the same words (not an HTTP 403: the scope is known only once the board was read).
   */
  private checkScope(tool: CatalogTool, ctx: ServerContext): void {
    const scopes = callerOAuth(ctx.http?.authInfo)?.scopes;
    const domain = this.deps.catalog.domains.get(tool.domain)?.mount.domain;
    if (scopes === undefined || domain === undefined) return;
    const scope = toolScope(domain, tool.spec);
    if (scopes.has(scope)) return;
    throw new ProtocolError(
      JSONRPC_SERVER_ERROR,
      `Forbidden: the tool "${tool.name}" needs the OAuth scope "${scope}", which this access token lacks; ` +
        'ask the authorization server for a token with it',
    );
  }

  private hasBoard(domain: string): boolean {
    return this.deps.catalog.domains.get(domain)?.mount.domain.tasks !== undefined;
  }

  private async boardOf(domain: string): Promise<TaskBoard | undefined> {
    const tasks = this.deps.catalog.domains.get(domain)?.mount.domain.tasks;
    return tasks === undefined ? undefined : tasks(await this.deps.handlerState(domain));
  }
}
