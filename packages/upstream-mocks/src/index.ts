// @switchyard/upstream-mocks: loopback stand-ins for TfL and Digitransit that speak their real wire formats.

export { startTflMock } from './tfl/server.js';
export type { TflMock } from './tfl/server.js';
export { TFL_SCENARIOS } from './tfl/scenarios.js';
export type { TflScenarioName } from './tfl/scenarios.js';

export { startDigitransitMock } from './digitransit/server.js';
export type { DigitransitMock } from './digitransit/server.js';
export { DIGITRANSIT_SCENARIOS, GEOCODING_SCENARIOS } from './digitransit/scenarios.js';
export type { DigitransitScenarioName } from './digitransit/scenarios.js';

export { reply } from './reply.js';
export type { HeaderMap, MockReply } from './reply.js';
export type { ScenarioContext, ScenarioHandler, ScenarioOptions } from './scenario.js';
export type { GraphQLRequestBody, RecordedRequest } from './http.js';

// The OTP schema the routing mock validates against, and the time formats of the upstreams.
export { otpSchema, OTP_SCHEMA_JSON_PATH } from './digitransit/schema.js';
export { otpReply, projectOntoQuery, validateOtpQuery } from './digitransit/graphql.js';
export type { OtpGraphQLResponse } from './digitransit/graphql.js';
export type { OtpGraphQLError } from './digitransit/errors.js';
export { HELSINKI, LONDON, isoDuration, localDateTime, offsetDateTime, serviceDayStart } from './time.js';
