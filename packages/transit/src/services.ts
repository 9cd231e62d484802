// What the tools share: clients (under their limiters) and the saved-place store. Created once per process,
// when the domain opens, so breakers, limiters and the database are shared by every connection and request.
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { RegionBounds } from './config.js';
import type { AlertLimits } from './hsl/alerts.js';
import type { SavedPlaceProbe } from './places/database.js';
import type { LoadSavedPlaceStore } from './places/store.js';
import type { ArrivalsSource } from './tfl/arrivals-client.js';
import type { TflClient } from './tfl/client.js';
import type { LineStatusSource } from './tfl/line-status-client.js';
import type { StopsSource } from './tfl/stops-client.js';
import type { DigitransitClients } from './upstream-tokens.js';

export interface TflServices {
  /** planJourney's JourneyResults (PLAN_JOURNEY_TPS, a token per request sent). */
  client: TflClient;
  /** get_london_arrivals: predictions through the TfL answer cache (TFL_CACHE_*, LONDON_ARRIVALS_TPS). */
  arrivals: ArrivalsSource;
  /** get_line_status: line statuses through the same answer cache (LINE_STATUS_TPS). */
  lineStatus: LineStatusSource;
  /** find_london_stops: stop points through the same answer cache (LONDON_STOPS_TPS). */
  stops: StopsSource;
}

export interface HslServices {
  /**
   * The routing and geocoding clients of one tool call, under DIGITRANSIT_CALLS_PER_SECOND (shared by the HSL
   * tools, to keep under the subscription key's rate): the call's token is taken by its first request.
   */
  forCall(): DigitransitClients;
  bounds: RegionBounds;
  /** HSL_ALERTS_MAX and HSL_ALERT_TEXT_MAX_CHARS: how many service alerts an answer carries, how long. */
  alerts: AlertLimits;
}

/** The opened transit domain: what its tool handlers get as `call.state`. */
export interface TransitState {
  /** Saved places, loaded with the first call that touches them (drizzle is not needed to start). */
  savedPlaces: LoadSavedPlaceStore;
  /** Whether a caller has saved places of some kinds, without loading the store (plain SQL). */
  hasSavedPlaces: SavedPlaceProbe;
  /** Present when the `tfl` provider is configured. */
  tfl?: TflServices;
  /** Present when the `hsl` provider is configured. */
  hsl?: HslServices;
  /** The saved places' database is open (SQLite) or answers now (PostgreSQL: a bounded probe). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A provider's services, for the tools offered only when it is configured (`when`): reaching this without
 * them means a tool was offered against its configuration, an internal error rather than a crash.
 */
export function configured<T>(services: T | undefined, provider: string): T {
  if (services === undefined) {
    throw new SwitchyardError('internal', `The ${provider} provider is not configured on this server`);
  }
  return services;
}
