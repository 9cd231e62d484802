import type { DomainLifecycle, DomainRuntime } from '@switchyard/server-kit';
import { lazyStore } from '@switchyard/server-kit/runtime';
import type { JourneyConfig } from './config.js';
import { openJourneyDatabase } from './db/database.js';
import { storeUnavailable, type JourneyOperation } from './journeys/database-errors.js';
import type { JourneyService } from './journeys/journey-service.js';

/** The opened journey domain: what its tools get as `call.state` (tests and embedders reach it too). */
export interface JourneyState extends DomainLifecycle {
  /**
   * The journey service, without MCP (benchmarks, embedding, tests): loaded with drizzle by the first call;
   * a failed load rejects as `operation`'s 500 ("Failed to add document: …") and the next call tries again.
   */
  service(operation: JourneyOperation): Promise<JourneyService>;
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
  const service = lazyStore({
    load: async () => {
      const { JourneyService } = await import('./journeys/journey-service.js');
      return new JourneyService(database, {
        maxDocumentBytes: config.maxDocumentBytes,
        snippetScanBytes: config.snippetScanBytes,
      });
    },
    unavailable: storeUnavailable,
    close: (loaded) => loaded.close(),
  });
  let closed = false;
  return {
    service: service.get,
    ready() {
      return !closed && database.sqlite.open;
    },
    async close() {
      if (closed) return;
      closed = true;
      await service.close();
      database.sqlite.close();
    },
  };
}
