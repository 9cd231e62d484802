// Turns itinerary specs into OTP Itinerary/Leg/Place source objects with concrete times.
import { compactDate, HELSINKI, isoDuration, offsetDateTime } from '../time.js';
import { alertsOn } from './alerts.js';
import type { FieldFn } from './context.js';
import { findRoute, findStop } from './data.js';
import { agencyNode, routeNode, stopNode, tripNode } from './nodes.js';
import type { Node } from './nodes.js';
import { hslTripId } from './tripid.js';
import type { ItinerarySpec, LegRealtime, LegSpec, PlaceRef } from './itineraries.js';

export interface Endpoint {
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
  /** Set when the endpoint is a stop. */
  readonly stopId?: string;
}

export interface BuildOptions {
  readonly origin: Endpoint;
  readonly destination: Endpoint;
  readonly wheelchair: boolean;
}

/** Google's encoded polyline algorithm (OTP's `legGeometry.points`). */
export function encodePolyline(points: readonly (readonly [number, number])[]): string {
  let out = '';
  let prevLat = 0;
  let prevLon = 0;
  const encode = (value: number): void => {
    let v = value < 0 ? ~(value << 1) : value << 1;
    while (v >= 0x20) {
      out += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
      v >>= 5;
    }
    out += String.fromCharCode(v + 63);
  };
  for (const [lat, lon] of points) {
    const latE5 = Math.round(lat * 1e5);
    const lonE5 = Math.round(lon * 1e5);
    encode(latE5 - prevLat);
    encode(lonE5 - prevLon);
    prevLat = latE5;
    prevLon = lonE5;
  }
  return out;
}

function endpointOf(ref: PlaceRef, options: BuildOptions): Endpoint {
  if (ref === 'origin') return options.origin;
  if (ref === 'destination') return options.destination;
  const stop = findStop(ref);
  if (!stop) throw new Error(`unknown fixture stop ${ref}`);
  return { name: stop.name, lat: stop.lat, lon: stop.lon, stopId: stop.gtfsId };
}

function delayOf(realtime: LegRealtime | undefined): number {
  return realtime?.state === 'UPDATED' ? realtime.delay : 0;
}

function legTime(actualMs: number, transit: boolean, realtime: LegRealtime | undefined): Node {
  const delay = delayOf(realtime);
  const hasEstimate = transit && realtime !== undefined && realtime.state !== 'SCHEDULED';
  return {
    scheduledTime: offsetDateTime(actualMs - delay * 1000, HELSINKI),
    estimated: hasEstimate ? { time: offsetDateTime(actualMs, HELSINKI), delay: isoDuration(delay) } : null,
  };
}

function placeNode(endpoint: Endpoint, time: Node, actualMs: number): Node {
  const stop = endpoint.stopId ? findStop(endpoint.stopId) : undefined;
  return {
    name: endpoint.name,
    lat: endpoint.lat,
    lon: endpoint.lon,
    vertexType: stop ? 'TRANSIT' : 'NORMAL',
    stop: stop ? () => stopNode(stop) : null,
    arrival: time,
    departure: time,
    arrivalTime: actualMs,
    departureTime: actualMs,
    stopPosition: null,
    rentalVehicle: null,
    vehicleParking: null,
    vehicleRentalStation: null,
    bikeRentalStation: null,
    bikePark: null,
    carPark: null,
  };
}

function stopCall(endpoint: Endpoint, actualMs: number, realtime: LegRealtime | undefined): Node | undefined {
  const stop = endpoint.stopId ? findStop(endpoint.stopId) : undefined;
  if (!stop) return undefined;
  const delay = delayOf(realtime);
  const scheduled = offsetDateTime(actualMs - delay * 1000, HELSINKI);
  const estimate =
    realtime && realtime.state !== 'SCHEDULED'
      ? { time: offsetDateTime(actualMs, HELSINKI), delay: isoDuration(delay) }
      : null;
  return {
    stopLocation: stopNode(stop),
    schedule: { time: { __typename: 'ArrivalDepartureTime', arrival: scheduled, departure: scheduled } },
    realTime: estimate ? { arrival: estimate, departure: estimate } : null,
  };
}

function legNode(spec: LegSpec, startMs: number, options: BuildOptions, index: number): Node {
  const endMs = startMs + spec.minutes * 60_000;
  const transit = spec.mode !== 'WALK';
  const realtime = transit ? (spec.realtime ?? { state: 'SCHEDULED' }) : undefined;
  const from = endpointOf(spec.from, options);
  const to = endpointOf(spec.to, options);
  const startTime = legTime(startMs, transit, realtime);
  const endTime = legTime(endMs, transit, realtime);
  const route = transit && spec.route ? findRoute(spec.route) : undefined;
  const directionId = spec.directionId ?? '0';
  const serviceDate = compactDate(startMs, HELSINKI);
  const delay = delayOf(realtime);
  const tripId = route
    ? hslTripId(route.gtfsId, directionId, startMs - delay * 1000 - 9 * 60_000)
    : undefined;
  const headsign = route ? route.headsigns[directionId === '0' ? 0 : 1] : null;
  const calls = transit ? [stopCall(from, startMs, realtime), stopCall(to, endMs, realtime)] : [];
  return {
    mode: spec.mode,
    start: startTime,
    end: endTime,
    from: placeNode(from, startTime, startMs),
    to: placeNode(to, endTime, endMs),
    startTime: startMs,
    endTime: endMs,
    departureDelay: delay,
    arrivalDelay: delay,
    duration: spec.minutes * 60,
    distance: spec.distance,
    generalizedCost: spec.minutes * 60 * (transit ? 1 : 2),
    realTime: transit && realtime?.state !== 'SCHEDULED',
    realtimeState: transit ? (realtime?.state ?? 'SCHEDULED') : null,
    transitLeg: transit,
    interlineWithPreviousLeg: false,
    rentedBike: false,
    walkingBike: false,
    intermediatePlace: false,
    headsign,
    serviceDate: transit ? serviceDate : null,
    id: tripId
      ? Buffer.from(`SCHEDULED_TRANSIT_LEG_V3|${tripId}|${serviceDate}|${index}`, 'utf8').toString('base64')
      : null,
    route: route ? () => routeNode(route) : null,
    agency: route ? agencyNode : null,
    trip:
      route && tripId && headsign
        ? () => tripNode({ gtfsId: tripId, route, directionId, headsign, serviceDate })
        : null,
    pickupType: transit ? 'SCHEDULED' : null,
    dropoffType: transit ? 'SCHEDULED' : null,
    accessibilityScore: options.wheelchair ? (transit ? 0.9 : 1) : null,
    legGeometry: {
      length: 2,
      points: encodePolyline([
        [from.lat, from.lon],
        [to.lat, to.lon],
      ]),
    },
    intermediatePlaces: transit ? [] : null,
    intermediateStops: transit ? () => [] : null,
    stopCalls: calls.filter((c): c is Node => c !== undefined),
    steps: transit
      ? []
      : [
          {
            distance: spec.distance,
            lat: from.lat,
            lon: from.lon,
            relativeDirection: 'DEPART',
            absoluteDirection: 'NORTH',
            streetName: 'Mannerheimintie',
            area: false,
            bogusName: false,
            stayOn: false,
            walkingBike: false,
            exit: null,
            elevationProfile: [],
            alerts: [],
          },
        ],
    // OTP's Leg.alerts: those of the leg's route, trip and its boarding and alighting stops.
    alerts: (transit
      ? (_args, ctx) =>
          alertsOn(ctx, {
            stops: [from.stopId, to.stopId].filter((id): id is string => id !== undefined),
            routes: route ? [route.gtfsId] : [],
          })
      : () => []) satisfies FieldFn,
    fareProducts: [],
    rideHailingEstimate: null,
    pickupBookingInfo: null,
    dropOffBookingInfo: null,
  };
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

export function buildItinerary(spec: ItinerarySpec, baseMs: number, options: BuildOptions): BuiltItinerary {
  const startMs = baseMs + spec.departIn * 60_000;
  let t = startMs;
  const legs: Node[] = [];
  spec.legs.forEach((leg, index) => {
    t += (leg.waitBefore ?? 0) * 60_000;
    legs.push(legNode(leg, t, options, index));
    t += leg.minutes * 60_000;
  });
  const walks = spec.legs.filter((leg) => leg.mode === 'WALK');
  const transitLegs = spec.legs.filter((leg) => leg.mode !== 'WALK');
  const walkDistance = walks.reduce((sum, leg) => sum + leg.distance, 0);
  const walkTime = walks.reduce((sum, leg) => sum + leg.minutes * 60, 0);
  const moving = spec.legs.reduce((sum, leg) => sum + leg.minutes * 60, 0);
  const duration = Math.round((t - startMs) / 1000);
  const numberOfTransfers = Math.max(0, transitLegs.length - 1);
  const node: Node = {
    start: offsetDateTime(startMs, HELSINKI),
    end: offsetDateTime(t, HELSINKI),
    startTime: startMs,
    endTime: t,
    duration,
    walkDistance,
    walkTime,
    waitingTime: duration - moving,
    numberOfTransfers,
    generalizedCost:
      legs.reduce((sum, leg) => sum + Number(leg['generalizedCost']), 0) + numberOfTransfers * 600,
    accessibilityScore: options.wheelchair ? 0.9 : null,
    elevationGained: 0,
    elevationLost: 0,
    arrivedAtDestinationWithRentedBicycle: false,
    emissionsPerPerson: {
      co2: Math.round(
        transitLegs.reduce((sum, leg) => sum + leg.distance * (leg.mode === 'BUS' ? 0.06 : 0.012), 0),
      ),
    },
    fares: [],
    systemNotices: [],
    legs,
  };
  return {
    node,
    startMs,
    endMs: t,
    numberOfTransfers,
    hasCancelledLeg: transitLegs.some((leg) => leg.realtime?.state === 'CANCELED'),
    hasTransit: transitLegs.length > 0,
    transitModes: transitLegs.map((leg) => leg.mode),
  };
}
