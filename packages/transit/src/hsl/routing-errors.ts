// OTP's planConnection `routingErrors` (an open set of codes) as plan_trip outcomes. OUTSIDE_BOUNDS and
// LOCATION_NOT_FOUND end the search at once; the others only shape the no-itinerary-found hint.
import { SwitchyardError } from '@switchyard/contracts/errors';
import { nonEmpty } from '../wire.js';
import type { RoutingError } from './itineraries.js';
import { unsupportedRegion } from './region.js';

/** Seed 003's hint for no-itinerary-found. */
export const NO_ITINERARY_HINT = 'Try increasing maxWalkingDistance or adjusting departure time';

/** Hints for the codes that say more than "nothing found". */
const HINTS: Readonly<Record<string, string>> = {
  NO_STOPS_IN_RANGE:
    'No stop is within walking distance of an end: increase maxWalkingDistance or move the point.',
  OUTSIDE_SERVICE_PERIOD:
    "The time is outside the timetable's validity period: choose a time within the next weeks.",
  WALKING_BETTER_THAN_TRANSIT: 'The places are so close that walking beats public transport: walk instead.',
};

function side(error: RoutingError): string {
  const field = error.inputField?.toUpperCase();
  if (field === 'FROM') return 'the origin';
  if (field === 'TO') return 'the destination';
  return 'a point';
}

function find(errors: readonly RoutingError[], code: string): RoutingError | undefined {
  return errors.find((error) => error.code.toUpperCase() === code);
}

/** Throws for the routing errors that no relaxation can fix: unsupported-region, no-itinerary-found. */
export function throwIfUnroutable(errors: readonly RoutingError[]): void {
  const outside = find(errors, 'OUTSIDE_BOUNDS');
  if (outside !== undefined) {
    throw unsupportedRegion(
      `The routing service cannot plan trips there: ${side(outside)} is outside its map data`,
    );
  }
  const notFound = find(errors, 'LOCATION_NOT_FOUND');
  if (notFound !== undefined) {
    const description = nonEmpty(notFound.description);
    throw new SwitchyardError(
      'validation',
      `No itinerary: the routing service could not place ${side(notFound)} on its network` +
        (description === undefined ? '' : ` (${description})`),
      {
        code: 'no-itinerary-found',
        hint: 'Move the point closer to a street or a stop, or pick another place.',
      },
    );
  }
}

/** The no-itinerary-found hint: the first routing error with a specific one, else seed 003's. */
export function noItineraryHint(errors: readonly RoutingError[]): string {
  for (const error of errors) {
    const hint = HINTS[error.code.toUpperCase()];
    if (hint !== undefined) return hint;
  }
  return NO_ITINERARY_HINT;
}
