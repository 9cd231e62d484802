export * from './domain-module.js';
export * from './logger.js';
export * from './principal.js';
export * from './progress.js';
export * from './register-tool.js';
export * from './data-dir.js';
export * from './sqlite.js';
export * from './compose.js';
export * from './run-server.js';
export {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_ARGUMENT_DEPTH,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  LIMITS,
  type LimitName,
} from './limits.js';
export { ARGUMENTS_TOO_DEEP } from './argument-depth.js';
export { checkReadiness, type ReadinessReport } from './health.js';
export { isLoopbackHost } from './http/security.js';
export * from './standalone.js';
export { lazy } from './lazy.js';
