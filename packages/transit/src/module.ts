import { createRequire } from 'node:module';
import { createCallLimiter, createUpstreamPolicy } from '@switchyard/resilience';
import { createLogger, resolveDataDir, type DomainModule, type Logger } from '@switchyard/server-kit';
import type { TransitConfig } from './config.js';
import { createRoutingClient, DIGITRANSIT } from './hsl/client.js';
import { createGeocoder, GEOCODING } from './hsl/geocoding.js';
import { openSavedPlaceStore } from './places/store.js';
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
 * The transit DomainModule: planJourney (TfL) when `tfl` is enabled; get_departures, plan_trip and
 * find_stops (HSL) when `hsl` is; the saved-place tools always. Opens transit.sqlite at once.
 */
export function createTransitModule(config: TransitConfig, options: TransitModuleOptions = {}): DomainModule {
  const logger = options.logger ?? createLogger({ fields: { domain: 'transit' } });
  const store = openSavedPlaceStore(options.dataDir ?? resolveDataDir());
  const tfl = tflServices(config, logger);
  const hsl = hslServices(
    config,
    logger,
    options.digitransitCallsPerSecond ?? DEFAULT_DIGITRANSIT_CALLS_PER_SECOND,
  );
  const services: TransitServices = {
    store,
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
      registerSavedPlaceTools(server, ctx, store);
    },
    ready() {
      return !closed;
    },
    async close() {
      if (closed) return;
      closed = true;
      store.close();
    },
  };
}
