import type { TaskBoard, TaskSnapshot, ToolCall, ToolSpec } from '@switchyard/server-kit';
import { createLogger } from '@switchyard/server-kit/runtime';
import { launchRunsDomainWith } from '../../src/domain.js';
import { launchCallState, type LaunchCallState } from '../../src/open.js';
import type { Harness } from './harness.js';

// The launch tools' tasks as the kit drives them: a handler called with `call.task` (the request declared the
// Tasks extension), and the domain's board the kit serves tasks/* from.

/** The principal every call of these helpers is made as. */
export const OWNER = 'local:task-owner';

const quiet = createLogger({ level: 'error', write: () => {} });

/** The domain's board over a server's call state. */
export async function boardOf(h: Harness): Promise<TaskBoard> {
  return launchRunsDomainWith({}).tasks!(await launchCallState(h.state));
}

/**
 * Calls a tool's handler as the kit calls it, as `principal`; with `taskId`, as a request that declared the
 * Tasks extension (`call.task`), with `ttlMs`, and the other client capabilities `clientCapabilities`.
 */
export async function callHandler(
  h: Harness,
  spec: ToolSpec<LaunchCallState, never>,
  args: Record<string, unknown>,
  taskId?: string,
  ttlMs: number | null = 60_000,
  afterMs = 50,
  clientCapabilities: ToolCall['clientCapabilities'] = {},
) {
  const call: ToolCall<LaunchCallState> = {
    state: await launchCallState(h.state),
    principal: OWNER,
    correlationId: 'c',
    signal: new AbortController().signal,
    progress: { enabled: false, report: async () => undefined },
    logger: quiet,
    answerBytes: 1 << 20,
    clientCapabilities,
    inputResponses: {},
    requestState: undefined,
    ...(taskId === undefined ? {} : { task: { id: taskId, ttlMs, afterMs } }),
  };
  return spec.handler(spec.input.parse(args), call);
}

/** A task as a request of `principal` names it. */
export const ref = (taskId: string, principal = OWNER) => ({ taskId, principal });

/** Polls the board until the task is no longer working (the test's timeout bounds the wait). */
export async function settled(board: TaskBoard, taskId: string): Promise<TaskSnapshot> {
  for (;;) {
    const task = await board.get(ref(taskId));
    if (task === undefined) throw new Error(`task ${taskId} unknown`);
    if (task.status !== 'working') return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
