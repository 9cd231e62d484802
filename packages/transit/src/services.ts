// What the tools share within one module instance: clients, limiters and the saved-place store. Created once
// per module (not per MCP session) so breakers, limiters and the database are shared by every session.
import type { CallLimiter } from '@switchyard/resilience';
import type { Logger } from '@switchyard/server-kit';
import type { RegionBounds } from './config.js';
import type { RoutingClient } from './hsl/client.js';
import type { Geocoder } from './hsl/geocoding.js';
import type { LoadSavedPlaceStore } from './places/store.js';
import type { TflClient } from './tfl/client.js';

export interface TflServices {
  client: TflClient;
  /** PLAN_JOURNEY_TPS */
  limiter: CallLimiter;
}

export interface HslServices {
  routing: RoutingClient;
  geocoder: Geocoder;
  /** Local limit on Digitransit calls, shared by the HSL tools (protects the subscription key's quota). */
  limiter: CallLimiter;
  bounds: RegionBounds;
}

export interface TransitServices {
  /** Saved places, loaded with the first call that touches them (drizzle is not needed to start). */
  savedPlaces: LoadSavedPlaceStore;
  tfl?: TflServices;
  hsl?: HslServices;
  logger: Logger;
}
