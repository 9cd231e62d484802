import type { DomainLifecycle, DomainRuntime } from '@switchyard/server-kit';
import { lazy } from '@switchyard/server-kit/runtime';
import type { JourneyConfig } from './config.js';
import { openJourneyDatabase } from './db/database.js';
import type { JourneyService } from './journeys/journey-service.js';
import type { LoadJourneyService } from './tools/shared.js';

/** The opened journey domain: what its tools get as `call.state` (tests and embedders reach it too). */
export interface JourneyState extends DomainLifecycle {
  /**
   * The journey service, without MCP (benchmarks, embedding, tests): loaded with drizzle by the first call;
   * a failed load rejects and the next call tries again.
   */
  service: LoadJourneyService;
  ready(): boolean;
  close(): Promise<void>;
}

/**
 * Opens the journey-continuity domain: opens (and migrates) `<dataDir>/journey-continuity.sqlite` now (a bad
 * or locked file fails the start), closes it on `close()`. The journey service and drizzle's query builder
 * under it load with the first tool call that needs them, not at start.
 */
export function openJourney(config: JourneyConfig, runtime: Pick<DomainRuntime, 'dataDir'>): JourneyState {
  const database = openJourneyDatabase({ dataDir: runtime.dataDir, busyTimeoutMs: config.busyTimeoutMs });
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
    service: loadService,
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
