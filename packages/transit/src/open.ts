import { SwitchyardError } from '@switchyard/contracts/errors';
import { createCallLimiter, createUpstreamPolicy, NO_CALL_LIMIT } from '@switchyard/resilience';
import {
  lazyStore,
  reportingUnreachable,
  type Logger,
  type PostgresSettings,
} from '@switchyard/server-kit/runtime';
import type { TransitConfig } from './config.js';
import { createRoutingClient, DIGITRANSIT } from './hsl/client.js';
import { createGeocoder, GEOCODING } from './hsl/geocoding.js';
import { createSavedPlaceProbe, openSavedPlaceDatabase, type SavedPlaceProbe } from './places/database.js';
import { savedPlacesUnreachable, type LoadSavedPlaceStore, type SavedPlaceStore } from './places/store.js';
import type { HslServices, TflServices, TransitState } from './services.js';
import { createArrivalsSource } from './tfl/arrivals-client.js';
import { createTflClient, createTflGet, TFL } from './tfl/client.js';
import { createCachedTflGet } from './tfl/cached-answers.js';
import { createLineStatusSource } from './tfl/line-status-client.js';
import { createStopsSource } from './tfl/stops-client.js';
import { createResponseCache } from './tfl/response-cache.js';
import { tokenPerCall, tokenPerRequest } from './upstream-tokens.js';

/** What opening transit needs from the server: where transit.sqlite lives, and the domain's logger. */
export interface TransitRuntime {
  dataDir: string;
  /** Logs upstream retries and breaker changes. */
  logger: Logger;
}

function tflServices(config: TransitConfig, logger: Logger): TflServices | undefined {
  if (config.tfl === undefined) return undefined;
  const policy = createUpstreamPolicy({
    upstream: TFL,
    timeoutMs: config.tfl.timeoutMs,
    retryBudgetMs: config.retryBudgetMs,
    logger,
  });
  // One GET for all of TfL: one client, breaker, retry budget and timeout for every London tool; one answer
  // cache (keyed by the request path) bounded as a whole.
  const get = createTflGet({ config: config.tfl, policy });
  const cache = createResponseCache({
    maxEntries: config.tfl.cacheMaxEntries,
    maxBytes: config.tfl.cacheMaxBytes,
  });
  // Each tool its own calls per second, taken by the requests that reach TfL (cache hits cost none).
  const limitedGet = (tool: string, callsPerSecond: number) =>
    tokenPerRequest(get, createCallLimiter({ name: tool, points: callsPerSecond, durationMs: 1000 }));
  const cachedGet = (tool: string, callsPerSecond: number) =>
    createCachedTflGet({ get: limitedGet(tool, callsPerSecond), cache });
  return {
    client: createTflClient(limitedGet('planJourney', config.tfl.planJourneyTps)),
    arrivals: createArrivalsSource(cachedGet('get_london_arrivals', config.tfl.arrivalsTps)),
    lineStatus: createLineStatusSource(cachedGet('get_line_status', config.tfl.lineStatusTps)),
    stops: createStopsSource(cachedGet('find_london_stops', config.tfl.stopsTps)),
  };
}

function hslServices(config: TransitConfig, logger: Logger): HslServices | undefined {
  const hsl = config.hsl;
  if (hsl === undefined) return undefined;
  const policy = (upstream: string) =>
    createUpstreamPolicy({ upstream, timeoutMs: hsl.timeoutMs, retryBudgetMs: config.retryBudgetMs, logger });
  const clients = {
    routing: createRoutingClient({ config: hsl, policy: policy(DIGITRANSIT) }),
    geocoder: createGeocoder({ config: hsl, policy: policy(GEOCODING) }),
  };
  const limiter =
    hsl.callsPerSecond === undefined
      ? NO_CALL_LIMIT
      : createCallLimiter({ name: 'Digitransit', points: hsl.callsPerSecond, durationMs: 1000 });
  return {
    forCall: () => tokenPerCall(clients, limiter),
    bounds: hsl.regionBounds,
    alerts: { max: hsl.alertsMax, textMaxChars: hsl.alertTextMaxChars },
  };
}

/** Where saved places live: transit.sqlite in the data directory, or the operator's PostgreSQL. */
interface SavedPlaceBackend {
  savedPlaces: LoadSavedPlaceStore;
  hasSavedPlaces: SavedPlaceProbe;
  /** The SQLite file is open; PostgreSQL answers a probe now. */
  reachable(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The store loads with the first tool call that touches saved places: drizzle's query builder (over a
 * hundred module files) is not needed to start. A failed load is the calling tool's internal error; the next
 * call retries.
 */
function lazySavedPlaceStore(load: () => Promise<SavedPlaceStore>): LoadSavedPlaceStore {
  return lazyStore({
    load,
    unavailable: (cause) =>
      new SwitchyardError('internal', 'Saved places are unavailable: their store could not be loaded', {
        hint: 'Try again; if this keeps happening, reinstall @switchyard/transit.',
        cause,
      }),
  }).get;
}

function sqliteBackend(dataDir: string, maxPlaces: number): SavedPlaceBackend {
  const database = openSavedPlaceDatabase(dataDir);
  return {
    savedPlaces: lazySavedPlaceStore(async () =>
      (await import('./places/sqlite-store.js')).createSqliteSavedPlaceStore(database, maxPlaces),
    ),
    hasSavedPlaces: createSavedPlaceProbe(database),
    reachable: async () => database.open,
    async close() {
      database.close();
    },
  };
}

async function postgresBackend(
  settings: PostgresSettings,
  maxPlaces: number,
  logger: Logger,
): Promise<SavedPlaceBackend> {
  const [{ openSavedPlacePool, createPostgresSavedPlaceProbe }, { postgresReachability }] = await Promise.all(
    [import('./places/postgres-database.js'), import('@switchyard/server-kit/postgres')],
  );
  const pool = await openSavedPlacePool(settings, logger);
  return {
    savedPlaces: lazySavedPlaceStore(async () =>
      reportingUnreachable(
        (await import('./places/postgres-store.js')).createPostgresSavedPlaceStore(pool, maxPlaces),
        savedPlacesUnreachable,
      ),
    ),
    hasSavedPlaces: createPostgresSavedPlaceProbe(pool),
    reachable: postgresReachability(pool, settings.connectTimeoutMs),
    close: () => pool.end(),
  };
}

/**
 * Opens transit once per process: the TfL services when `tfl` is configured, the HSL ones when `hsl` is,
 * and the saved places' database at once: transit.sqlite (opened and migrated: a bad or locked file fails the
 * start), or PostgreSQL when configured (reached and checked: unreachable or unmigrated fails the start). The
 * saved-place store's query code loads with the first call that needs it.
 */
export async function openTransit(config: TransitConfig, runtime: TransitRuntime): Promise<TransitState> {
  const places =
    config.database === undefined
      ? sqliteBackend(runtime.dataDir, config.maxSavedPlaces)
      : await postgresBackend(config.database, config.maxSavedPlaces, runtime.logger);
  const tfl = tflServices(config, runtime.logger);
  const hsl = hslServices(config, runtime.logger);
  let closed = false;
  return {
    savedPlaces: places.savedPlaces,
    hasSavedPlaces: places.hasSavedPlaces,
    tfl,
    hsl,
    ready: async () => !closed && (await places.reachable()),
    async close() {
      if (closed) return;
      closed = true;
      await places.close();
    },
  };
}
