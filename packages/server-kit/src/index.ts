// The domain seam and the servers that mount domains. Importing this module does not load the MCP SDK
// (runServer loads it when it starts serving); domain logic imports its helpers from './runtime'.
export * from './domain.js';
export * from './tool-spec.js';
export * from './task-board.js';
export { callTool, toolResult, type ToolResult } from './call-tool.js';
export { AnswerAllowance, ANSWER_LIMIT_SETTING } from './answer-budget.js';
export type { ServerIdentity } from './mcp-server.js';
export { buildCatalog, prefixedName, TOOL_NAME, type Catalog, type CatalogOptions } from './catalog.js';
export { listedTool, type ListedTool } from './tool-listing.js';
export { jsonSchemaInput, JSON_SCHEMA_2020_12, STATED_SCHEMA_BOUNDS } from './json-schema-input.js';
export {
  headerMirrorsOf,
  PARAM_HEADER_PREFIX,
  X_MCP_HEADER,
  type HeaderMirror,
  type MirroredType,
} from './header-mirrors.js';
export { UnavailableTools, type DormantTool, type UnmountedDomain } from './unavailable-tools.js';
export { svgIcon, type ListedIcon } from './icons.js';
export { callerPrincipal, oauthPrincipal } from './principal.js';
export type { OAuthCaller } from './principal.js';
export { domainScopes, ScopeTable, toolScope, type ScopeNeed } from './scopes.js';
export { createProgressReporter } from './progress.js';
export {
  AskClient,
  ask,
  askClient,
  declares,
  elicited,
  listedRoots,
  sampledText,
  type ClientCapabilityName,
  type ClientInput,
} from './input-required.js';
export {
  MIN_REQUEST_STATE_KEY_BYTES,
  REQUEST_STATE_KEY_VARIABLE,
  type InputRoundOptions,
  type RequestStateOptions,
} from './request-state.js';
export * from './run-server.js';
export {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_HTTP_MAX_BATCH,
  DEFAULT_INPUT_MAX_ROUNDS,
  DEFAULT_INPUT_ROUND_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_ANSWER_BYTES,
  DEFAULT_MAX_ARGUMENT_DEPTH,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_REQUEST_STATE_BYTES,
  DEFAULT_MAX_YOUNG_GENERATION_MB,
  DEFAULT_HEAP_GROWING_PERCENT,
  DEFAULT_REQUEST_STATE_TTL_S,
  DEFAULT_REQUEST_TIMEOUT_MS,
  LIMITS,
  type LimitName,
} from './limits.js';
export { ARGUMENTS_TOO_DEEP } from './argument-depth.js';
export { ARGUMENT_NOT_TEXT } from './argument-text.js';
export { checkReadiness, type ReadinessReport } from './health.js';
export { isLoopbackHost } from './http/security.js';
export * from './standalone.js';
export { boundMemory } from './runtime/memory-bounds.js';
export { forPeople } from './for-people.js';
