export * from './run-config.js';
export * from './validation.js';
export * from './status.js';
export * from './tools.js';
export * from './tool-states.js';
export { LAUNCH_ERROR_TABLE, launchErrorPayload, LaunchErrorPayloadSchema } from '../errors/index.js';
export type { LaunchErrorCode, LaunchErrorPayload } from '../errors/index.js';
