import {
  GET_DEPARTURES_ERROR_TABLE,
  GetDeparturesInputSchema,
  GetDeparturesOutputSchema,
} from '@switchyard/contracts/transit';
import { getDepartures, parseStopId } from '../hsl/departures.js';
import { resolveStopLabel } from '../places/resolve.js';
import { configured } from '../services.js';
import { hslErrors, READS_UPSTREAM } from './hints.js';
import { offeredWithHsl, tool } from './spec.js';
import { warnedPaging } from './answer-limit.js';

const HINTS = {
  stop: "Pass stop as { type: 'id', value: 'HSL:1040129' } or { type: 'label', value: '<saved stop key>' }.",
  'stop.type': "stop.type is 'id' (a GTFS stop id) or 'label' (a saved place).",
  'stop.value': 'Use find_stops to look up a stop id such as HSL:1040129.',
  windowMinutes: 'windowMinutes is a whole number from 1 to 120 (default 30).',
  limit: 'limit is a whole number from 1 to 50 (default 10).',
  language: 'language is fi, sv or en.',
};

export const getDeparturesTool = tool({
  name: 'get_departures',
  title: 'Next departures at a stop (HSL)',
  description:
    'Lists the next departures from a Helsinki-region (HSL) stop, soonest first, with realtime delays and ' +
    'cancellations. The stop is a GTFS id (find_stops finds ids) or the label of a saved stop.',
  input: GetDeparturesInputSchema,
  output: GetDeparturesOutputSchema,
  annotations: READS_UPSTREAM,
  view: 'departure-board',
  paging: warnedPaging({ list: 'departures', items: 'departures', narrower: 'ask for fewer (limit)' }),
  ...hslErrors(GET_DEPARTURES_ERROR_TABLE, HINTS, 'Check the stop reference and the limits.'),
  ...offeredWithHsl,
  handler: async (input, call) => {
    const hsl = configured(call.state.hsl, 'hsl');
    const requestReceivedMs = Date.now();
    const stopId =
      input.stop.type === 'id'
        ? parseStopId(input.stop.value)
        : await resolveStopLabel(await call.state.savedPlaces(), call.principal, input.stop.value);
    return getDepartures(hsl.forCall().routing, {
      stopId,
      request: input,
      correlationId: call.correlationId,
      requestReceivedMs,
      alertLimits: hsl.alerts,
      signal: call.signal,
    });
  },
});
