import { lazy, type DomainModule } from '@switchyard/server-kit';
import { loadJourneyConfig, type JourneyConfig } from './config.js';
import { openJourneyDatabase } from './db/database.js';
import type { JourneyService } from './journeys/journey-service.js';
import { largestRequestBytes } from './journeys/limits.js';
import { registerAddDocumentToJourneyTool } from './tools/add-document-to-journey.js';
import { registerDeleteJourneyTool } from './tools/delete-journey.js';
import { registerGetOrCreateJourneyTool } from './tools/get-or-create-journey.js';
import { registerQueryJourneyHistoryTool } from './tools/query-journey-history.js';
import { registerRecordSessionTool } from './tools/record-session.js';
import { VERSION } from './version.js';

export const JOURNEY_TOOL_NAMES = [
  'get_or_create_journey',
  'query_journey_history',
  'add_document_to_journey',
  'record_session',
  'delete_journey',
] as const;

/**
 * The journey-continuity domain: opens (and migrates) `<dataDir>/journey-continuity.sqlite` now, registers
 * the five journey tools on every MCP session, closes the database on `close()`. The journey service and
 * drizzle's query builder under it load with the first tool call that needs them, not at start.
 */
export function createJourneyModule(config: JourneyConfig = loadJourneyConfig()): DomainModule {
  const database = openJourneyDatabase({ dataDir: config.dataDir, busyTimeoutMs: config.busyTimeoutMs });
  let service: JourneyService | undefined;
  const loadService = lazy(async () => {
    const { JourneyService } = await import('./journeys/journey-service.js');
    service = new JourneyService(database, {
      maxDocumentBytes: config.maxDocumentBytes,
      snippetScanBytes: config.snippetScanBytes,
    });
    return service;
  });
  let closed = false;
  return {
    name: 'journey-continuity',
    version: VERSION,
    maxRequestBytes: largestRequestBytes(config.maxDocumentBytes),
    register(server, ctx) {
      registerGetOrCreateJourneyTool(server, ctx, loadService);
      registerQueryJourneyHistoryTool(server, ctx, loadService);
      registerAddDocumentToJourneyTool(server, ctx, loadService, config.maxDocumentBytes);
      registerRecordSessionTool(server, ctx, loadService);
      registerDeleteJourneyTool(server, ctx, loadService);
    },
    ready() {
      return !closed && database.sqlite.open;
    },
    async close() {
      if (closed) return;
      closed = true;
      service?.close();
      database.sqlite.close();
    },
  };
}
