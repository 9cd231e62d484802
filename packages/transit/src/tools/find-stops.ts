import {
  FindStopsInputSchema,
  FindStopsOutputSchema,
  TRANSIT_EXTRA_ERROR_TABLE,
} from '@switchyard/contracts/transit';
import { findStops } from '../hsl/stops.js';
import { configured } from '../services.js';
import { hslErrors, READS_UPSTREAM } from './hints.js';
import { offeredWithHsl, tool } from './spec.js';
import { warnedPaging } from './answer-limit.js';

export const findStopsTool = tool({
  name: 'find_stops',
  title: 'Find HSL stops by name or location',
  description:
    'Finds Helsinki-region (HSL) stops by name or short code (`name`), or around a coordinate (`near`, ' +
    'nearest first). Returns the stop ids that get_departures takes and that save_user_variable can save.',
  input: FindStopsInputSchema,
  output: FindStopsOutputSchema,
  annotations: READS_UPSTREAM,
  paging: warnedPaging({
    list: 'stops',
    items: 'stops',
    narrower: 'ask for fewer (limit) or a smaller radius',
  }),
  ...hslErrors(
    TRANSIT_EXTRA_ERROR_TABLE,
    {},
    "Give either name (e.g. 'Rautatientori') or near ({ lat, lon }), not both.",
  ),
  ...offeredWithHsl,
  handler: async (input, call) => {
    const { routing } = configured(call.state.hsl, 'hsl').forCall();
    return findStops(routing, {
      name: input.name,
      near: input.near,
      radiusMeters: input.radiusMeters,
      limit: input.limit,
      language: input.language,
      signal: call.signal,
    });
  },
});
