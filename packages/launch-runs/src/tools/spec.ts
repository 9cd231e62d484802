import type { SwitchyardError } from '@switchyard/contracts/errors';
import {
  launchErrorPayload,
  LaunchErrorPayloadSchema,
  RunIdSchema,
  type LaunchErrorPayload,
} from '@switchyard/contracts/launch-runs';
import { redactSecrets } from '@switchyard/resilience/context';
import { specsFor, type ObjectSchema, type ToolSpec } from '@switchyard/server-kit';
import type { LaunchRunsConfig } from '../config.js';
import type { LaunchCallState, LaunchRunsState } from '../open.js';

/** Spec builders typed for launch-runs: handlers' `call.state` has the run service loaded (LaunchCallState). */
export const { tool, resource, prompt } = specsFor<LaunchCallState, LaunchRunsConfig>();
/** Middleware wraps every call, one refused before anything loads too: it sees the opened domain. */
export const { middleware } = specsFor<LaunchRunsState, LaunchRunsConfig>();

/** The run_id a request concerns: the caller's, when it is a well-formed run id (never echo junk back). */
export function runIdFromInput(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const runId = (input as { run_id?: unknown }).run_id;
  return RunIdSchema.safeParse(runId).success ? (runId as string) : undefined;
}

/** The contract error payload with every registered secret redacted from messages and details. */
function redactedPayload(error: SwitchyardError, runId: string | undefined): LaunchErrorPayload {
  return JSON.parse(redactSecrets(JSON.stringify(launchErrorPayload(error, runId)))) as LaunchErrorPayload;
}

type LaunchToolSpec<I extends ObjectSchema, O extends ObjectSchema> = Omit<
  ToolSpec<LaunchCallState, LaunchRunsConfig, I, O>,
  'errorPayload' | 'errorOutput'
>;

/**
 * A launch_* tool: its own spec plus what every one shares: the standard error shape with the run_id, and for
 * a tool about one run, that the run is the caller's (another principal's run answers RUN_NOT_FOUND, as a
 * missing one does) before the tool's own handler runs.
 */
export function launchTool<I extends ObjectSchema, O extends ObjectSchema>(
  spec: LaunchToolSpec<I, O>,
): ToolSpec<LaunchCallState, LaunchRunsConfig, I, O> {
  return tool({
    ...spec,
    handler: async (input, call) => {
      const runId = runIdFromInput(input);
      if (runId !== undefined) await call.state.runs.assertOwned(runId, call.principal);
      return spec.handler(input, call);
    },
    errorPayload: (error, { input }) => redactedPayload(error, runIdFromInput(input)),
    errorOutput: LaunchErrorPayloadSchema,
  });
}
