import { performance } from 'node:perf_hooks';
import {
  describeIssues,
  summarizeIssues,
  SwitchyardError,
  toSwitchyardError,
} from '@switchyard/contracts/errors';
import { newCorrelationId, withCorrelationId } from '@switchyard/resilience/context';
import { AnswerAllowance, answerTooLarge, fitAnswer } from './answer-budget.js';
import { DEFAULT_MAX_ANSWER_BYTES } from './limits.js';
import { assertArgumentDepth } from './argument-depth.js';
import { assertTextArguments } from './argument-text.js';
import { AskClient, type ClientInput } from './input-required.js';
import { checkerOf, parsedOutput, sameVerdict } from './output-check.js';
import { payloadJson } from './payload-json.js';
import { TaskStarted, type TaskOutcome } from './task-board.js';
import { toolAnswerBytes } from './runtime/answer-bytes.js';
import type { Logger } from './runtime/logger.js';
import type {
  ContentBlock,
  ObjectSchema,
  ToolCall,
  ToolMiddleware,
  ToolOutcome,
  ToolSpec,
} from './tool-spec.js';

/**
 * A tools/call result as MCP sends it: the payload as structured content with a JSON text mirror first in
 * `content`, then the blocks the spec's `content` added.
 */
export type ToolResult = {
  content: [{ type: 'text'; text: string }, ...ContentBlock[]];
  structuredContent: Record<string, unknown>;
  isError?: true;
};

/**
 * Per-call facts the server knows (who, how to report progress, when to stop, what the client declared and
 * answered: none when left out), and the answer bytes the call's request may still spend (default: the whole
 * default answer limit).
 */
export type CallContext<State> = Omit<
  ToolCall<State>,
  'correlationId' | 'logger' | 'answerBytes' | keyof ClientInput
> &
  Partial<ClientInput> & {
    allowance?: AnswerAllowance;
  };

export interface ToolRunner<State> {
  spec: ToolSpec<State, unknown>;
  /** The domain's logger with the tool's name in every line. */
  logger: Logger;
  middleware: readonly ToolMiddleware<State>[];
  /** The state the handler receives, from the opened one (Domain.callState); without, the opened one itself. */
  callState?: (opened: State) => Promise<unknown>;
  /** Contract violations in output become internal errors (tests) instead of a logged warning. */
  strictOutput: boolean;
  maxArgumentDepth: number;
}

export function toolResult(outcome: ToolOutcome): ToolResult {
  return {
    content: [
      { type: 'text', text: outcome.json ?? payloadJson(outcome.payload) },
      ...(outcome.content ?? []),
    ],
    structuredContent: outcome.payload,
    ...(outcome.isError ? { isError: true as const } : {}),
  };
}

/** What a tool answer's added blocks cost on the wire (each after a comma). */
function contentBytes(content: readonly ContentBlock[]): number {
  return content.reduce((sum, block) => sum + Buffer.byteLength(JSON.stringify(block), 'utf8') + 1, 0);
}

function validationError(issues: Parameters<typeof describeIssues>[0]): SwitchyardError {
  return new SwitchyardError('validation', describeIssues(issues), {
    details: { issues: summarizeIssues(issues) },
  });
}

/**
 * The handler's output held to the contract (output-check.ts: the output itself where the contract's parse would
 * only copy it, else the parsed copy); one that breaks the contract is an internal error in strict mode (tests),
 * else sent as it is with a logged warning. Strict mode also holds the cheaper check to `safeParse`: a verdict
 * or payload that differs from it fails the call, so every answer of every domain's tests compares the two.
 */
function checkOutput<State>(runner: ToolRunner<State>, output: unknown): Record<string, unknown> {
  const schema = runner.spec.output as ObjectSchema;
  const checked = checkerOf(schema)(output);
  if (runner.strictOutput && !sameVerdict(checked, parsedOutput(schema, output))) {
    throw new SwitchyardError('internal', 'The output check and the contract disagree', {
      details: { cause_class: 'OutputCheckMismatch', accepted: checked.success },
    });
  }
  if (checked.success) return checked.payload;
  const violation = describeIssues(checked.issues);
  if (runner.strictOutput) {
    throw new SwitchyardError('internal', 'The tool produced output that breaks its contract', {
      details: { cause_class: 'ContractViolation', violation },
    });
  }
  runner.logger.warn('output breaks the contract', { violation });
  return output as Record<string, unknown>;
}

/**
 * Validates, calls, checks the output against the contract and holds it to the answer limit (cut as the
 * spec's paging says); a thrown error carries its stage.
 */
async function run<State>(
  runner: ToolRunner<State>,
  rawArgs: Record<string, unknown>,
  call: ToolCall<State>,
  allowance: AnswerAllowance,
): Promise<ToolOutcome> {
  const { spec } = runner;
  let stage: 'input' | 'handler' = 'input';
  try {
    assertArgumentDepth(rawArgs, runner.maxArgumentDepth);
    assertTextArguments(rawArgs);
    const parsed = spec.input.safeParse(rawArgs);
    if (!parsed.success) throw validationError(parsed.error.issues);
    const input = parsed.data;
    stage = 'handler';
    const output = await spec.handler(
      input,
      runner.callState === undefined
        ? call
        : { ...call, state: (await runner.callState(call.state)) as State },
    );
    if (output instanceof AskClient) return { payload: {}, isError: false, asked: output };
    if (output instanceof TaskStarted) {
      if (call.task?.id !== output.taskId) {
        throw new SwitchyardError('internal', 'The tool answered with a task it was not given', {
          details: { cause_class: 'TaskNotOffered' },
        });
      }
      return { payload: {}, isError: false, started: output };
    }
    const whole = checkOutput(runner, output);
    const fitted = fitAnswer(whole, allowance, spec.paging, input);
    // A cut answer gained fields from the paging's `rest`: they are held to the contract too.
    const payload = fitted.cut ? checkOutput(runner, fitted.payload) : fitted.payload;
    const content = spec.content?.(payload, input) ?? [];
    // The blocks are not cut: with the payload they fit what is left of the answer limit, or the answer is refused.
    if (content.length > 0) {
      const bytes = toolAnswerBytes(fitted.json) + contentBytes(content);
      if (bytes > allowance.remaining) throw answerTooLarge(allowance, bytes);
    }
    return {
      payload,
      json: fitted.json,
      isError: spec.isErrorOutput?.(payload) ?? false,
      ...(content.length > 0 ? { content } : {}),
    };
  } catch (thrown) {
    const raw = toSwitchyardError(thrown);
    const error = spec.mapError?.(raw, { stage, input: rawArgs }) ?? raw;
    const payload = errorPayloadOf(runner, error, call.correlationId, rawArgs);
    return { payload, isError: true, error, stage };
  }
}

/** The contract's error payload for `error`, held to `errorOutput` as an output is held to `output`. */
function errorPayloadOf<State>(
  runner: ToolRunner<State>,
  error: SwitchyardError,
  correlationId: string,
  input: unknown,
): Record<string, unknown> {
  const payload = runner.spec.errorPayload(error, { correlationId, input });
  if (runner.spec.errorOutput !== undefined) {
    const checked = runner.spec.errorOutput.safeParse(payload);
    if (!checked.success) {
      const violation = describeIssues(checked.error.issues);
      runner.logger.error('error payload breaks the contract', { violation });
      // No payload to fall back on: in tests, fail the call visibly.
      if (runner.strictOutput) throw new Error(`Error payload breaks the contract: ${violation}`);
    }
  }
  return payload;
}

/**
 * The tools/call result of a task's stored outcome, built as a call's own answer is: the output held to the
 * contract (or the refusal's error payload, `isError`), its JSON text mirror first. The call's arguments are not
 * stored with a task, so a spec's `content` blocks (built from them) are not added.
 */
export function taskOutcomeResult<State>(
  runner: ToolRunner<State>,
  outcome: Exclude<TaskOutcome, { kind: 'protocol-error' }>,
): ToolResult {
  const correlationId = newCorrelationId();
  return withCorrelationId(correlationId, () => {
    if (outcome.kind === 'refusal') {
      const payload = errorPayloadOf(runner, outcome.error, correlationId, {});
      return toolResult({ payload, isError: true });
    }
    const payload = checkOutput(runner, outcome.output);
    return toolResult({ payload, isError: runner.spec.isErrorOutput?.(payload) ?? false });
  });
}

/** `run` inside the domain's middleware, the first one outermost. */
function aroundMiddleware<State>(
  runner: ToolRunner<State>,
  rawArgs: Record<string, unknown>,
  correlationId: string,
  state: State,
  run: () => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  const invocation = { tool: runner.spec.name, input: rawArgs, correlationId, state };
  const chain = runner.middleware.reduceRight<() => Promise<ToolOutcome>>(
    (next, middleware) => () => middleware.around(invocation, next),
    run,
  );
  return chain();
}

/**
 * Answers one tools/call: validate the arguments with the contract, call the handler, check the output,
 * map a failure to the contract's error payload. Every call gets a correlation id and one log line with
 * its duration and outcome; the domain's middleware wraps all of it, validation failures included. A
 * handler that asks the client for input (`askClient`) answers that instead of a result, and one that made the
 * call a task (`taskStarted`) the task.
 */
export function callTool<State>(
  runner: ToolRunner<State>,
  rawArgs: Record<string, unknown>,
  context: CallContext<State>,
): Promise<ToolResult | AskClient | TaskStarted> {
  const correlationId = newCorrelationId();
  return withCorrelationId(correlationId, async () => {
    const started = performance.now();
    const {
      allowance = new AnswerAllowance(DEFAULT_MAX_ANSWER_BYTES),
      clientCapabilities = {},
      inputResponses = {},
      ...facts
    } = context;
    const call: ToolCall<State> = {
      ...facts,
      clientCapabilities,
      inputResponses,
      requestState: context.requestState,
      correlationId,
      logger: runner.logger,
      answerBytes: allowance.remaining,
    };
    const outcome = await (runner.middleware.length === 0
      ? run(runner, rawArgs, call, allowance)
      : aroundMiddleware(runner, rawArgs, correlationId, context.state, () =>
          run(runner, rawArgs, call, allowance),
        ));
    if (outcome.asked !== undefined) {
      runner.logger.debug('tool call', {
        outcome: 'input_required',
        durationMs: performance.now() - started,
      });
      return outcome.asked;
    }
    if (outcome.started !== undefined) {
      runner.logger.debug('tool call', { outcome: 'task', durationMs: performance.now() - started });
      return outcome.started;
    }
    const result = toolResult(outcome);
    allowance.spendToolAnswer(result.content[0].text, contentBytes(outcome.content ?? []));
    const durationMs = performance.now() - started;
    if (outcome.error === undefined) {
      runner.logger.debug('tool call', { outcome: outcome.isError ? 'error' : 'ok', durationMs });
    } else {
      const { kind, code, cause } = outcome.error;
      if (kind === 'internal')
        runner.logger.error('tool call failed', { outcome: kind, code, durationMs, cause });
      else runner.logger.info('tool call failed', { outcome: kind, code, durationMs });
    }
    return result;
  });
}
