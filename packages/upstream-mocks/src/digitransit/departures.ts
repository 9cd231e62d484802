// Departures at a stop, generated around "now": every realtime state OTP reports, and more
// departures than a small limit. Times follow OTP: seconds since the service day's local midnight.
import { compactDate, HELSINKI, serviceDayStart } from '../time.js';
import { findRoute } from './data.js';
import type { HslRoute, HslStop } from './data.js';
import { hslTripId } from './tripid.js';

export type RealtimeStateName = 'SCHEDULED' | 'UPDATED' | 'CANCELED';
export type DepartureVariant = 'mixed' | 'scheduled' | 'empty';

export interface DepartureRecord {
  readonly stop: HslStop;
  readonly route: HslRoute;
  readonly directionId: '0' | '1';
  readonly headsign: string;
  /** Epoch seconds of the service day's local midnight (Europe/Helsinki). */
  readonly serviceDay: number;
  readonly scheduledDeparture: number;
  readonly realtimeDeparture: number;
  readonly departureDelay: number;
  readonly realtime: boolean;
  readonly realtimeState: RealtimeStateName;
  readonly pickupType: 'SCHEDULED' | 'NONE';
  readonly dropoffType: 'SCHEDULED' | 'NONE';
  readonly tripGtfsId: string;
  readonly serviceDate: string;
  readonly stopPosition: number;
}

interface DepartureTemplate {
  /** Scheduled departure relative to now (rounded down to the minute), seconds. */
  readonly offset: number;
  readonly state: RealtimeStateName;
  readonly delay: number;
  readonly noPickup?: boolean;
}

/**
 * The mixed board, in schedule order relative to now:
 * departed, scheduled a minute ago but 4 min late, SCHEDULED, UPDATED late (+180 s), UPDATED early (-90 s),
 * UPDATED on time (+20 s), CANCELED, UPDATED 0 s, SCHEDULED, +45 s, no pickup (last stop), SCHEDULED, +400 s, +90 min.
 */
export const MIXED_DEPARTURES: readonly DepartureTemplate[] = [
  { offset: -300, state: 'SCHEDULED', delay: 0 },
  { offset: -60, state: 'UPDATED', delay: 240 },
  { offset: 120, state: 'SCHEDULED', delay: 0 },
  { offset: 240, state: 'UPDATED', delay: 180 },
  { offset: 360, state: 'UPDATED', delay: -90 },
  { offset: 480, state: 'UPDATED', delay: 20 },
  { offset: 600, state: 'CANCELED', delay: 0 },
  { offset: 720, state: 'UPDATED', delay: 0 },
  { offset: 900, state: 'SCHEDULED', delay: 0 },
  { offset: 1140, state: 'UPDATED', delay: 45 },
  { offset: 1440, state: 'SCHEDULED', delay: 0, noPickup: true },
  { offset: 1800, state: 'SCHEDULED', delay: 0 },
  { offset: 2700, state: 'UPDATED', delay: 400 },
  { offset: 5400, state: 'SCHEDULED', delay: 0 },
];

export function buildDepartures(stop: HslStop, now: Date, variant: DepartureVariant): DepartureRecord[] {
  if (variant === 'empty' || stop.routes.length === 0) return [];
  const nowMs = now.getTime();
  const serviceDay = serviceDayStart(nowMs, HELSINKI);
  const minuteNow = Math.floor(nowMs / 60_000) * 60 - serviceDay;
  const serviceDate = compactDate(serviceDay * 1000 + 12 * 3600_000, HELSINKI);
  return MIXED_DEPARTURES.map((template, index) => {
    const served = stop.routes[index % stop.routes.length] ?? stop.routes[0];
    const route = findRoute(served?.route ?? '');
    const directionId = served?.directionId ?? '0';
    const scheduled = minuteNow + template.offset;
    const state: RealtimeStateName = variant === 'scheduled' ? 'SCHEDULED' : template.state;
    const delay = state === 'UPDATED' ? template.delay : 0;
    const tripGtfsId = hslTripId(route.gtfsId, directionId, (serviceDay + scheduled - 7 * 60) * 1000);
    return {
      stop,
      route,
      directionId,
      headsign: route.headsigns[directionId === '0' ? 0 : 1],
      serviceDay,
      scheduledDeparture: scheduled,
      realtimeDeparture: scheduled + delay,
      departureDelay: delay,
      realtime: state !== 'SCHEDULED',
      realtimeState: state,
      pickupType: template.noPickup ? 'NONE' : 'SCHEDULED',
      dropoffType: 'SCHEDULED',
      tripGtfsId,
      serviceDate,
      stopPosition: 7 + (index % 3),
    };
  });
}

export interface StoptimeArgs {
  readonly startTime: number;
  readonly timeRange: number;
  readonly numberOfDepartures: number;
  readonly omitCanceled: boolean;
  readonly omitNonPickups: boolean;
}

/** OTP's selection: departure (realtime) time within [start, start + timeRange], sorted, limited. */
export function selectDepartures(
  records: readonly DepartureRecord[],
  args: StoptimeArgs,
  now: Date,
): DepartureRecord[] {
  const start = args.startTime > 0 ? args.startTime : Math.floor(now.getTime() / 1000);
  const end = start + args.timeRange;
  return records
    .filter((r) => !(args.omitCanceled && r.realtimeState === 'CANCELED'))
    .filter((r) => !(args.omitNonPickups && r.pickupType === 'NONE'))
    .filter((r) => {
      const t = r.serviceDay + r.realtimeDeparture;
      return t >= start && t <= end;
    })
    .sort((a, b) => a.serviceDay + a.realtimeDeparture - (b.serviceDay + b.realtimeDeparture))
    .slice(0, Math.max(0, args.numberOfDepartures));
}
