import {
  PLAN_TRIP_ERROR_TABLE,
  PlanTripInputSchema,
  PlanTripOutputSchema,
} from '@switchyard/contracts/transit';
import { planTrip } from '../hsl/plan-trip.js';
import { configured } from '../services.js';
import { hslErrors, READS_UPSTREAM } from './hints.js';
import { offeredWithHsl, tool } from './spec.js';
import { warnedPaging } from './answer-limit.js';

const COORDS =
  "{ type: 'coords', value: { lat: 60.17, lon: 24.94 } } or { type: 'label', value: '<saved place>' }";
const HINTS = {
  origin: `Pass origin as ${COORDS}.`,
  destination: `Pass destination as ${COORDS}; it must differ from origin.`,
  'when.time':
    "Give when.time as an ISO 8601 date-time with Z or an offset, e.g. 2025-09-15T10:00:00Z; 'now' only with depart.",
  'when.type': "when.type is 'depart' or 'arrive'.",
  limit: 'limit is 1, 2 or 3.',
  'constraints.maxWalkingDistance': 'maxWalkingDistance is 1..3000 metres.',
  'constraints.maxTransfers': 'maxTransfers is a whole number from 0 to 8.',
  'constraints.optimize': 'optimize is balanced, few_transfers or shortest_time.',
  'constraints.language': 'language is fi, sv or en.',
};

export const planTripTool = tool({
  name: 'plan_trip',
  title: 'Plan a trip in the Helsinki region (HSL)',
  description:
    'Plans public transport itineraries in the Helsinki region (HSL) between coordinates or saved places, ' +
    'with realtime status per leg, walking and transfer limits and accessibility preferences; finds an ' +
    "alternative when a route is cancelled or badly delayed. For one stop's departures use get_departures.",
  input: PlanTripInputSchema,
  output: PlanTripOutputSchema,
  annotations: READS_UPSTREAM,
  view: 'itinerary',
  paging: warnedPaging({ list: 'itineraries', items: 'itineraries', narrower: 'ask for fewer (limit)' }),
  ...hslErrors(
    PLAN_TRIP_ERROR_TABLE,
    HINTS,
    'Check origin, destination, when and constraints against the schema.',
  ),
  ...offeredWithHsl,
  handler: async (input, call) => {
    const hsl = configured(call.state.hsl, 'hsl');
    const requestReceivedMs = Date.now();
    return planTrip(
      input,
      {
        ...hsl.forCall(),
        savedPlaces: call.state.savedPlaces,
        bounds: hsl.bounds,
        alertLimits: hsl.alerts,
        onAlternativeFailure: (error) =>
          call.logger.warn('disruption alternative search failed; returning the primary itineraries', {
            kind: error.kind,
            reason: error.message,
          }),
      },
      {
        principal: call.principal,
        correlationId: call.correlationId,
        requestReceivedMs,
        signal: call.signal,
      },
    );
  },
});
