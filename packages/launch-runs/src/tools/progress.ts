import type { ToolCall } from '@switchyard/server-kit';
import type { ProgressListener } from '../runs/executor.js';
import type { CallOptions } from '../runs/service.js';

/** Step progress of a call that works while its request is open, as MCP progress notifications. */
function progressOf(call: ToolCall): ProgressListener | undefined {
  if (!call.progress.enabled) return undefined;
  return (update) => {
    void call.progress.report(update.progress, update.total, update.message);
  };
}

/** What stops a call's step: its request's signal, and its cancel relayed through the store (its id). */
export function stoppedByRequest(call: ToolCall): Pick<CallOptions, 'signal' | 'request'> {
  return { signal: call.signal, request: call.requestId };
}

/** How a call that works while its request is open runs: stopped by its request, reporting its steps. */
export function whileRequestOpen(call: ToolCall): CallOptions {
  return { ...stoppedByRequest(call), onProgress: progressOf(call) };
}
