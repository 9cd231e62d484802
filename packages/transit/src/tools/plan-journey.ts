import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  PlanJourneyInputSchema,
  PlanJourneyOutputSchema,
  planJourneyErrorEnvelope,
} from '@switchyard/contracts/transit';
import { registerContractTool, type DomainContext } from '@switchyard/server-kit';
import type { TflServices } from '../services.js';
import { READS_UPSTREAM } from './hints.js';
import { planJourney } from '../tfl/plan-journey.js';

export function registerPlanJourneyTool(server: McpServer, ctx: DomainContext, tfl: TflServices): void {
  registerContractTool(server, ctx, {
    name: 'planJourney',
    title: 'Plan a London journey (TfL)',
    description:
      'Plans a journey in London with the TfL Journey Planner: the 5 fastest options with legs, times (London ' +
      'offset), disruption flags and fares, between place names, postcodes, "lat,lon" or stop codes. An ' +
      "ambiguous name answers DISAMBIGUATION_REQUIRED with suggestions: call again with one's `parameterValue`.",
    input: PlanJourneyInputSchema,
    output: PlanJourneyOutputSchema,
    annotations: READS_UPSTREAM,
    errorPayload: (error) => planJourneyErrorEnvelope(error),
    isErrorOutput: (output) => !output.success,
    handler: (input, call) => planJourney(input, { tfl: tfl.client, limiter: tfl.limiter }, call.signal),
  });
}
