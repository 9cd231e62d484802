import { declares, type ToolCall } from '@switchyard/server-kit';
import type { NewTask, TaskTarget } from '../store/task-rows.js';

/** The task a call may answer with (`call.task`: the request declared the Tasks extension), to record. */
export function newTaskOf(call: ToolCall, tool: string, target: TaskTarget): NewTask | undefined {
  if (call.task === undefined) return undefined;
  return {
    taskId: call.task.id,
    principal: call.principal,
    tool,
    target,
    ttlMs: call.task.ttlMs,
    sampling: declares(call.clientCapabilities, 'sampling'),
  };
}
