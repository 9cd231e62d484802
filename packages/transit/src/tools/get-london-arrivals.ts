import {
  GetLondonArrivalsInputSchema,
  GetLondonArrivalsOutputSchema,
  londonArrivalsErrorEnvelope,
} from '@switchyard/contracts/transit';
import { resolveTflStopLabel } from '../places/resolve.js';
import { configured } from '../services.js';
import { getLondonArrivals } from '../tfl/london-arrivals.js';
import { READS_UPSTREAM, tflErrors } from './hints.js';
import { offeredWithTfl, tool } from './spec.js';
import { warnedPaging } from './answer-limit.js';

export const getLondonArrivalsTool = tool({
  name: 'get_london_arrivals',
  title: 'London arrivals (TfL)',
  description: 'Next arrivals at a London stop (TfL), soonest first, with minutes, platform and destination.',
  input: GetLondonArrivalsInputSchema,
  output: GetLondonArrivalsOutputSchema,
  annotations: READS_UPSTREAM,
  view: 'departure-board',
  paging: warnedPaging({
    list: 'arrivals',
    items: 'arrivals',
    narrower: 'ask for fewer (limit) or for some lines only',
  }),
  ...tflErrors(londonArrivalsErrorEnvelope),
  ...offeredWithTfl,
  handler: async (input, call) => {
    const tfl = configured(call.state.tfl, 'tfl');
    const stopId =
      input.stop.type === 'id'
        ? input.stop.value
        : await resolveTflStopLabel(await call.state.savedPlaces(), call.principal, input.stop.value);
    return getLondonArrivals(tfl.arrivals, { stopId, request: input, signal: call.signal });
  },
});
