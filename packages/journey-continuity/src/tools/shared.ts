import {
  journeyErrorPayload,
  JourneyErrorPayloadSchema,
  type SwitchyardError,
} from '@switchyard/contracts/errors';

/** Every journey tool answers failures as `{ error: { status, code, message } }` (seed 004). */
export function errorPayload(error: SwitchyardError): Record<string, unknown> {
  return journeyErrorPayload(error);
}

/** The error side of every journey tool spec: the payload and the schema it is listed and checked with. */
export const JOURNEY_ERRORS = { errorPayload, errorOutput: JourneyErrorPayloadSchema } as const;
