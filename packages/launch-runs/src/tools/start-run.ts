import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LaunchStartRunInputSchema, LaunchStartRunOutputSchema } from '@switchyard/contracts/launch-runs';
import type { DomainContext } from '@switchyard/server-kit';
import { checkRunConfigPolicy } from '../policy/launch-policy.js';
import type { ProgressListener } from '../runs/executor.js';
import { AUTOMATIC_STEP_COUNT } from '../runs/worker-ids.js';
import { registerLaunchTool, type LaunchToolDeps } from './launch-tool.js';

export function registerStartRunTool(server: McpServer, ctx: DomainContext, deps: LaunchToolDeps): void {
  registerLaunchTool(server, ctx, deps, {
    name: 'launch_start_run',
    title: 'Start a documentation launch run',
    description:
      'Starts a launch run from a run_config (product source repo, site repo, sections, allowed paths) and returns ' +
      'its run_id at once in state CREATED; the run then clones, extracts evidence, plans, drafts, links and ' +
      'validates in the background until VALIDATING (issues to fix) or READY_FOR_PR. Poll launch_get_status. ' +
      'Pass an idempotency_key to make retries return the same run. Repositories, PR remotes, the GitHub API and ' +
      "the token variable must be ones the server's operator allows (else INVALID_INPUT naming the setting).",
    input: LaunchStartRunInputSchema,
    output: LaunchStartRunOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    handler: async (input, call, span) => {
      // Before anything is recorded: a run the operator's policy refuses could never clone or open its PR.
      checkRunConfigPolicy(input.run_config, deps.policy);
      // The request closes as soon as the run is recorded, and a progress token dies with its request.
      // A client that asked for progress gets one notification now, then the background steps as
      // `notifications/message` log entries (logger "launch-runs") on its session.
      let onProgress: ProgressListener | undefined;
      if (call.progress.enabled) {
        onProgress = (update) => {
          server
            .sendLoggingMessage({
              level: 'info',
              logger: 'launch-runs',
              data: { event: 'run_progress', ...update },
            })
            .catch(() => undefined);
        };
      }
      const started = (await deps.service()).startRun(
        { run_config: input.run_config, idempotency_key: input.idempotency_key },
        onProgress,
      );
      span.setRunId(started.run_id);
      await call.progress.report(
        0,
        AUTOMATIC_STEP_COUNT,
        started.created
          ? `Run ${started.run_id} created; W1..W7 continue in the background (progress follows as log messages)`
          : `Existing run ${started.run_id} (same idempotency key and config) is ${started.state}`,
      );
      return { ok: true as const, run_id: started.run_id, state: started.state };
    },
  });
}
