import {
  PlanJourneyInputSchema,
  PlanJourneyOutputSchema,
  planJourneyErrorEnvelope,
} from '@switchyard/contracts/transit';
import { configured } from '../services.js';
import { planJourney } from '../tfl/plan-journey.js';
import { READS_UPSTREAM } from './hints.js';
import { tflConfigured, tool } from './spec.js';

export const planJourneyTool = tool({
  name: 'planJourney',
  title: 'Plan a London journey (TfL)',
  description:
    'Plans a journey in London with the TfL Journey Planner and returns the 5 fastest options with their legs, ' +
    'times (London offset), disruption flags and fares. `from`/`to` take place names, postcodes, "lat,lon" or ' +
    'stop codes. If a name is ambiguous the answer is DISAMBIGUATION_REQUIRED with suggestions: call again ' +
    "with a suggestion's `parameterValue`. Set needAccessibleRoute for step-free routes.",
  input: PlanJourneyInputSchema,
  output: PlanJourneyOutputSchema,
  annotations: READS_UPSTREAM,
  errorPayload: (error) => planJourneyErrorEnvelope(error),
  isErrorOutput: (output) => !output.success,
  when: tflConfigured,
  handler: (input, call) => {
    const tfl = configured(call.state.tfl, 'tfl');
    return planJourney(input, { tfl: tfl.client, limiter: tfl.limiter }, call.signal);
  },
});
