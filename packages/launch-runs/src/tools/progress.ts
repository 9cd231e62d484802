import type { ToolCall } from '@switchyard/server-kit';
import type { ProgressListener } from '../runs/executor.js';

/** Step progress of a call that works while its request is open, as MCP progress notifications. */
export function progressOf(call: ToolCall): ProgressListener | undefined {
  if (!call.progress.enabled) return undefined;
  return (update) => {
    void call.progress.report(update.progress, update.total, update.message);
  };
}
