import { describeIssues, SwitchyardError } from '@switchyard/contracts/errors';
import {
  LaunchStartRunInputSchema,
  LaunchStartRunOutputSchema,
  RunConfigSchema,
  type RunState,
} from '@switchyard/contracts/launch-runs';
import { taskStarted, type ToolCall } from '@switchyard/server-kit';
import type { LaunchCallState } from '../open.js';
import { checkRunConfigPolicy } from '../policy/launch-policy.js';
import type { ProgressListener } from '../runs/executor.js';
import { AUTOMATIC_STEP_COUNT } from '../runs/worker-ids.js';
import { launchTool } from './spec.js';
import { newTaskOf } from './task-call.js';

/** launch_start_run's answer for a run and the state it is in (at once, or as its task ends). */
export function startRunOutput(run: { run_id: string; state: RunState }) {
  return { ok: true as const, run_id: run.run_id, state: run.state };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/**
 * launch_start_run's own validation code: a run_config that is present (an object) but breaks
 * run_config.schema.json is SCHEMA_VALIDATION_FAILED with details.issues [{ path: 'run_config.…', message }];
 * anything else wrong with the request (run_config missing or not an object, a bad idempotency_key, unknown
 * fields) stays INVALID_INPUT.
 */
export function classifyStartRunValidation(error: SwitchyardError, input: unknown): SwitchyardError {
  if (error.kind !== 'validation' || error.code !== undefined || !isPlainObject(input)) return error;
  const runConfig = input.run_config;
  if (!isPlainObject(runConfig)) return error;
  const reported = (error.details?.issues as { path: string }[] | undefined) ?? [];
  const outside = reported.filter(
    (issue) =>
      issue.path !== 'run_config' &&
      !issue.path.startsWith('run_config.') &&
      !issue.path.startsWith('run_config['),
  );
  const parsed = RunConfigSchema.safeParse(runConfig);
  if (outside.length > 0 || parsed.success) return error;
  const issues = parsed.error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: ['run_config', ...issue.path, key],
        message: `Unrecognized key "${key}": remove it (run_config.schema.json allows no other fields)`,
      }));
    }
    return [{ path: ['run_config', ...issue.path], message: issue.message, code: issue.code }];
  });
  const summary = issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  return new SwitchyardError('validation', `run_config is invalid: ${describeIssues(issues)}`, {
    code: 'SCHEMA_VALIDATION_FAILED',
    details: { issues: summary },
  });
}

/**
 * The background steps W1..W7, for a client that asked for progress. The request closes as soon as the
 * run is recorded, and a progress token dies with its request, so the steps go out as
 * `notifications/message` log entries (logger "launch-runs"): only where the connection outlives the
 * call (`call.laterLog`: a 2025-era stdio connection). Everywhere else the client polls launch_get_status.
 */
function backgroundProgress(call: ToolCall<LaunchCallState>): ProgressListener | undefined {
  const { laterLog } = call;
  if (!call.progress.enabled || laterLog === undefined) return undefined;
  return (update) => laterLog('info', { event: 'run_progress', ...update });
}

export const startRunTool = launchTool({
  name: 'launch_start_run',
  title: 'Start a documentation launch run',
  description:
    'Starts a launch run from a run_config and returns its run_id at once in state CREATED; the run then ' +
    'clones, extracts evidence, plans, drafts, links and validates in the background until VALIDATING ' +
    '(issues to fix) or READY_FOR_PR. Poll launch_get_status. Repositories, PR remotes, the GitHub API and ' +
    "the token variable must be ones the server's operator allows (else INVALID_INPUT naming the setting).",
  input: LaunchStartRunInputSchema,
  output: LaunchStartRunOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  view: 'run-dashboard',
  // A task-aware client follows the run through its task: completed once the run rests (VALIDATING or
  // READY_FOR_PR), with this tool's answer at the state it reached.
  task: 'always',
  mapError: (error, { stage, input }) =>
    stage === 'input' ? classifyStartRunValidation(error, input) : error,
  handler: async (input, call) => {
    // Before anything is recorded: a run the operator's policy refuses could never clone or open its PR.
    checkRunConfigPolicy(input.run_config, call.state.policy);
    const onProgress = backgroundProgress(call);
    const task = newTaskOf(call, 'launch_start_run', 'next-stable-state');
    const started = await call.state.runs.startRun(
      call.principal,
      { run_config: input.run_config, idempotency_key: input.idempotency_key },
      onProgress,
      task,
    );
    call.state.telemetry.setCurrentRunId(started.run_id);
    const follow = onProgress === undefined ? 'poll launch_get_status' : 'progress follows as log messages';
    await call.progress.report(
      0,
      AUTOMATIC_STEP_COUNT,
      started.created
        ? `Run ${started.run_id} created; W1..W7 continue in the background (${follow})`
        : `Existing run ${started.run_id} (same idempotency key and config) is ${started.state}`,
    );
    return task === undefined ? startRunOutput(started) : taskStarted(task.taskId);
  },
});
