import {
  FindLondonStopsInputSchema,
  FindLondonStopsOutputSchema,
  londonStopsErrorEnvelope,
} from '@switchyard/contracts/transit';
import { configured } from '../services.js';
import { findLondonStops } from '../tfl/london-stops.js';
import { READS_UPSTREAM, tflErrors } from './hints.js';
import { offeredWithTfl, tool } from './spec.js';
import { warnedPaging } from './answer-limit.js';

export const findLondonStopsTool = tool({
  name: 'find_london_stops',
  title: 'Find London stops (TfL)',
  description: 'London stops by name or near a point (TfL); ids for get_london_arrivals and planJourney.',
  input: FindLondonStopsInputSchema,
  output: FindLondonStopsOutputSchema,
  annotations: READS_UPSTREAM,
  paging: warnedPaging({
    list: 'stops',
    items: 'stops',
    narrower: 'ask for fewer (limit) or a smaller radius',
  }),
  ...tflErrors(londonStopsErrorEnvelope),
  ...offeredWithTfl,
  handler: async (input, call) =>
    findLondonStops(configured(call.state.tfl, 'tfl').stops, input, call.signal),
});
