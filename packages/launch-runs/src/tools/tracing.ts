import { errorCodeOf } from '../runs/model/errors.js';
import { runIdFromInput, middleware } from './spec.js';

/**
 * A span per tool call (`launch.tool <name>`), around everything the call does: calls refused at input
 * validation get one too, with their error code and `launch.failure_stage=input`. Workers a call starts,
 * in the background too, become children of its span; launch_start_run sets the run id it creates.
 */
export const toolSpans = middleware({
  around: (invocation, next) => {
    const runId = runIdFromInput(invocation.input);
    return invocation.state.telemetry.inSpan(
      `launch.tool ${invocation.tool}`,
      { kind: 'tool', tool: invocation.tool, correlationId: invocation.correlationId, runId },
      async (span) => {
        const outcome = await next();
        if (outcome.error !== undefined) span.fail(errorCodeOf(outcome.error), outcome.stage ?? 'handler');
        return outcome;
      },
    );
  },
});
