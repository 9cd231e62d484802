import { readFileSync } from 'node:fs';
import { defineDomain } from '@switchyard/server-kit';
import { describeStorage } from '@switchyard/server-kit/runtime';
import { loadJourneyConfig } from './config.js';
import { DATABASE_URL_VARIABLE, POSTGRES_MIGRATIONS_FOLDER } from './db/database.js';
import { largestRequestBytes } from './journeys/limits.js';
import { openJourney } from './open.js';
import { recapPrompt } from './prompts/recap.js';
import { JOURNEY_ADMIN_SCOPE } from './tools/acting-for.js';
import { addDocumentToJourneyTool } from './tools/add-document-to-journey.js';
import { deleteJourneyTool } from './tools/delete-journey.js';
import { getOrCreateJourneyTool } from './tools/get-or-create-journey.js';
import { queryJourneyHistoryTool } from './tools/query-journey-history.js';
import { recordSessionTool } from './tools/record-session.js';
import { sessionPartResource, sessionResource } from './tools/session-resource.js';
import { VERSION } from './version.js';

export const JOURNEY_TOOL_NAMES = [
  'get_or_create_journey',
  'query_journey_history',
  'add_document_to_journey',
  'record_session',
  'delete_journey',
] as const;

/**
 * The journey-continuity domain: the five journey tools of seed 004 over one SQLite file,
 * `journey-continuity.sqlite` in the server's data directory, or over PostgreSQL (JOURNEY_DATABASE_URL or
 * SWITCHYARD_DATABASE_URL), opened by `openJourney`. Its
 * configuration comes from the environment (`loadJourneyConfig`); requests may be as large as the largest
 * document it accepts needs (`maxRequestBytes`).
 */
export const journeyDomain = defineDomain({
  name: 'journey-continuity',
  version: VERSION,
  title: 'Journey continuity',
  instructions:
    "Keeps a person's journey across conversations. At the start, get_or_create_journey with their user_id " +
    'returns their journey (created on first use); query_journey_history searches what earlier sessions ' +
    'said (and, with include_documents, the documents saved with the journey). At the end, record_session ' +
    'adds a summary of the conversation; add_document_to_journey keeps a WOOP plan, file, artifact or note ' +
    'with it. delete_journey forgets a journey and everything in it when the person asks.',
  toolPrefix: 'journey',
  // OAuth: the read-only tools need journey:read, the others journey:write; journey:admin lets a trusted
  // backend act for other users (tools/acting-for.ts).
  scopes: { read: 'journey:read', write: 'journey:write', extra: [JOURNEY_ADMIN_SCOPE] },
  // Drawn for Switchyard (MIT, like the code); shipped in the package's icons/ folder.
  icon: readFileSync(new URL('../icons/journey-continuity.svg', import.meta.url), 'utf8'),
  // Journeys move to PostgreSQL with JOURNEY_DATABASE_URL (or SWITCHYARD_DATABASE_URL).
  postgres: { variable: DATABASE_URL_VARIABLE, migrationsFolder: POSTGRES_MIGRATIONS_FOLDER },
  config: loadJourneyConfig,
  describe: (config, dataDir) => describeStorage(config.database, dataDir),
  // The HTTP body and stdio message limits are raised so that a document of the largest allowed size fits.
  maxRequestBytes: (config) => largestRequestBytes(config.maxDocumentBytes),
  open: (config, runtime) => openJourney(config, runtime),
  tools: [
    getOrCreateJourneyTool,
    queryJourneyHistoryTool,
    addDocumentToJourneyTool,
    recordSessionTool,
    deleteJourneyTool,
  ],
  // The part's template first: the whole session's {session_id} would also match its ?offset=.
  resources: [sessionPartResource, sessionResource],
  prompts: [recapPrompt],
});
