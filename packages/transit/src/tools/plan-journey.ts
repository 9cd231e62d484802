import {
  PlanJourneyInputSchema,
  PlanJourneyOutputSchema,
  planJourneyErrorEnvelope,
} from '@switchyard/contracts/transit';
import { resolveJourneyPlace } from '../places/resolve.js';
import { configured } from '../services.js';
import { planJourney } from '../tfl/plan-journey.js';
import { READS_UPSTREAM, tflErrors } from './hints.js';
import { offeredWithTfl, tool } from './spec.js';
import { messagePaging } from './answer-limit.js';

export const planJourneyTool = tool({
  name: 'planJourney',
  title: 'Plan a London journey (TfL)',
  description:
    'Plans a journey in London with the TfL Journey Planner: the 5 fastest options with legs, times (London ' +
    'offset), disruption flags and fares, between places (see from and to) or your saved London stops and ' +
    'locations (their key). An ambiguous name answers DISAMBIGUATION_REQUIRED with ' +
    "suggestions: call again with one's `parameterValue`.",
  input: PlanJourneyInputSchema,
  output: PlanJourneyOutputSchema,
  annotations: READS_UPSTREAM,
  view: 'itinerary',
  paging: messagePaging(
    { list: 'topJourneys', items: 'journeys', narrower: 'the ones shown are the fastest' },
    { list: 'fromLocationDisambiguation', items: 'suggestions for from', narrower: 'spell the place out' },
    { list: 'toLocationDisambiguation', items: 'suggestions for to', narrower: 'spell the place out' },
  ),
  ...tflErrors(planJourneyErrorEnvelope),
  ...offeredWithTfl,
  handler: async (input, call) => {
    const tfl = configured(call.state.tfl, 'tfl');
    const { savedPlaces, hasSavedPlaces } = call.state;
    const place = (text: string) =>
      resolveJourneyPlace(text, { savedPlaces, hasSavedPlaces, principal: call.principal });
    const [from, to] = await Promise.all([place(input.from), place(input.to)]);
    return planJourney({ ...input, from, to }, { tfl: tfl.client }, call.signal);
  },
});
