import { performance } from 'node:perf_hooks';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import {
  describeIssues,
  summarizeIssues,
  SwitchyardError,
  toSwitchyardError,
} from '@switchyard/contracts/errors';
import { toolListingSchemas, type JsonSchema } from '@switchyard/contracts/json-schema';
import { newCorrelationId, withCorrelationId } from '@switchyard/resilience/context';
import { z } from 'zod';
import { assertArgumentDepth } from './argument-depth.js';
import type { DomainContext } from './domain-module.js';
import { DEFAULT_MAX_ARGUMENT_DEPTH } from './limits.js';
import type { Logger } from './logger.js';
import { callerPrincipal, type ToolExtra } from './principal.js';
import { createProgressReporter, type ProgressReporter } from './progress.js';

/** What a handler gets besides its validated input. No MCP plumbing beyond what a handler may need. */
export interface ToolCall {
  correlationId: string;
  /** Aborted when the client cancels the request or the server shuts down. */
  signal: AbortSignal;
  /** Who is calling (see `callerPrincipal`). */
  principal: string;
  progress: ProgressReporter;
  logger: Logger;
  extra: ToolExtra;
}

export interface ErrorPayloadContext {
  correlationId: string;
  /** The raw arguments the client sent (not validated: read defensively). */
  input: unknown;
}

type ObjectSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

export interface ContractToolSpec<I extends ObjectSchema, O extends ObjectSchema> {
  /** The tool name exactly as the contract gives it. */
  name: string;
  title: string;
  /** Tells a model when to use the tool. */
  description: string;
  /** The contract's input schema; every field described. */
  input: I;
  /** The contract's success payload schema. */
  output: O;
  annotations: Omit<ToolAnnotations, 'title'>;
  /** Builds the contract's error payload from a domain error (validation failures included). */
  errorPayload: (error: SwitchyardError, context: ErrorPayloadContext) => Record<string, unknown>;
  /**
   * The contract's error payload schema (e.g. `HslErrorPayloadSchema`). It is listed in `outputSchema` next
   * to `output`, because SDK clients check `structuredContent` against the listed schema even on
   * `isError` results; in strict mode an error payload that breaks it fails the call loudly. Default: any
   * object with an `error` object (the shape every Switchyard error payload has). Not needed with
   * `isErrorOutput`, where the success envelope also carries failures.
   */
  errorOutput?: ObjectSchema;
  /** For contracts whose failures share the success envelope (planJourney): which outputs are errors. */
  isErrorOutput?: (output: z.output<O>) => boolean;
  handler: (input: z.output<I>, call: ToolCall) => Promise<z.input<O>> | z.input<O>;
}

/**
 * A zod schema that accepts any object but lists as `json` in `tools/list`. The SDK would otherwise
 * validate arguments itself and answer bad input with a bare text error; the contracts require their own
 * validation payloads, so validation happens in the handler below, once, with the contract schema.
 * `json` replaces what the lenient object would list at the root (`properties`, `additionalProperties`).
 */
function listingSchema(json: JsonSchema): z.ZodType<Record<string, unknown>> {
  return z.looseObject({}).meta({ properties: undefined, additionalProperties: undefined, ...json });
}

function toolResult(payload: Record<string, unknown>, isError: boolean): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(payload) }],
    structuredContent: payload,
    ...(isError ? { isError: true } : {}),
  };
}

/**
 * Registers one contract tool: validates input with the contract schema, calls the handler, validates the
 * output against the contract, maps thrown errors to the contract's error payload (`isError: true`, with
 * `structuredContent` and a JSON text mirror), stamps a correlation id and logs duration and outcome.
 */
export function registerContractTool<I extends ObjectSchema, O extends ObjectSchema>(
  server: McpServer,
  ctx: DomainContext,
  spec: ContractToolSpec<I, O>,
): RegisteredTool {
  const logger = ctx.logger.child({ tool: spec.name });
  const listed = toolListingSchemas(spec);
  return server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: listingSchema(listed.inputSchema),
      outputSchema: listingSchema(listed.outputSchema),
      annotations: { title: spec.title, ...spec.annotations },
    },
    async (rawArgs: Record<string, unknown>, extra: ToolExtra): Promise<CallToolResult> => {
      const correlationId = newCorrelationId();
      return withCorrelationId(correlationId, async () => {
        const started = performance.now();
        try {
          // Before zod: validators recurse, and a few thousand levels would end in a RangeError.
          assertArgumentDepth(rawArgs, ctx.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH);
          const parsed = spec.input.safeParse(rawArgs);
          if (!parsed.success) {
            throw new SwitchyardError('validation', describeIssues(parsed.error.issues), {
              details: { issues: summarizeIssues(parsed.error.issues) },
            });
          }
          const call: ToolCall = {
            correlationId,
            signal:
              ctx.shutdownSignal === undefined
                ? extra.signal
                : AbortSignal.any([extra.signal, ctx.shutdownSignal]),
            principal: callerPrincipal(extra),
            progress: createProgressReporter(extra),
            logger,
            extra,
          };
          const output = await spec.handler(parsed.data, call);
          const checked = spec.output.safeParse(output);
          if (!checked.success) {
            const violation = describeIssues(checked.error.issues);
            if (ctx.strictOutput) {
              throw new SwitchyardError('internal', 'The tool produced output that breaks its contract', {
                details: { cause_class: 'ContractViolation', violation },
              });
            }
            logger.warn('output breaks the contract', { violation });
          }
          const payload = (checked.success ? checked.data : output) as z.output<O>;
          const isError = spec.isErrorOutput?.(payload) ?? false;
          logger.debug('tool call', {
            outcome: isError ? 'error' : 'ok',
            durationMs: performance.now() - started,
          });
          return toolResult(payload, isError);
        } catch (thrown) {
          const error = toSwitchyardError(thrown);
          const fields = { outcome: error.kind, code: error.code, durationMs: performance.now() - started };
          if (error.kind === 'internal') logger.error('tool call failed', { ...fields, cause: error.cause });
          else logger.info('tool call failed', fields);
          const payload = spec.errorPayload(error, { correlationId, input: rawArgs });
          if (spec.errorOutput !== undefined) {
            const checked = spec.errorOutput.safeParse(payload);
            if (!checked.success) {
              const violation = describeIssues(checked.error.issues);
              logger.error('error payload breaks the contract', { violation });
              // No payload to fall back on: in tests, fail the call visibly (the SDK sends a bare text error).
              if (ctx.strictOutput) throw new Error(`Error payload breaks the contract: ${violation}`);
            }
          }
          return toolResult(payload, true);
        }
      });
    },
  );
}
