export { journeyDomain, JOURNEY_TOOL_NAMES } from './domain.js';
export type { JourneyState } from './open.js';
export {
  ConfigError,
  DEFAULT_BUSY_TIMEOUT_MS,
  DEFAULT_EXCERPT_BYTES,
  DEFAULT_MAX_DOCUMENT_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_TEXT_BYTES,
  loadJourneyConfig,
  type JourneyConfig,
} from './config.js';
export {
  DATABASE_FILE_NAME,
  DATABASE_URL_VARIABLE,
  MIGRATIONS_FOLDER,
  POSTGRES_MIGRATIONS_FOLDER,
} from './db/database.js';
export { MAX_METADATA_BYTES, MAX_SUMMARY_BYTES, MAX_TITLE_CHARS } from './journeys/limits.js';
export { MAX_QUERY_PHRASES, MAX_QUERY_WORDS } from './journeys/fts-query.js';
export { VERSION } from './version.js';
export type {
  AddDocumentToJourneyInput,
  AddDocumentToJourneyOutput,
  DeleteJourneyInput,
  DeleteJourneyOutput,
  GetOrCreateJourneyInput,
  GetOrCreateJourneyOutput,
  QueryJourneyHistoryInput,
  QueryJourneyHistoryOutput,
  RecordSessionInput,
  RecordSessionOutput,
} from '@switchyard/contracts/journey';
