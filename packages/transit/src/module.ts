import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { createCallLimiter, createUpstreamPolicy } from '@switchyard/resilience';
import { createLogger, lazy, resolveDataDir, type DomainModule, type Logger } from '@switchyard/server-kit';
import type { TransitConfig } from './config.js';
import { createRoutingClient, DIGITRANSIT } from './hsl/client.js';
import { createGeocoder, GEOCODING } from './hsl/geocoding.js';
import { openSavedPlaceDatabase } from './places/database.js';
import type { LoadSavedPlaceStore } from './places/store.js';
import type { HslServices, TflServices, TransitServices } from './services.js';
import { createTflClient, TFL } from './tfl/client.js';
import { registerFindStopsTool } from './tools/find-stops.js';
import { registerGetDeparturesTool } from './tools/get-departures.js';
import { registerPlanJourneyTool } from './tools/plan-journey.js';
import { registerPlanTripTool } from './tools/plan-trip.js';
import { registerSavedPlaceTools } from './tools/saved-places.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Digitransit calls per second, across callers, before the HSL tools answer rate-limited (local limiter). */
export const DEFAULT_DIGITRANSIT_CALLS_PER_SECOND = 10;

export interface TransitModuleOptions {
  /** Where transit.sqlite (saved places) lives; default `resolveDataDir()`. */
  dataDir?: string;
  /** Logger for upstream retries and breaker changes; default JSON lines on stderr. */
  logger?: Logger;
  /** Local limit on Digitransit calls per second (all HSL tools, all callers); default 10. */
  digitransitCallsPerSecond?: number;
}

function tflServices(config: TransitConfig, logger: Logger): TflServices | undefined {
  if (config.tfl === undefined) return undefined;
  const policy = createUpstreamPolicy({
    upstream: TFL,
    timeoutMs: config.tfl.timeoutMs,
    retryBudgetMs: config.retryBudgetMs,
    logger,
  });
  return {
    client: createTflClient({ config: config.tfl, policy }),
    limiter: createCallLimiter({ name: 'planJourney', points: config.tfl.planJourneyTps, durationMs: 1000 }),
  };
}

function hslServices(config: TransitConfig, logger: Logger, callsPerSecond: number): HslServices | undefined {
  const hsl = config.hsl;
  if (hsl === undefined) return undefined;
  const policy = (upstream: string) =>
    createUpstreamPolicy({ upstream, timeoutMs: hsl.timeoutMs, retryBudgetMs: config.retryBudgetMs, logger });
  return {
    routing: createRoutingClient({ config: hsl, policy: policy(DIGITRANSIT) }),
    geocoder: createGeocoder({ config: hsl, policy: policy(GEOCODING) }),
    limiter: createCallLimiter({ name: 'Digitransit', points: callsPerSecond, durationMs: 1000 }),
    bounds: hsl.regionBounds,
  };
}

/**
 * The saved-place store over the open database, loaded by the first tool call that touches saved places:
 * drizzle's query builder (over a hundred module files) is not needed to start. A failed load is the
 * calling tool's internal error; the next call retries.
 */
function lazySavedPlaceStore(database: Database.Database): LoadSavedPlaceStore {
  return lazy(async () => {
    try {
      const { createSavedPlaceStore } = await import('./places/store.js');
      return createSavedPlaceStore(database);
    } catch (cause) {
      throw new SwitchyardError('internal', 'Saved places are unavailable: their store could not be loaded', {
        hint: 'Try again; if this keeps happening, reinstall @switchyard/transit.',
        cause,
      });
    }
  });
}

/**
 * The transit DomainModule: planJourney (TfL) when `tfl` is enabled; get_departures, plan_trip and
 * find_stops (HSL) when `hsl` is; the saved-place tools always. Opens and migrates transit.sqlite at once
 * (a bad or locked file fails the start); the store's query code loads with the first call that needs it.
 */
export function createTransitModule(config: TransitConfig, options: TransitModuleOptions = {}): DomainModule {
  const logger = options.logger ?? createLogger({ fields: { domain: 'transit' } });
  const database = openSavedPlaceDatabase(options.dataDir ?? resolveDataDir());
  const savedPlaces = lazySavedPlaceStore(database);
  const tfl = tflServices(config, logger);
  const hsl = hslServices(
    config,
    logger,
    options.digitransitCallsPerSecond ?? DEFAULT_DIGITRANSIT_CALLS_PER_SECOND,
  );
  const services: TransitServices = {
    savedPlaces,
    logger,
    ...(tfl === undefined ? {} : { tfl }),
    ...(hsl === undefined ? {} : { hsl }),
  };
  let closed = false;

  return {
    name: 'transit',
    version,
    register(server, ctx) {
      if (tfl !== undefined) registerPlanJourneyTool(server, ctx, tfl);
      if (hsl !== undefined) {
        registerGetDeparturesTool(server, ctx, services, hsl);
        registerPlanTripTool(server, ctx, services, hsl);
        registerFindStopsTool(server, ctx, hsl);
      }
      registerSavedPlaceTools(server, ctx, savedPlaces);
    },
    ready() {
      return !closed;
    },
    async close() {
      if (closed) return;
      closed = true;
      database.close();
    },
  };
}
