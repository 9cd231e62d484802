import { z } from 'zod';
import { nameContractSchema } from '../schema-names.js';
import { RETRYABLE_BY_KIND } from './kinds.js';
import type { SwitchyardError } from './switchyard-error.js';
import {
  codeFor,
  GET_DEPARTURES_ERROR_TABLE,
  JOURNEY_ERROR_TABLE,
  LAUNCH_ERROR_TABLE,
  PLAN_JOURNEY_ERROR_TABLE,
  type DomainErrorTable,
  type HslErrorCode,
} from './tables.js';

const hslCodes = Object.keys(GET_DEPARTURES_ERROR_TABLE.codes) as [HslErrorCode, ...HslErrorCode[]];

/** `{ error: { code, message, hint?, retryAfter?, correlationId } }`: get_departures, plan_trip and the saved-place tools. */
export const HslErrorPayloadSchema = z
  .object({
    error: z
      .object({
        code: z.enum(hslCodes).describe('Machine-readable kebab-case error code.'),
        message: z.string().describe('Human-readable summary of what went wrong and what to change.'),
        hint: z.string().optional().describe('A suggestion for the next attempt.'),
        retryAfter: z
          .number()
          .int()
          .nonnegative()
          .optional()
          .describe('Seconds to wait before retrying (rate-limited only).'),
        correlationId: z.uuid().describe('Correlation id of the call, for support and logs.'),
      })
      .describe('The error.'),
  })
  .describe('Error payload of the Digitransit (HSL) transit tools.');
nameContractSchema(HslErrorPayloadSchema, 'hsl-error');
export type HslErrorPayload = z.infer<typeof HslErrorPayloadSchema>;

const launchCodes = Object.keys(LAUNCH_ERROR_TABLE.codes) as [
  keyof typeof LAUNCH_ERROR_TABLE.codes,
  ...(keyof typeof LAUNCH_ERROR_TABLE.codes)[],
];

/** The standard launch-runs error shape (seed 002, binding). */
export const LaunchErrorPayloadSchema = z
  .object({
    ok: z.literal(false).describe('Always false on failure.'),
    run_id: z.string().optional().describe('The run the failure concerns, when the call named one.'),
    error: z
      .object({
        code: z.enum(launchCodes).describe('Standard error code.'),
        message: z.string().describe('Human readable summary.'),
        retryable: z.boolean().describe('Whether repeating the same call may succeed.'),
        details: z
          .record(z.string(), z.unknown())
          .describe('Structured details; INTERNAL always carries details.cause_class.'),
      })
      .describe('The error.'),
  })
  .describe('Error response of every launch_* tool.');
nameContractSchema(LaunchErrorPayloadSchema, 'launch-error');
export type LaunchErrorPayload = z.infer<typeof LaunchErrorPayloadSchema>;

const journeyCodes = Object.keys(JOURNEY_ERROR_TABLE.codes) as [
  keyof typeof JOURNEY_ERROR_TABLE.codes,
  ...(keyof typeof JOURNEY_ERROR_TABLE.codes)[],
];

/** `{ error: { status, code, message } }`: the journey tools (seed 004's statuses and messages). */
export const JourneyErrorPayloadSchema = z
  .object({
    error: z
      .object({
        status: z
          .union([z.literal(400), z.literal(404), z.literal(500)])
          .describe('HTTP-style status from the seed.'),
        code: z.enum(journeyCodes).describe('Machine-readable error code.'),
        message: z.string().describe("The seed's message, e.g. `Journey {id} not found`."),
      })
      .describe('The error.'),
  })
  .describe('Error payload of the journey-continuity tools.');
nameContractSchema(JourneyErrorPayloadSchema, 'journey-error');
export type JourneyErrorPayload = z.infer<typeof JourneyErrorPayloadSchema>;

/** The retryable flag a caller sees: the error's own, else the code's, else the kind's. */
export function retryableFor(table: DomainErrorTable, error: SwitchyardError): boolean {
  if (error.retryable !== undefined) return error.retryable;
  const code = codeFor(table, error.kind, error.code);
  return table.codes[code]?.retryable ?? RETRYABLE_BY_KIND[error.kind];
}

function retryAfterSeconds(error: SwitchyardError): number | undefined {
  return error.retryAfterMs === undefined ? undefined : Math.max(0, Math.ceil(error.retryAfterMs / 1000));
}

export function hslErrorPayload(
  table: DomainErrorTable<HslErrorCode>,
  error: SwitchyardError,
  correlationId: string,
): HslErrorPayload {
  const code = codeFor(table, error.kind, error.code);
  const retryAfter = code === 'rate-limited' ? retryAfterSeconds(error) : undefined;
  return {
    error: {
      code,
      message: error.message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      ...(retryAfter === undefined ? {} : { retryAfter }),
      correlationId,
    },
  };
}

export function launchErrorPayload(error: SwitchyardError, runId?: string): LaunchErrorPayload {
  const code = codeFor(LAUNCH_ERROR_TABLE, error.kind, error.code);
  const details: Record<string, unknown> = { ...(error.details ?? {}) };
  if (code === 'INTERNAL' && typeof details.cause_class !== 'string') {
    details.cause_class = error.cause instanceof Error ? error.cause.constructor.name : 'SwitchyardError';
  }
  const retryAfter = retryAfterSeconds(error);
  if (retryAfter !== undefined && details.retry_after_s === undefined) details.retry_after_s = retryAfter;
  return {
    ok: false,
    ...(runId === undefined ? {} : { run_id: runId }),
    error: { code, message: error.message, retryable: retryableFor(LAUNCH_ERROR_TABLE, error), details },
  };
}

export function journeyErrorPayload(error: SwitchyardError): JourneyErrorPayload {
  const code = codeFor(JOURNEY_ERROR_TABLE, error.kind, error.code);
  const status = JOURNEY_ERROR_TABLE.codes[code].status;
  return { error: { status, code, message: error.message } };
}

/** planJourney's envelope on failure: all six fields, `topJourneys` null. */
export function planJourneyErrorEnvelope(error: SwitchyardError) {
  return {
    success: false as const,
    code: codeFor(PLAN_JOURNEY_ERROR_TABLE, error.kind, error.code),
    message: error.message,
    topJourneys: null,
    fromLocationDisambiguation: null,
    toLocationDisambiguation: null,
  };
}
