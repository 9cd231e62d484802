import {
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  type AuthInfo,
  type Implementation,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
  type Server,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { callerPrincipal } from './principal.js';
import type { Logger } from './runtime/logger.js';
import type { TaskStatus } from './task-board.js';
import type { TaskSettings } from './task-wire.js';

/** What `tasks/get` answers for a task (its `DetailedTask`), or undefined when the caller cannot see it. */
export type TaskReader = (taskId: string) => Promise<Record<string, unknown> | undefined>;

/** Where one listen's messages go: the POST's SSE stream (HTTP) or the connection (stdio). */
export interface ListenSink {
  send(message: JSONRPCMessage): void;
  /** No more messages: the listen ended (after its final result, or because the client went away). */
  end(): void;
}

/** The pieces of the server this module reads tasks through (mcp-server.ts builds them). */
export interface TaskListensDeps {
  settings: TaskSettings;
  /** The `DetailedTask` of `taskId` for `principal`, shaped by `server` as tasks/get shapes it. */
  detailed(taskId: string, principal: string, server: Server): Promise<Record<string, unknown> | undefined>;
  /** A 2026-07-28 server for a request by `authInfo` (the same factory the transports use). */
  serverFor(authInfo: AuthInfo | undefined): Server;
  /** The server's identity, stamped on a listen's final result as the SDK stamps it. */
  serverInfo: Implementation;
  /** The log of the domain a task id names. */
  loggerOf(taskId: string): Logger;
}

/** What the transport knows of the caller of one listen. */
export interface ListenCaller {
  authInfo: AuthInfo | undefined;
  /** False for a task the caller lacks the scope of (OAuth): it is left out as an unknown one would be. */
  mayRead?: (taskId: string) => Promise<boolean>;
}

// The 2026-07-28 `SubscriptionFilter` plus the extension's `taskIds` (the SDK's own schema would strip it).
const ListenFilter = z.object({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(z.string()).optional(),
  taskIds: z.array(z.string()),
});
const ListenParams = z.looseObject({ notifications: ListenFilter });

const TERMINAL: ReadonlySet<unknown> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

// The SDK's answers (listenRouter), word for word, so a client sees one server whichever of the two serves it.
const LIMIT_REACHED = { code: -32603, message: 'Subscription limit reached' };
const INVALID_FILTER = {
  code: -32602,
  message: "Invalid params: 'notifications' is required and must be a valid SubscriptionFilter",
};

/** What a notification is sent on: a change of any of these (not of `lastUpdatedAt` alone). */
function fingerprint(task: Record<string, unknown>): string {
  const { status, statusMessage, result, error, inputRequests } = task;
  return JSON.stringify([status, statusMessage, result, error, inputRequests]);
}

function stamped(method: string, params: Record<string, unknown>, id: RequestId): JSONRPCMessage {
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  return {
    jsonrpc: '2.0',
    method,
    params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID_META_KEY]: id } },
  };
}

/**
 * Fails when the server advertises what a listen's core fields ask for (`listChanged`, resource `subscribe`): the
 * kit serves a listen naming `taskIds` whole, honouring none of them, which is what the SDK would honour too only
 * while none is advertised. A server that advertises one must hand those fields to the SDK first.
 */
export function assertNoCoreListenFields(capabilities: ServerCapabilities): void {
  const { tools, prompts, resources } = capabilities;
  const advertised = [tools?.listChanged, prompts?.listChanged, resources?.listChanged, resources?.subscribe];
  if (advertised.some((bit) => bit === true))
    throw new Error(
      'listChanged or resource subscribe is advertised, but task listens (task-listens.ts) drop them',
    );
}

/**
 * The listens for `notifications/tasks` (`subscriptions/listen` naming `taskIds`) this process serves, in front of
 * the SDK, whose listen router strips `taskIds` (README, "Tasks"). Each listen is acknowledged with the ids its
 * caller may see (at most `listenMaxIds`), gets every watched task's current state at once, then a notification on
 * each change of status, statusMessage or outcome, read from the task's board every `pollIntervalMs` (tasks are
 * durable and may be worked by another replica: no in-process event would see their changes), one read at a time.
 * A task leaves the watch at a terminal status; the listen ends with its result when none is left, or at
 * `closeAll` (shutdown); it ends without one when the client cancels it or goes away.
 */
export class TaskListens {
  private readonly open = new Set<TaskListen>();

  constructor(private readonly deps: TaskListensDeps) {}

  get count(): number {
    return this.open.size;
  }

  /**
   * Serves `request` (a listen naming `taskIds`, from a client declaring the extension: task-listen.ts): the error
   * to answer instead, or undefined once the listen writes to `sink`. `signal` aborts it without a result.
   */
  async serve(
    request: JSONRPCRequest,
    caller: ListenCaller,
    sink: ListenSink,
    signal: AbortSignal,
  ): Promise<JSONRPCErrorResponse | undefined> {
    const refuse = (error: { code: number; message: string }): JSONRPCErrorResponse => ({
      jsonrpc: '2.0',
      id: request.id,
      error,
    });
    if (this.open.size >= this.deps.settings.listensMax) return refuse(LIMIT_REACHED);
    const parsed = ListenParams.safeParse(request.params);
    if (!parsed.success) return refuse(INVALID_FILTER);
    const server = this.deps.serverFor(caller.authInfo);
    const principal = callerPrincipal(caller.authInfo);
    const read: TaskReader = async (taskId) =>
      caller.mayRead === undefined || (await caller.mayRead(taskId))
        ? this.deps.detailed(taskId, principal, server)
        : undefined;
    const listen = new TaskListen(request.id, read, sink, this.deps, () => this.open.delete(listen));
    this.open.add(listen);
    if (signal.aborted) listen.stop(false);
    else signal.addEventListener('abort', () => listen.stop(false), { once: true });
    await listen.start(parsed.data.notifications.taskIds);
    return undefined;
  }

  /** Ends every open listen now, each with its final result: shutdown must not wait for them. */
  closeAll(): void {
    for (const listen of [...this.open]) listen.stop(true);
  }
}

/** One listen: the tasks it watches, by id, with what was last sent about each. */
class TaskListen {
  private readonly watched = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly id: RequestId,
    private readonly read: TaskReader,
    private readonly sink: ListenSink,
    private readonly deps: TaskListensDeps,
    private readonly onStop: () => void,
  ) {}

  async start(requested: readonly string[]): Promise<void> {
    const current = new Map<string, Record<string, unknown>>();
    for (const taskId of new Set(requested)) {
      if (current.size >= this.deps.settings.listenMaxIds || this.stopped) break;
      const task = await this.readOrWarn(taskId);
      if (task) current.set(taskId, task);
    }
    if (this.stopped) return;
    this.sink.send(
      stamped(
        'notifications/subscriptions/acknowledged',
        { notifications: { taskIds: [...current.keys()] } },
        this.id,
      ),
    );
    for (const [taskId, task] of current) this.notify(taskId, task);
    this.next();
  }

  /** Ends the listen: with its final result (`graceful`), or silently (cancelled, client gone). */
  stop(graceful: boolean): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.onStop();
    if (graceful) {
      const _meta = { [SUBSCRIPTION_ID_META_KEY]: this.id, [SERVER_INFO_META_KEY]: this.deps.serverInfo };
      this.sink.send({ jsonrpc: '2.0', id: this.id, result: { resultType: 'complete', _meta } });
    }
    this.sink.end();
  }

  /** Sends the task's state if it changed; a terminal task leaves the watch. */
  private notify(taskId: string, task: Record<string, unknown>): void {
    const print = fingerprint(task);
    if (this.watched.get(taskId) !== print) this.sink.send(stamped('notifications/tasks', task, this.id));
    if (TERMINAL.has(task.status)) this.watched.delete(taskId);
    else this.watched.set(taskId, print);
  }

  /** The next poll, or the end when nothing is left to watch. */
  private next(): void {
    if (this.stopped) return;
    if (this.watched.size === 0) {
      this.stop(true);
      return;
    }
    this.timer = setTimeout(() => void this.poll(), this.deps.settings.pollIntervalMs);
  }

  private async poll(): Promise<void> {
    for (const taskId of [...this.watched.keys()]) {
      if (this.stopped) return;
      const task = await this.readOrWarn(taskId, true);
      if (this.stopped) return;
      if (task === null) continue;
      // Gone (expired, or no longer visible to the caller): nothing more will be said about it.
      if (task === undefined) this.watched.delete(taskId);
      else this.notify(taskId, task);
    }
    this.next();
  }

  /** The task, undefined when unseen, or (`keep`) null when its board could not be read (tried again later). */
  private async readOrWarn(
    taskId: string,
    keep = false,
  ): Promise<Record<string, unknown> | undefined | null> {
    try {
      return await this.read(taskId);
    } catch (error) {
      this.deps.loggerOf(taskId).warn('a watched task could not be read', { taskId, error });
      return keep ? null : undefined;
    }
  }
}
