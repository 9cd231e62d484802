/**
 * `@switchyard/server-kit/runtime`: what domain logic uses at run time (modules and stores loaded on first
 * use, SQLite, logging, the data directory, configuration errors, the local principal), without the MCP SDK.
 * Domain code imports from here, so that loading a domain's logic (a client, a store) never loads the SDK; a
 * test pins it.
 */
export { ConfigError } from './config-error.js';
export { lazy } from './lazy.js';
export { lazyStore, type LazyStore, type LazyStoreOptions } from './lazy-store.js';
export {
  createLogger,
  LOG_FORMATS,
  resolveLogFormat,
  type LogFormat,
  type Logger,
  type LoggerOptions,
  type LogLevel,
} from './logger.js';
export { applyMigrations, openDatabase, type OpenDatabaseOptions } from './sqlite.js';
export { resolveDataDir } from './data-dir.js';
export { localPrincipal } from '../principal.js';
export { claimUnownedRows } from './ownership.js';
export {
  DATABASE_URL_VARIABLE,
  describeDatabase,
  describeStorage,
  resolvePostgresSettings,
  type PostgresSettings,
} from './postgres-settings.js';
export {
  partEnd,
  textAnswerBytes,
  textFitting,
  toolAnswerBytes,
  toolAnswerFits,
  type AnswerForm,
  type TextFit,
} from './answer-bytes.js';
export {
  assertOffsetWithin,
  NEXT_PART_META,
  nextPartMeta,
  partQueryNumber,
  textPart,
  type TextPart,
} from './text-parts.js';
export {
  databaseErrorCode,
  isDatabaseUnreachable,
  replaceUnreachable,
  reportingUnreachable,
} from './database-faults.js';
