// planConnection itineraries: the recorded ones in fixtures/digitransit/itineraries.json (every leg SCHEDULED,
// leaving at the recorded search time), planned by the scenarios (scenarios.ts) with their departure and the
// realtime of each transit leg, then moved to the request's time and ends and linked to the stops, routes and
// trips of data.ts. The recorded leg geometry and walking steps stay as they are.
import { compactDate, HELSINKI, isoDuration, offsetDateTime } from '../time.js';
import { movableTimes, readFixture, type TimeFormat } from '../recorded.js';
import { alertsOn } from './alerts.js';
import type { FieldFn, Node } from './context.js';
import { findRoute, findStop } from './data.js';
import { agencyNode, routeNode, stopNode, tripNode } from './nodes.js';
import { S, X } from './scenario-data.js';
import type { Planned, Realtime } from './scenario-data.js';
import { hslTripId } from './tripid.js';

export interface Endpoint {
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
  /** Set when the endpoint is a stop. */
  readonly stopId?: string;
}

type Ref = { gtfsId: string } | null;
interface RecordedPlace extends Endpoint {
  stop: Ref | FieldFn;
  arrival: unknown;
  departure: unknown;
}
interface RecordedLeg {
  [field: string]: unknown;
  mode: string;
  startTime: number;
  endTime: number;
  transitLeg: boolean;
  from: RecordedPlace;
  to: RecordedPlace;
  route: Ref;
  trip: { gtfsId: string; directionId: '0' | '1' } | null;
  headsign: string | null;
  stopCalls: { stopLocation: Ref }[];
}
interface RecordedItinerary {
  [field: string]: unknown;
  startTime: number;
  endTime: number;
  numberOfTransfers: number;
  legs: RecordedLeg[];
}

const RECORDED_START_MS = Date.parse('2025-06-02T08:16:00+03:00');

/** OTP's offset date-times in Helsinki time. */
const OTP_TIMES: readonly TimeFormat[] = [
  {
    pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/,
    read: Date.parse,
    write: (ms) => offsetDateTime(ms, HELSINKI),
  },
];

const RECORDED = new Map(
  Object.entries(readFixture<Record<string, RecordedItinerary>>('digitransit/itineraries.json')).map(
    ([name, itinerary]) => [name, movableTimes(itinerary, RECORDED_START_MS, OTP_TIMES)],
  ),
);

/**
 * A transit leg with its realtime: the recorded times are the actual ones, scheduled `delay` earlier, estimated
 * unless SCHEDULED; its ends, stop calls, delays, state, and the trip and leg ids that carry the scheduled time.
 */
function applyRealtime(leg: RecordedLeg, realtime: Realtime, index: number): void {
  const delay = typeof realtime === 'number' ? realtime : 0;
  const state = typeof realtime === 'number' ? 'UPDATED' : realtime;
  const time = (ms: number) => {
    const scheduled = offsetDateTime(ms - delay * 1000, HELSINKI);
    const estimated = state === S ? null : { time: offsetDateTime(ms, HELSINKI), delay: isoDuration(delay) };
    return { scheduled, estimated, legTime: { scheduledTime: scheduled, estimated } };
  };
  const start = time(leg.startTime);
  const end = time(leg.endTime);
  Object.assign(leg.from, { arrival: start.legTime, departure: start.legTime });
  Object.assign(leg.to, { arrival: end.legTime, departure: end.legTime });
  leg.stopCalls.forEach((call, i) => {
    const { scheduled, estimated } = i === 0 ? start : end;
    Object.assign(call, {
      schedule: { time: { __typename: 'ArrivalDepartureTime', arrival: scheduled, departure: scheduled } },
      realTime: estimated ? { arrival: estimated, departure: estimated } : null,
    });
  });
  const serviceDate = compactDate(leg.startTime, HELSINKI);
  const { gtfsId: routeId } = leg.route ?? { gtfsId: '' };
  const directionId = leg.trip?.directionId ?? '0';
  const tripId = hslTripId(routeId, directionId, leg.startTime - delay * 1000 - 9 * 60_000);
  Object.assign(leg, {
    start: start.legTime,
    end: end.legTime,
    departureDelay: delay,
    arrivalDelay: delay,
    realTime: state !== S,
    realtimeState: state,
    serviceDate,
    id: Buffer.from(`SCHEDULED_TRANSIT_LEG_V3|${tripId}|${serviceDate}|${index}`, 'utf8').toString('base64'),
    trip: { gtfsId: tripId, directionId },
  });
}

/** The request's origin and destination in place of the recorded ones. */
function placeAt(place: RecordedPlace, endpoint: Endpoint): void {
  const { stopId, ...at } = endpoint;
  Object.assign(place, at, {
    vertexType: stopId ? 'TRANSIT' : 'NORMAL',
    stop: stopId ? { gtfsId: stopId } : null,
  });
}

/** The recorded references to stops, routes and trips as the nodes graphql resolves them to. */
function link(leg: RecordedLeg): void {
  const stopId = (ref: Ref | FieldFn) => (ref !== null && 'gtfsId' in ref ? ref.gtfsId : undefined);
  const stopOf = (ref: Ref | FieldFn) => {
    const stop = findStop(stopId(ref) ?? '');
    return stop ? () => stopNode(stop) : null;
  };
  const stops = [stopId(leg.from.stop), stopId(leg.to.stop)].filter((id): id is string => id !== undefined);
  leg.from.stop = stopOf(leg.from.stop);
  leg.to.stop = stopOf(leg.to.stop);
  if (leg.route === null || leg.trip === null) return;
  const route = findRoute(leg.route.gtfsId);
  const trip = { ...leg.trip, route, headsign: leg.headsign ?? '', serviceDate: String(leg['serviceDate']) };
  Object.assign(leg, {
    route: () => routeNode(route),
    agency: agencyNode,
    trip: () => tripNode(trip),
    stopCalls: leg.stopCalls.map((c) => ({ ...c, stopLocation: stopOf(c.stopLocation)?.() ?? null })),
    // OTP's Leg.alerts: those of the leg's route, trip and its boarding and alighting stops.
    alerts: ((_args, ctx) => alertsOn(ctx, { stops, routes: [route.gtfsId] })) satisfies FieldFn,
  });
}

export interface BuiltItinerary {
  readonly node: Node;
  readonly startMs: number;
  readonly endMs: number;
  readonly numberOfTransfers: number;
  readonly hasCancelledLeg: boolean;
  readonly hasTransit: boolean;
  readonly transitModes: readonly string[];
}

export function buildItinerary(
  [name, departIn, realtime]: Planned,
  baseMs: number,
  options: { readonly origin: Endpoint; readonly destination: Endpoint; readonly wheelchair: boolean },
): BuiltItinerary {
  const recordedAt = RECORDED.get(name);
  if (recordedAt === undefined) throw new Error(`no recorded itinerary ${name}`);
  const node = recordedAt(baseMs + departIn * 60_000 - RECORDED_START_MS);
  const transitLegs = node.legs.filter((leg) => leg.transitLeg);
  transitLegs.forEach((leg, i) => applyRealtime(leg, realtime[i] ?? S, node.legs.indexOf(leg)));
  placeAt(node.legs[0]!.from, options.origin);
  placeAt(node.legs.at(-1)!.to, options.destination);
  if (options.wheelchair) {
    node['accessibilityScore'] = 0.9;
    for (const leg of node.legs) leg['accessibilityScore'] = leg.transitLeg ? 0.9 : 1;
  }
  node.legs.forEach(link);
  return {
    node,
    startMs: node.startTime,
    endMs: node.endTime,
    numberOfTransfers: node.numberOfTransfers,
    hasCancelledLeg: realtime.includes(X),
    hasTransit: transitLegs.length > 0,
    transitModes: transitLegs.map((leg) => leg.mode),
  };
}
