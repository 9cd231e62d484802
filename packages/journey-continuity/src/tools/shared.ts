import {
  journeyErrorPayload,
  JourneyErrorPayloadSchema,
  type SwitchyardError,
} from '@switchyard/contracts/errors';
import { FAILED_STEP, withStoreLoaded } from '../journeys/database-errors.js';
import type { JourneyService } from '../journeys/journey-service.js';

/** Every journey tool answers failures as `{ error: { status, code, message } }` (seed 004). */
export function errorPayload(error: SwitchyardError): Record<string, unknown> {
  return journeyErrorPayload(error);
}

/** The error side of every journey tool spec: the payload and the schema it is listed and checked with. */
export const JOURNEY_ERRORS = { errorPayload, errorOutput: JourneyErrorPayloadSchema } as const;

/**
 * The journey service, loaded (with drizzle) by the first tool call that needs it; see `openJourney`.
 * The tools import its type only, so declaring them loads none of the store's code.
 */
export type LoadJourneyService = () => Promise<JourneyService>;

/** The service for a tool call; failing to load it answers as that operation's 500. */
export function serviceFor(
  operation: keyof typeof FAILED_STEP,
  loadService: LoadJourneyService,
): Promise<JourneyService> {
  return withStoreLoaded(FAILED_STEP[operation], loadService);
}
