// @switchyard/upstream-mocks: loopback stand-ins for TfL and Digitransit that speak their real wire formats.

export { startTflMock } from './tfl/server.js';
export type { TflMock, TflMockOptions } from './tfl/server.js';
export { TFL_SCENARIOS } from './tfl/scenarios.js';
export type { TflScenarioName } from './tfl/scenarios.js';

export { startDigitransitMock } from './digitransit/server.js';
export type { DigitransitMock, DigitransitMockOptions } from './digitransit/server.js';
export {
  DIGITRANSIT_DATA_SCENARIOS,
  DIGITRANSIT_SCENARIOS,
  GEOCODING_SCENARIOS,
  TRANSPORT_SCENARIOS,
} from './digitransit/scenarios.js';
export type {
  DigitransitScenarioName,
  GeocodingScenarioName,
  TransportScenarioName,
} from './digitransit/scenarios.js';

export { reply } from './reply.js';
export type { HeaderMap, MockReply } from './reply.js';
export type { ScenarioContext, ScenarioHandler, ScenarioOptions } from './scenario.js';
export type { GraphQLRequestBody, RecordedRequest } from './http.js';

// Fixture data and builders, for assertions and parser tests.
export { TFL_STATIONS } from './tfl/data.js';
export type { TflStation } from './tfl/data.js';
export { buildItineraryResult } from './tfl/journeys.js';
export { ARRIVAL_STOPS, buildArrivals, PREDICTION_LIFETIME_SECONDS } from './tfl/arrivals.js';
export type { ArrivalService, ArrivalStop, ArrivalsQuery } from './tfl/arrivals.js';
export type { JourneyRequest } from './tfl/journeys.js';
export { buildDisambiguationResult, HIGHGATE_OPTIONS, VICTORIA_OPTIONS } from './tfl/disambiguation.js';
export type { MatchStatus, TflDisambiguationOption } from './tfl/disambiguation.js';
export { journeyRequest } from './tfl/request.js';
export {
  HSL_AGENCY,
  HSL_ROUTES,
  HSL_STATIONS,
  HSL_STOPS,
  ROUTER_BOUNDS,
  ROUTERS,
} from './digitransit/data.js';
export type { HslRoute, HslStation, HslStop, TransitModeName } from './digitransit/data.js';
export { buildDepartures, MIXED_DEPARTURES, selectDepartures } from './digitransit/departures.js';
export type {
  DepartureRecord,
  DepartureVariant,
  RealtimeStateName,
  StoptimeArgs,
} from './digitransit/departures.js';
export { PELIAS_PLACES } from './geocoding/pelias.js';
export type { PeliasFeature } from './geocoding/pelias.js';
export { otpSchema, OTP_SCHEMA_JSON_PATH } from './digitransit/schema.js';
export { validateOtpQuery } from './digitransit/graphql.js';
export type { OtpGraphQLResponse } from './digitransit/graphql.js';
export type { OtpGraphQLError } from './digitransit/errors.js';
export { HELSINKI, LONDON, isoDuration, localDateTime, offsetDateTime, serviceDayStart } from './time.js';
