export * from './fields.js';
export * from './tools.js';
export { JOURNEY_ERROR_TABLE, journeyErrorPayload, JourneyErrorPayloadSchema } from '../errors/index.js';
export type { JourneyErrorCode, JourneyErrorPayload } from '../errors/index.js';
