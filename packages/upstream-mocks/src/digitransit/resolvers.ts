// The root value for execution: QueryType fields backed by the fixture data.
import { distanceMeters } from '../geo.js';
import { HSL_AGENCY, HSL_ROUTES, HSL_STATIONS, HSL_STOPS, findStation, findStop } from './data.js';
import { relayId } from './context.js';
import type { FieldFn, Node } from './context.js';
import { agencyNode, routeNode, stationNode, stopNode } from './nodes.js';
import { legacyPlan, planConnection } from './plan.js';

/** OTP's FeedScopedId.parse: ids without a feed prefix are an error, not a miss. */
function feedScopedId(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (!value.includes(':')) throw new Error(`invalid feed-scoped-id: ${value}`);
  return value;
}

/** A `stop(id)`-like field: the node of what `find` finds by the feed-scoped id, else null. */
function byId<T>(find: (id: string) => T | undefined, node: (found: T) => Node): FieldFn {
  return (args) => {
    const id = feedScopedId(args['id']);
    const found = id === null ? undefined : find(id);
    return found === undefined ? null : node(found);
  };
}

const stopById = byId(findStop, stopNode);

const cursorOf = (index: number): string => Buffer.from(`simple-cursor${index}`, 'utf8').toString('base64');

function indexOfCursor(cursor: unknown): number {
  if (typeof cursor !== 'string') return -1;
  const match = /^simple-cursor(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  return match ? Number(match[1]) : -1;
}

/** graphql-java's SimpleListConnection over the given nodes. */
function listConnection(nodes: readonly Node[], args: Record<string, unknown>): Node {
  const after = indexOfCursor(args['after']);
  const from = after + 1;
  const first = typeof args['first'] === 'number' ? args['first'] : nodes.length;
  const slice = nodes.slice(from, from + Math.max(0, first));
  const edges = slice.map((node, i) => ({ cursor: cursorOf(from + i), node }));
  return {
    edges,
    pageInfo: {
      hasPreviousPage: from > 0,
      hasNextPage: from + slice.length < nodes.length,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

const startsWith = (name: string, prefix: unknown): boolean =>
  typeof prefix !== 'string' || name.toLocaleLowerCase('fi').startsWith(prefix.toLocaleLowerCase('fi'));

export function rootValue(): Node {
  const root: Record<string, FieldFn | Node | null> = {
    stop: stopById,
    station: byId(findStation, stationNode),
    stops: (args, ctx) => {
      const ids = args['ids'];
      if (Array.isArray(ids)) return ids.map((id: unknown) => stopById({ id }, ctx));
      return [...HSL_STOPS]
        .sort((a, b) => a.gtfsId.localeCompare(b.gtfsId))
        .filter((stop) => startsWith(stop.name, args['name']))
        .map(stopNode);
    },
    stations: (args) =>
      HSL_STATIONS.filter((station) => startsWith(station.name, args['name'])).map(stationNode),
    stopsByRadius: (args) => {
      const lat = Number(args['lat']);
      const lon = Number(args['lon']);
      const radius = Number(args['radius']);
      const near = HSL_STOPS.map((stop) => ({
        stop,
        distance: Math.round(distanceMeters(lat, lon, stop.lat, stop.lon)),
      }))
        .filter((entry) => entry.distance <= radius)
        .sort((a, b) => a.distance - b.distance)
        .map(({ stop, distance }) => ({
          __typename: 'stopAtDistance',
          id: relayId('stopAtDistance', `${distance};${stop.gtfsId}`),
          distance,
          stop: stopNode(stop),
        }));
      return listConnection(near, args);
    },
    route: byId((id) => HSL_ROUTES.find((r) => r.gtfsId === id), routeNode),
    routes: (args) => {
      const modes = args['transportModes'];
      return HSL_ROUTES.filter(
        (route) => startsWith(route.shortName, args['name']) || startsWith(route.longName, args['name']),
      )
        .filter((route) => !Array.isArray(modes) || modes.includes(route.mode))
        .map(routeNode);
    },
    agency: (args) => (args['id'] === HSL_AGENCY.gtfsId ? agencyNode() : null),
    agencies: () => [agencyNode()],
    feeds: () => [{ feedId: 'HSL', agencies: [agencyNode()], alerts: [] }],
    alerts: () => [],
    trip: () => null,
    planConnection: planConnection as FieldFn,
    plan: legacyPlan as FieldFn,
    viewer: () => root,
  };
  return root;
}
