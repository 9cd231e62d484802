import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import {
  launchErrorPayload,
  RunConfigSchema,
  RunIdSchema,
  type LaunchErrorPayload,
} from '@switchyard/contracts/launch-runs';
import { describeIssues, SwitchyardError, toSwitchyardError } from '@switchyard/contracts/errors';
import { redactSecrets } from '@switchyard/resilience/context';
import { registerContractTool, type DomainContext, type ToolCall } from '@switchyard/server-kit';
import type { z } from 'zod';
import type { LaunchPolicy } from '../policy/launch-policy.js';
import type { LaunchRunService } from '../runs/service.js';
import type { ActiveSpan, LaunchTelemetry } from '../telemetry/telemetry.js';

export interface LaunchToolDeps {
  /** The run service, loaded with the first call that needs it (rejects with INTERNAL if it cannot be). */
  service: () => Promise<LaunchRunService>;
  telemetry: LaunchTelemetry;
  /** The operator's policy: what a run_config may name (checked by launch_start_run). */
  policy: LaunchPolicy;
}

type ObjectSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

export interface LaunchToolSpec<I extends ObjectSchema, O extends ObjectSchema> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: Omit<ToolAnnotations, 'title'>;
  handler: (input: z.output<I>, call: ToolCall, span: ActiveSpan) => Promise<z.input<O>> | z.input<O>;
}

/** The run_id a failure concerns: the caller's, when it is a well-formed run id (never echo junk back). */
export function runIdFromInput(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const runId = (input as { run_id?: unknown }).run_id;
  return RunIdSchema.safeParse(runId).success ? (runId as string) : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * launch_start_run: a run_config that is present (an object) but breaks run_config.schema.json is
 * SCHEMA_VALIDATION_FAILED with details.issues [{ path: 'run_config.…', message }]; anything else wrong
 * with the request (run_config missing or not an object, a bad idempotency_key, unknown fields) is
 * INVALID_INPUT.
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

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** The contract error payload with every registered secret redacted from messages and details. */
function redactedPayload(error: SwitchyardError, runId: string | undefined): LaunchErrorPayload {
  return JSON.parse(redactSecrets(JSON.stringify(launchErrorPayload(error, runId)))) as LaunchErrorPayload;
}

export function errorCodeOf(error: unknown): string {
  return launchErrorPayload(toSwitchyardError(error)).error.code;
}

/**
 * registerContractTool plus what every launch tool shares: a span per call (also for calls rejected at
 * input validation), the standard error shape with the run_id, SCHEMA_VALIDATION_FAILED for run_config.
 */
export function registerLaunchTool<I extends ObjectSchema, O extends ObjectSchema>(
  server: McpServer,
  ctx: DomainContext,
  deps: LaunchToolDeps,
  spec: LaunchToolSpec<I, O>,
): void {
  const spanName = `launch.tool ${spec.name}`;
  const failedInHandler = new Set<string>();
  registerContractTool(server, ctx, {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    annotations: spec.annotations,
    errorPayload: (error, { correlationId, input }) => {
      const mapped = spec.name === 'launch_start_run' ? classifyStartRunValidation(error, input) : error;
      const runId = runIdFromInput(input);
      if (!failedInHandler.delete(correlationId)) {
        deps.telemetry.recordRejected(
          spanName,
          { kind: 'tool', tool: spec.name, correlationId, ...(runId === undefined ? {} : { runId }) },
          errorCodeOf(mapped),
        );
      }
      return redactedPayload(mapped, runId);
    },
    handler: (input, call) => {
      const runId = runIdFromInput(input);
      return deps.telemetry.inSpan(
        spanName,
        {
          kind: 'tool',
          tool: spec.name,
          correlationId: call.correlationId,
          ...(runId === undefined ? {} : { runId }),
        },
        async (span) => {
          try {
            return await spec.handler(input, call, span);
          } catch (error) {
            failedInHandler.add(call.correlationId);
            throw error;
          }
        },
      );
    },
  });
}
