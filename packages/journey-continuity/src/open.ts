import type { DomainLifecycle, DomainRuntime } from '@switchyard/server-kit';
import { lazyStore, type Logger, type PostgresSettings } from '@switchyard/server-kit/runtime';
import type { JourneyConfig } from './config.js';
import { openJourneyDatabase } from './db/database.js';
import { storeUnavailable, type JourneyOperation } from './journeys/database-errors.js';
import type { JourneyService, JourneyServiceOptions } from './journeys/journey-service.js';

/** The opened journey domain: what its tools get as `call.state` (tests and embedders reach it too). */
export interface JourneyState extends DomainLifecycle {
  /**
   * The journey service, without MCP (benchmarks, embedding, tests): loaded with drizzle by the first call;
   * a failed load rejects as `operation`'s 500 ("Failed to add document: …") and the next call tries again.
   */
  service(operation: JourneyOperation): Promise<JourneyService>;
  /** The database is open (SQLite) or answers now (PostgreSQL: a bounded probe). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Where journeys live: the SQLite file in the data directory, or the operator's PostgreSQL. */
interface JourneyBackend {
  /** The service over the open database (its query code is imported only now). */
  load(options: JourneyServiceOptions): Promise<JourneyService>;
  /** The SQLite file is open; PostgreSQL answers a probe now. */
  reachable(): Promise<boolean>;
  close(): Promise<void>;
}

function sqliteBackend(dataDir: string, busyTimeoutMs: number): JourneyBackend {
  const database = openJourneyDatabase({ dataDir, busyTimeoutMs });
  return {
    load: async (options) =>
      new (await import('./journeys/sqlite-journey-service.js')).SqliteJourneyService(database, options),
    reachable: async () => database.sqlite.open,
    async close() {
      database.sqlite.close();
    },
  };
}

async function postgresBackend(settings: PostgresSettings, logger: Logger): Promise<JourneyBackend> {
  const [{ openJourneyPool }, { postgresReachability }] = await Promise.all([
    import('./db/postgres-database.js'),
    import('@switchyard/server-kit/postgres'),
  ]);
  const pool = await openJourneyPool(settings, logger);
  return {
    load: async (options) =>
      new (await import('./journeys/postgres-journey-service.js')).PostgresJourneyService(pool, options),
    reachable: postgresReachability(pool, settings.connectTimeoutMs),
    close: () => pool.end(),
  };
}

/**
 * Opens the journey-continuity domain: its database now, `<dataDir>/journey-continuity.sqlite` (opened and
 * migrated: a bad or locked file fails the start) or PostgreSQL when configured (reached and checked:
 * unreachable or unmigrated fails the start), closed on `close()`. The journey service and drizzle's query
 * builder under it load with the first tool call that needs them, not at start.
 */
export async function openJourney(
  config: JourneyConfig,
  runtime: Pick<DomainRuntime, 'dataDir' | 'logger'>,
): Promise<JourneyState> {
  const backend =
    config.database === undefined
      ? sqliteBackend(runtime.dataDir, config.busyTimeoutMs)
      : await postgresBackend(config.database, runtime.logger);
  // The rest of the configuration is the service's: its limits and bounds.
  const { busyTimeoutMs: _busyTimeoutMs, database: _database, ...options } = config;
  const service = lazyStore({
    load: () => backend.load(options),
    unavailable: storeUnavailable,
    close: (loaded) => loaded.close(),
  });
  let closed = false;
  return {
    service: service.get,
    async ready() {
      return !closed && (await backend.reachable());
    },
    async close() {
      if (closed) return;
      closed = true;
      await service.close();
      await backend.close();
    },
  };
}
