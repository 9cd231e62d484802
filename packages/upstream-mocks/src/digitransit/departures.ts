// Departures at a stop, generated around "now": every realtime state OTP reports, and more departures than a
// small limit. Each is an OTP `Stoptime` (times in seconds since the service day's local midnight) with the
// stop and trip it belongs to.
import { compactDate, HELSINKI, serviceDayStart } from '../time.js';
import type { ResolverContext } from './context.js';
import { findRoute } from './data.js';
import type { HslRoute, HslStop } from './data.js';
import type { DepartureVariant } from './scenario-data.js';
import { hslTripId } from './tripid.js';

type RealtimeState = 'SCHEDULED' | 'UPDATED' | 'CANCELED';

export interface TripRef {
  readonly gtfsId: string;
  readonly route: HslRoute;
  readonly directionId: '0' | '1';
  readonly headsign: string;
  readonly serviceDate: string;
}

export interface Departure {
  readonly at: HslStop;
  readonly trip: TripRef;
  readonly scheduledDeparture: number;
  readonly realtimeDeparture: number;
  readonly realtimeState: RealtimeState;
  readonly pickupType: 'SCHEDULED' | 'NONE';
  /** Epoch seconds of the service day's local midnight (Europe/Helsinki). */
  readonly serviceDay: number;
  readonly [field: string]: unknown;
}

/**
 * The mixed board, in schedule order relative to now (rounded down to the minute), as [offset s, state, delay s]:
 * departed, scheduled a minute ago but 4 min late, SCHEDULED, UPDATED late (+180 s), UPDATED early (-90 s),
 * UPDATED on time (+20 s), CANCELED, UPDATED 0 s, SCHEDULED, +45 s, no pickup (last stop), SCHEDULED, +400 s, +90 min.
 */
// prettier-ignore
const MIXED_DEPARTURES: readonly (readonly [offset: number, state: RealtimeState, delay: number, noPickup?: true])[] = [
  [-300, 'SCHEDULED', 0], [-60, 'UPDATED', 240], [120, 'SCHEDULED', 0], [240, 'UPDATED', 180],
  [360, 'UPDATED', -90], [480, 'UPDATED', 20], [600, 'CANCELED', 0], [720, 'UPDATED', 0], [900, 'SCHEDULED', 0],
  [1140, 'UPDATED', 45], [1440, 'SCHEDULED', 0, true], [1800, 'SCHEDULED', 0], [2700, 'UPDATED', 400],
  [5400, 'SCHEDULED', 0],
];

function stopDepartures(stop: HslStop, nowMs: number, variant: DepartureVariant): Departure[] {
  if (variant === 'empty' || stop.routes.length === 0) return [];
  const serviceDay = serviceDayStart(nowMs, HELSINKI);
  const minuteNow = Math.floor(nowMs / 60_000) * 60 - serviceDay;
  const serviceDate = compactDate(serviceDay * 1000 + 12 * 3600_000, HELSINKI);
  return MIXED_DEPARTURES.map(([offset, mixedState, mixedDelay, noPickup], index) => {
    const { route: routeId, directionId } = stop.routes[index % stop.routes.length]!;
    const route = findRoute(routeId);
    const scheduled = minuteNow + offset;
    const state = variant === 'scheduled' ? 'SCHEDULED' : mixedState;
    const delay = state === 'UPDATED' ? mixedDelay : 0;
    const headsign = route.headsigns[directionId === '0' ? 0 : 1];
    const gtfsId = hslTripId(route.gtfsId, directionId, (serviceDay + scheduled - 7 * 60) * 1000);
    return {
      at: stop,
      trip: { gtfsId, route, directionId, headsign, serviceDate },
      scheduledArrival: scheduled,
      realtimeArrival: scheduled + delay,
      arrivalDelay: delay,
      scheduledDeparture: scheduled,
      realtimeDeparture: scheduled + delay,
      departureDelay: delay,
      timepoint: false,
      realtime: state !== 'SCHEDULED',
      realtimeState: state,
      pickupType: noPickup ? 'NONE' : 'SCHEDULED',
      dropoffType: 'SCHEDULED',
      serviceDay,
      headsign,
      stopPosition: 7 + (index % 3),
      stopPositionInPattern: index % 3,
    };
  });
}

/**
 * OTP's `stoptimesWithoutPatterns` over the stops' departures: departure (realtime) time within
 * [startTime or now, + timeRange], cancelled ones and non-pickups left out when asked, sorted, limited.
 */
export function departures(
  stops: readonly HslStop[],
  args: Record<string, unknown>,
  ctx: ResolverContext,
): Departure[] {
  const nowMs = ctx.now.getTime();
  const startTime = Number(args['startTime'] ?? 0);
  const start = startTime > 0 ? startTime : Math.floor(nowMs / 1000);
  const end = start + Number(args['timeRange'] ?? 86400);
  const time = (d: Departure) => d.serviceDay + d.realtimeDeparture;
  return stops
    .flatMap((stop) => stopDepartures(stop, nowMs, ctx.departures))
    .filter((d) => !(args['omitCanceled'] !== false && d.realtimeState === 'CANCELED'))
    .filter((d) => !(args['omitNonPickups'] === true && d.pickupType === 'NONE'))
    .filter((d) => time(d) >= start && time(d) <= end)
    .sort((a, b) => time(a) - time(b))
    .slice(0, Math.max(0, Number(args['numberOfDepartures'] ?? 5)));
}
