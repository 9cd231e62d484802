import type { Catalog, CatalogTool } from './catalog.js';
import type { DomainLifecycle } from './domain.js';
import { toolScope, type ScopeNeed } from './scopes.js';
import type { TaskBoard, TaskRef, TaskSnapshot } from './task-board.js';
import { domainOfTaskId } from './task-wire.js';

/** A task as one principal may see it: its domain's board, what the board holds, the tool that created it. */
export interface FoundTask {
  domain: string;
  board: TaskBoard;
  snapshot: TaskSnapshot;
  tool: CatalogTool;
}

const TASK_METHODS: ReadonlySet<unknown> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** What a domain's handlers get as their state: its `callState` of the opened state, or that itself. */
export function handlerStateOf(
  catalog: Catalog,
  states: ReadonlyMap<string, DomainLifecycle>,
): (domain: string) => Promise<unknown> {
  return async (domain) => {
    const state = states.get(domain);
    if (state === undefined) throw new Error(`domain "${domain}" is not open`);
    const resolve = catalog.domains.get(domain)?.callState;
    return resolve === undefined ? state : resolve(state);
  };
}

/**
 * The mounted domains' task boards (`Domain.tasks`), and a task found by its id, whose prefix names its domain:
 * for `tasks/*` (tasks-server.ts) and for the scope an OAuth caller needs to send them (the HTTP layer).
 */
export class TaskBoards {
  /** Each tool by its domain and its name in the domain (a snapshot's `tool`). */
  private readonly toolsByDomain = new Map<string, CatalogTool>();
  /** True when some mounted domain keeps tasks: the catalog is complete and fixed, so this is found once. */
  readonly any: boolean;

  constructor(
    private readonly catalog: Catalog,
    private readonly handlerState: (domain: string) => Promise<unknown>,
  ) {
    for (const tool of catalog.tools.values())
      this.toolsByDomain.set(`${tool.domain}\n${tool.spec.name}`, tool);
    this.any = [...catalog.domains.keys()].some((domain) => this.keeps(domain));
  }

  keeps(domain: string): boolean {
    return this.catalog.domains.get(domain)?.mount.domain.tasks !== undefined;
  }

  async boardOf(domain: string): Promise<TaskBoard | undefined> {
    const tasks = this.catalog.domains.get(domain)?.mount.domain.tasks;
    return tasks === undefined ? undefined : tasks(await this.handlerState(domain));
  }

  /** The task `ref` names, if its board holds it for that principal (and its tool is still offered). */
  async find(ref: TaskRef): Promise<FoundTask | undefined> {
    const domain = domainOfTaskId(ref.taskId);
    const board = domain === undefined ? undefined : await this.boardOf(domain);
    const snapshot = await board?.get(ref);
    const tool = snapshot && this.toolsByDomain.get(`${domain}\n${snapshot.tool}`);
    if (domain === undefined || board === undefined || snapshot === undefined || tool === undefined)
      return undefined;
    return { domain, board, snapshot, tool };
  }

  /**
   * The scope a `tasks/*` message needs: that of the tool that created the task, as calling the tool would. An
   * unknown task needs none here (the method answers it as unknown).
   */
  async scopeNeed(message: unknown, principal: string): Promise<ScopeNeed | undefined> {
    if (message === null || typeof message !== 'object') return undefined;
    const { method, params } = message as { method?: unknown; params?: { taskId?: unknown } | null };
    const taskId = params?.taskId;
    if (!TASK_METHODS.has(method) || typeof taskId !== 'string') return undefined;
    const found = await this.find({ taskId, principal });
    const domain = found && this.catalog.domains.get(found.domain)?.mount.domain;
    if (found === undefined || domain === undefined) return undefined;
    return { scope: toolScope(domain, found.tool.spec), target: `the task of the tool "${found.tool.name}"` };
  }
}
