import { GetDeparturesInputSchema, GetDeparturesOutputSchema } from './departures.js';
import { GetLineStatusInputSchema, GetLineStatusOutputSchema } from './line-status.js';
import { GetLondonArrivalsInputSchema, GetLondonArrivalsOutputSchema } from './london-arrivals.js';
import { FindLondonStopsInputSchema, FindLondonStopsOutputSchema } from './london-stops.js';
import { PlanJourneyInputSchema, PlanJourneyOutputSchema } from './plan-journey.js';
import { PlanTripInputSchema, PlanTripOutputSchema } from './plan-trip.js';
import {
  DeleteUserVariableInputSchema,
  DeleteUserVariableOutputSchema,
  GetUserVariablesInputSchema,
  GetUserVariablesOutputSchema,
  SaveUserVariableInputSchema,
  SaveUserVariableOutputSchema,
} from './saved-places.js';
import { FindStopsInputSchema, FindStopsOutputSchema } from './stops.js';
import { nameToolSchemas } from '../schema-names.js';

export * from './common.js';
export * from './plan-journey.js';
export * from './departures.js';
export * from './plan-trip.js';
export * from './service-alerts.js';
export * from './saved-places.js';
export * from './stops.js';
export * from './london-envelope.js';
export * from './london-arrivals.js';
export * from './line-status.js';
export * from './london-stops.js';
export {
  GET_DEPARTURES_ERROR_TABLE,
  LONDON_ERROR_TABLE,
  PLAN_JOURNEY_ERROR_TABLE,
  PLAN_TRIP_ERROR_TABLE,
  TRANSIT_EXTRA_ERROR_TABLE,
  HslErrorPayloadSchema,
  hslErrorPayload,
  planJourneyErrorEnvelope,
} from '../errors/index.js';
export type {
  HslErrorCode,
  HslErrorPayload,
  LondonErrorCode,
  PlanJourneyErrorCode,
} from '../errors/index.js';

/** Every transit tool's input and success output schema, by tool name. */
export const TRANSIT_TOOL_SCHEMAS = {
  planJourney: { input: PlanJourneyInputSchema, output: PlanJourneyOutputSchema },
  get_departures: { input: GetDeparturesInputSchema, output: GetDeparturesOutputSchema },
  plan_trip: { input: PlanTripInputSchema, output: PlanTripOutputSchema },
  find_stops: { input: FindStopsInputSchema, output: FindStopsOutputSchema },
  get_london_arrivals: { input: GetLondonArrivalsInputSchema, output: GetLondonArrivalsOutputSchema },
  get_line_status: { input: GetLineStatusInputSchema, output: GetLineStatusOutputSchema },
  find_london_stops: { input: FindLondonStopsInputSchema, output: FindLondonStopsOutputSchema },
  save_user_variable: { input: SaveUserVariableInputSchema, output: SaveUserVariableOutputSchema },
  get_user_variables: { input: GetUserVariablesInputSchema, output: GetUserVariablesOutputSchema },
  delete_user_variable: { input: DeleteUserVariableInputSchema, output: DeleteUserVariableOutputSchema },
} as const;
nameToolSchemas(TRANSIT_TOOL_SCHEMAS);
export type TransitToolName = keyof typeof TRANSIT_TOOL_SCHEMAS;
