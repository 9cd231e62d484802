// Source objects for graphql's executor: plain fields, and functions for fields that take arguments.
// Fields left out resolve to null, as OTP's do when it has no data.
import { createHash } from 'node:crypto';
import { HSL_AGENCY, HSL_STOPS, findRoute, findStation, findStop } from './data.js';
import type { HslRoute, HslStation, HslStop } from './data.js';
import { buildDepartures, selectDepartures } from './departures.js';
import type { DepartureRecord, StoptimeArgs } from './departures.js';
import { entityAlerts } from './alerts.js';
import { relayId } from './context.js';
import type { FieldFn, ResolverContext } from './context.js';

export type Node = Record<string, unknown>;

const shortHash = (value: string): string => createHash('sha1').update(value).digest('hex').slice(0, 16);
const empty: FieldFn = () => [];

export function agencyNode(): Node {
  return {
    __typename: 'Agency',
    id: relayId('Agency', HSL_AGENCY.gtfsId),
    ...HSL_AGENCY,
    fareUrl: null,
    alerts: empty,
    routes: () => [],
  };
}

function stopsOnRoute(route: HslRoute, directionId?: '0' | '1'): HslStop[] {
  return HSL_STOPS.filter((stop) =>
    stop.routes.some(
      (r) => r.route === route.gtfsId && (directionId === undefined || r.directionId === directionId),
    ),
  );
}

export function patternNode(route: HslRoute, directionId: '0' | '1'): Node {
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
    __typename: 'Route',
    id: relayId('Route', route.gtfsId),
    gtfsId: route.gtfsId,
    shortName: route.shortName,
    longName: route.longName,
    mode: route.mode,
    type: route.type,
    color: route.color,
    textColor: route.color === null ? null : 'FFFFFF',
    desc: null,
    url: `https://reittiopas.hsl.fi/linjat/${route.gtfsId}`,
    bikesAllowed: 'NO_INFORMATION',
    sortOrder: null,
    agency: agencyNode,
    alerts: entityAlerts({ route: route.gtfsId }),
    patterns: () => [patternNode(route, '0'), patternNode(route, '1')],
    stops: () => stopsOnRoute(route).map(stopNode),
    trips: empty,
  };
}

export interface TripRef {
  readonly gtfsId: string;
  readonly route: HslRoute;
  readonly directionId: '0' | '1';
  readonly headsign: string;
  readonly serviceDate: string;
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
    tripShortName: null,
    blockId: null,
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

export function stoptimeNode(record: DepartureRecord): Node {
  return {
    scheduledArrival: record.scheduledDeparture,
    realtimeArrival: record.realtimeDeparture,
    arrivalDelay: record.departureDelay,
    scheduledDeparture: record.scheduledDeparture,
    realtimeDeparture: record.realtimeDeparture,
    departureDelay: record.departureDelay,
    timepoint: false,
    realtime: record.realtime,
    realtimeState: record.realtimeState,
    pickupType: record.pickupType,
    dropoffType: record.dropoffType,
    serviceDay: record.serviceDay,
    headsign: record.headsign,
    stopPosition: record.stopPosition,
    stopPositionInPattern: record.stopPosition - 7,
    stop: () => stopNode(record.stop),
    trip: () =>
      tripNode({
        gtfsId: record.tripGtfsId,
        route: record.route,
        directionId: record.directionId,
        headsign: record.headsign,
        serviceDate: record.serviceDate,
      }),
  };
}

function stoptimeArgs(args: Record<string, unknown>): StoptimeArgs {
  return {
    startTime: Number(args['startTime'] ?? 0) || 0,
    timeRange: Number(args['timeRange'] ?? 86400),
    numberOfDepartures: Number(args['numberOfDepartures'] ?? 5),
    omitCanceled: args['omitCanceled'] !== false,
    omitNonPickups: args['omitNonPickups'] === true,
  };
}

function departuresOf(
  stops: readonly HslStop[],
  args: Record<string, unknown>,
  ctx: ResolverContext,
): DepartureRecord[] {
  const records = stops.flatMap((stop) => buildDepartures(stop, ctx.now, ctx.departures));
  return selectDepartures(records, stoptimeArgs(args), ctx.now);
}

function stoptimesForPatterns(stops: readonly HslStop[]): FieldFn {
  return (args, ctx) => {
    const all = departuresOf(stops, { ...args, numberOfDepartures: 1000 }, ctx);
    const limit = Number(args['numberOfDepartures'] ?? 5);
    const groups = new Map<string, DepartureRecord[]>();
    for (const record of all) {
      const key = `${record.route.gtfsId}:${record.directionId}`;
      groups.set(key, [...(groups.get(key) ?? []), record]);
    }
    return [...groups.values()].map((records) => {
      const first = records[0];
      return {
        pattern: first ? patternNode(first.route, first.directionId) : null,
        stoptimes: records.slice(0, limit).map(stoptimeNode),
      };
    });
  };
}

export function stopNode(stop: HslStop): Node {
  const firstRoute = stop.routes[0];
  return {
    __typename: 'Stop',
    id: relayId('Stop', stop.gtfsId),
    gtfsId: stop.gtfsId,
    name: stop.name,
    code: stop.code,
    platformCode: stop.platformCode,
    desc: stop.desc,
    lat: stop.lat,
    lon: stop.lon,
    zoneId: stop.zoneId,
    locationType: 'STOP',
    timezone: 'Europe/Helsinki',
    wheelchairBoarding: 'POSSIBLE',
    vehicleMode: stop.vehicleMode,
    vehicleType: firstRoute ? findRoute(firstRoute.route).type : null,
    url: `http://aikataulut.hsl.fi/pysakit/fi/${stop.gtfsId.replace(/^HSL:/, '')}.html`,
    direction: null,
    cluster: null,
    stops: null,
    parentStation: () => {
      const station = stop.parentStation ? findStation(stop.parentStation) : undefined;
      return station ? stationNode(station) : null;
    },
    routes: () => stop.routes.map((r) => routeNode(findRoute(r.route))),
    patterns: () => stop.routes.map((r) => patternNode(findRoute(r.route), r.directionId)),
    alerts: entityAlerts({ stop: stop.gtfsId, routes: stop.routes.map((r) => r.route) }),
    transfers: empty,
    stoptimesWithoutPatterns: ((args, ctx) =>
      departuresOf([stop], args, ctx).map(stoptimeNode)) satisfies FieldFn,
    stoptimesForPatterns: stoptimesForPatterns([stop]),
  };
}

export function stationNode(station: HslStation): Node {
  const children = station.stops.map(findStop).filter((s): s is HslStop => s !== undefined);
  return {
    __typename: 'Stop',
    id: relayId('Stop', station.gtfsId),
    gtfsId: station.gtfsId,
    name: station.name,
    code: null,
    platformCode: null,
    desc: null,
    lat: station.lat,
    lon: station.lon,
    zoneId: 'A',
    locationType: 'STATION',
    timezone: 'Europe/Helsinki',
    wheelchairBoarding: 'POSSIBLE',
    vehicleMode: station.vehicleMode,
    url: null,
    parentStation: null,
    stops: () => children.map(stopNode),
    routes: () => children.flatMap((s) => s.routes.map((r) => routeNode(findRoute(r.route)))),
    patterns: () =>
      children.flatMap((s) => s.routes.map((r) => patternNode(findRoute(r.route), r.directionId))),
    alerts: empty,
    transfers: empty,
    stoptimesWithoutPatterns: ((args, ctx) =>
      departuresOf(children, args, ctx).map(stoptimeNode)) satisfies FieldFn,
    stoptimesForPatterns: stoptimesForPatterns(children),
  };
}
