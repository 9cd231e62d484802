// What every London tool's answer shares (planJourney's envelope): success, code and message first, the same
// fields on success and on failure, the data null on failure.
import { z } from 'zod';
import { codeFor, LONDON_ERROR_TABLE, type LondonErrorCode, type SwitchyardError } from '../errors/index.js';

export const LONDON_CODES = ['OK', ...(Object.keys(LONDON_ERROR_TABLE.codes) as LondonErrorCode[])] as const;
export const LondonCodeSchema = z
  .enum(LONDON_CODES as unknown as ['OK', ...LondonErrorCode[]])
  .describe(
    'OK, or VALIDATION_ERROR, RATE_LIMIT_EXCEEDED, UPSTREAM_TIMEOUT, UPSTREAM_ERROR, INTERNAL_ERROR.',
  );
export type LondonCode = z.infer<typeof LondonCodeSchema>;

/** The envelope's first fields, as planJourney's. */
export const LONDON_ENVELOPE_HEAD = {
  success: z.boolean().describe('Whether the tool execution succeeded.'),
  code: LondonCodeSchema,
  message: z.string().describe('Human-readable result or error summary.'),
};

/** The envelope's rule: code is OK exactly on success, and the data list (`dataKey`) is there exactly then. */
export function londonEnvelopeRule(dataKey: string) {
  return (
    value: { success: boolean; code: string } & Record<string, unknown>,
    ctx: z.RefinementCtx,
  ): void => {
    if (value.success !== (value.code === 'OK')) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'code is OK exactly when success is true' });
    }
    if (value.success !== (value[dataKey] !== null)) {
      ctx.addIssue({
        code: 'custom',
        path: [dataKey],
        message: `${dataKey} is a list on success and null on error`,
      });
    }
  };
}

/** A failure envelope's first fields: the London code for the error, and its message. */
export function londonFailureHead(error: SwitchyardError) {
  return {
    success: false as const,
    code: codeFor(LONDON_ERROR_TABLE, error.kind, error.code),
    message: error.message,
  };
}
