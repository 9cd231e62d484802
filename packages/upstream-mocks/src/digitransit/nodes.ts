// Source objects for graphql's executor: plain fields, and functions for fields that take arguments.
// Fields left out resolve to null, as OTP's do when it has no data.
import { createHash } from 'node:crypto';
import { HSL_AGENCY, HSL_STOPS, findRoute, findStation, findStop } from './data.js';
import type { HslRoute, HslStation, HslStop } from './data.js';
import { departures } from './departures.js';
import type { Departure, TripRef } from './departures.js';
import { entityAlerts } from './alerts.js';
import { relayId } from './context.js';
import type { FieldFn, Node } from './context.js';

const shortHash = (value: string): string => createHash('sha1').update(value).digest('hex').slice(0, 16);
const empty: FieldFn = () => [];

export function agencyNode(): Node {
  return { ...HSL_AGENCY, alerts: empty, routes: () => [] };
}

function stopsOnRoute(route: HslRoute, directionId?: '0' | '1'): HslStop[] {
  return HSL_STOPS.filter((stop) =>
    stop.routes.some(
      (r) => r.route === route.gtfsId && (directionId === undefined || r.directionId === directionId),
    ),
  );
}

function patternNode(route: HslRoute, directionId: '0' | '1'): Node {
  const code = `${route.gtfsId}:${directionId}:01`;
  const headsign = route.headsigns[directionId === '0' ? 0 : 1];
  return {
    __typename: 'Pattern',
    id: relayId('Pattern', code),
    code,
    name: `${route.shortName} to ${headsign} (${code.replace(/:\d+:\d+$/, '')})`,
    headsign,
    directionId: Number(directionId),
    semanticHash: shortHash(code),
    route: () => routeNode(route),
    stops: () => stopsOnRoute(route, directionId).map(stopNode),
    alerts: empty,
    trips: empty,
  };
}

export function routeNode(route: HslRoute): Node {
  return {
    ...route,
    agency: agencyNode,
    alerts: entityAlerts({ route: route.gtfsId }),
    patterns: () => [patternNode(route, '0'), patternNode(route, '1')],
    stops: () => stopsOnRoute(route).map(stopNode),
    trips: empty,
  };
}

export function tripNode(trip: TripRef): Node {
  const dayPart = trip.gtfsId.split('_').slice(0, 3).join('_');
  return {
    __typename: 'Trip',
    id: relayId('Trip', trip.gtfsId),
    gtfsId: trip.gtfsId,
    tripHeadsign: trip.headsign,
    routeShortName: trip.route.shortName,
    directionId: trip.directionId,
    serviceId: dayPart,
    shapeId: `${trip.route.gtfsId.replace(/^HSL:/, '')}_${trip.directionId === '0' ? 1 : 2}`,
    semanticHash: shortHash(trip.gtfsId),
    wheelchairAccessible: 'POSSIBLE',
    bikesAllowed: 'NOT_ALLOWED',
    activeDates: [trip.serviceDate],
    occupancy: { occupancyStatus: 'NO_DATA_AVAILABLE' },
    route: () => routeNode(trip.route),
    pattern: () => patternNode(trip.route, trip.directionId),
    stops: () => stopsOnRoute(trip.route, trip.directionId).map(stopNode),
    alerts: empty,
  };
}

function stoptimeNode(departure: Departure): Node {
  return { ...departure, stop: () => stopNode(departure.at), trip: () => tripNode(departure.trip) };
}

/** `stoptimesForPatterns`: the stops' departures grouped by pattern, `numberOfDepartures` of each. */
function stoptimesForPatterns(stops: readonly HslStop[]): FieldFn {
  return (args, ctx) => {
    const groups = new Map<string, Departure[]>();
    for (const departure of departures(stops, { ...args, numberOfDepartures: 1000 }, ctx)) {
      const key = `${departure.trip.route.gtfsId}:${departure.trip.directionId}`;
      groups.set(key, [...(groups.get(key) ?? []), departure]);
    }
    return [...groups.values()].map((group) => ({
      pattern: patternNode(group[0]!.trip.route, group[0]!.trip.directionId),
      stoptimes: group.slice(0, Number(args['numberOfDepartures'] ?? 5)).map(stoptimeNode),
    }));
  };
}

/**
 * The fields a stop and a station share (the feed's, as OTP answers them; fields left out resolve to null);
 * `served` are the stops whose routes and departures it lists.
 */
function stopPlace(place: HslStop | HslStation, served: readonly HslStop[]): Node {
  const routes = served.flatMap((stop) => stop.routes);
  return {
    ...place,
    routes: () => routes.map((r) => routeNode(findRoute(r.route))),
    patterns: () => routes.map((r) => patternNode(findRoute(r.route), r.directionId)),
    alerts: empty,
    transfers: empty,
    stoptimesWithoutPatterns: ((args, ctx) =>
      departures(served, args, ctx).map(stoptimeNode)) satisfies FieldFn,
    stoptimesForPatterns: stoptimesForPatterns(served),
  };
}

export function stopNode(stop: HslStop): Node {
  const station = stop.parentStation ? findStation(stop.parentStation) : undefined;
  return {
    ...stopPlace(stop, [stop]),
    parentStation: () => (station ? stationNode(station) : null),
    alerts: entityAlerts({ stop: stop.gtfsId, routes: stop.routes.map((r) => r.route) }),
  };
}

export function stationNode(station: HslStation): Node {
  const children = station.stops.map(findStop).filter((s): s is HslStop => s !== undefined);
  return {
    ...stopPlace(station, children),
    stops: () => children.map(stopNode),
  };
}
