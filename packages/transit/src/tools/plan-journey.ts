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
      'Plans a journey in London with the TfL Journey Planner and returns the 5 fastest options with their legs, ' +
      'times (London offset), disruption flags and fares. `from`/`to` take place names, postcodes, "lat,lon" or ' +
      'stop codes. If a name is ambiguous the answer is DISAMBIGUATION_REQUIRED with suggestions: call again ' +
      "with a suggestion's `parameterValue`. Set needAccessibleRoute for step-free routes.",
    input: PlanJourneyInputSchema,
    output: PlanJourneyOutputSchema,
    annotations: READS_UPSTREAM,
    errorPayload: (error) => planJourneyErrorEnvelope(error),
    isErrorOutput: (output) => !output.success,
    handler: (input, call) => planJourney(input, { tfl: tfl.client, limiter: tfl.limiter }, call.signal),
  });
}
