import {
  GET_DEPARTURES_ERROR_TABLE,
  JOURNEY_ERROR_TABLE,
  PLAN_JOURNEY_ERROR_TABLE,
} from '@switchyard/contracts/errors';
import type { ToolAnswer } from './harness/mcp-client.js';
import type { ToolContract } from './tools.js';

export type Outcome =
  | { kind: 'success'; payload: Record<string, unknown> }
  | {
      kind: 'error';
      code: string;
      message: string;
      retryable: boolean;
      /** Seconds (HSL `retryAfter`, launch `details.retry_after_s`); undefined when the payload has none. */
      retryAfter: number | undefined;
      validation: boolean;
      internal: boolean;
      payload: Record<string, unknown>;
    }
  | { kind: 'contract-violation'; problem: string };

function issuesText(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Reads a tool answer the way a client following the contract would: a success payload that parses with the
 * output schema, or the contract's own error shape (planJourney's envelope, the HSL, launch and journey error
 * payloads). Anything else is a contract violation.
 */
export function classify(tool: ToolContract, answer: ToolAnswer): Outcome {
  const payload = answer.structured;
  if (payload === undefined)
    return { kind: 'contract-violation', problem: `no structuredContent: ${answer.text.slice(0, 200)}` };

  if (tool.errorStyle === 'plan-journey-envelope') {
    const parsed = tool.output.safeParse(payload);
    if (!parsed.success)
      return { kind: 'contract-violation', problem: `envelope: ${issuesText(parsed.error)}` };
    const envelope = payload as { success: boolean; code: string; message: string };
    if (envelope.success) {
      if (answer.isError) return { kind: 'contract-violation', problem: 'success envelope marked isError' };
      return { kind: 'success', payload };
    }
    const spec = PLAN_JOURNEY_ERROR_TABLE.codes[envelope.code as keyof typeof PLAN_JOURNEY_ERROR_TABLE.codes];
    const wait = /retry after (\d+(?:\.\d+)?) s|wait at least (\d+) s/.exec(envelope.message);
    return {
      kind: 'error',
      code: envelope.code,
      message: envelope.message,
      retryable: spec?.retryable ?? false,
      retryAfter: wait === null ? undefined : Number(wait[1] ?? wait[2]),
      validation: tool.validationCodes.includes(envelope.code),
      internal: tool.internalCodes.includes(envelope.code),
      payload,
    };
  }

  if (!answer.isError) {
    const parsed = tool.output.safeParse(payload);
    if (!parsed.success)
      return { kind: 'contract-violation', problem: `output: ${issuesText(parsed.error)}` };
    if (tool.errorStyle === 'launch' && payload.ok !== true) {
      return { kind: 'contract-violation', problem: 'launch answer without isError but ok is not true' };
    }
    return { kind: 'success', payload };
  }

  const parsed = tool.error?.safeParse(payload);
  if (parsed === undefined || !parsed.success) {
    return {
      kind: 'contract-violation',
      problem: `error payload: ${parsed === undefined ? 'no schema' : issuesText(parsed.error)} in ${JSON.stringify(payload).slice(0, 300)}`,
    };
  }
  switch (tool.errorStyle) {
    case 'hsl': {
      const error = (payload as { error: { code: string; message: string; retryAfter?: number } }).error;
      const spec =
        GET_DEPARTURES_ERROR_TABLE.codes[error.code as keyof typeof GET_DEPARTURES_ERROR_TABLE.codes];
      return {
        kind: 'error',
        code: error.code,
        message: error.message,
        retryable: spec?.retryable ?? false,
        retryAfter: error.retryAfter,
        validation: tool.validationCodes.includes(error.code),
        internal: tool.internalCodes.includes(error.code),
        payload,
      };
    }
    case 'launch': {
      const error = (
        payload as {
          error: { code: string; message: string; retryable: boolean; details: Record<string, unknown> };
        }
      ).error;
      const wait = error.details.retry_after_s;
      return {
        kind: 'error',
        code: error.code,
        message: error.message,
        retryable: error.retryable,
        retryAfter: typeof wait === 'number' ? wait : undefined,
        validation: tool.validationCodes.includes(error.code),
        internal: tool.internalCodes.includes(error.code),
        payload,
      };
    }
    case 'journey': {
      const error = (payload as { error: { code: string; message: string } }).error;
      const spec = JOURNEY_ERROR_TABLE.codes[error.code as keyof typeof JOURNEY_ERROR_TABLE.codes];
      return {
        kind: 'error',
        code: error.code,
        message: error.message,
        retryable: spec?.retryable ?? false,
        retryAfter: undefined,
        validation: tool.validationCodes.includes(error.code),
        internal: tool.internalCodes.includes(error.code),
        payload,
      };
    }
  }
}
