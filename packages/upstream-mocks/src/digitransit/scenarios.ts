// Named Digitransit scenarios: data scenarios (the query still executes) and transport scenarios.
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';
import { BODY_FAULTS, isSharedFault, sharedFaultReply, STATUS_FAULTS } from '../scenario.js';
import type { ScenarioOptions } from '../scenario.js';
import { gatewayError, invalidKey, NGINX_BAD_GATEWAY, quotaExceeded } from './gateway.js';
import { S, X } from './scenario-data.js';
import type { Planned, ScenarioData } from './scenario-data.js';

// prettier-ignore
const MIXED_PLAN: readonly Planned[] =
  [['tram', 2, [60]], ['train', 5, [S]], ['bus-and-train', 1, [120, S]], ['tram', 12, [0]]];
const DEFAULT_DATA: ScenarioData = { plans: [MIXED_PLAN], departures: 'mixed', alerts: false };
const planning = (...plans: (readonly Planned[])[]): ScenarioData => ({ ...DEFAULT_DATA, plans });
const failing = (...routingError: NonNullable<ScenarioData['routingError']>): ScenarioData => ({
  ...DEFAULT_DATA,
  routingError,
});

/**
 * Scenarios that change the data the GraphQL query is executed against. Each planned itinerary is a recorded
 * one (itineraries.ts), the minutes after the search it leaves, and the realtime of each of its transit legs:
 * a delay in seconds (UPDATED), S (SCHEDULED) or X (CANCELED).
 */
// prettier-ignore
const DATA_SCENARIOS = {
  /** Mixed departures board; planConnection = `plan-mixed`. */
  default: DEFAULT_DATA,
  /** Realtime, scheduled-only and mixed itineraries. */
  'plan-mixed': DEFAULT_DATA,
  /** Every transit leg realtime (UPDATED). */
  'plan-realtime':
    planning([['tram', 2, [30]], ['train', 5, [0]], ['bus-and-train', 1, [45, -20]], ['tram', 12, [15]]]),
  /** No realtime at all (SCHEDULED, `estimated: null`). */
  'plan-scheduled':
    planning([['tram', 2, [S]], ['train', 5, [S]], ['bus-and-train', 1, [S, S]], ['tram', 12, [S]]]),
  /** One itinerary has a CANCELED leg; only returned with `includeRealTimeCancellations: true`. */
  'plan-cancelled-leg':
    planning([['tram', 2, [30]], ['train', 5, [X]], ['bus-and-train', 1, [45, 0]], ['tram', 12, [0]]]),
  /** One leg 420 s late (> 300 s), one 180 s late. */
  'plan-delayed':
    planning([['tram', 2, [420]], ['train', 5, [0]], ['bus-and-train', 1, [180, S]], ['tram', 12, [10]]]),
  /** Exact duplicate itineraries. */
  'plan-duplicates': planning([['tram', 2, [60]], ['tram', 2, [60]], ['train', 5, [S]],
    ['bus-and-train', 1, [120, S]], ['bus-and-train', 1, [120, S]]]),
  /** Walks of 2.7 km, 1.4 km, 0.5 km and a 2.9 km walk-only itinerary. */
  'plan-long-walks':
    planning([['train-long-walks', 0, [0]], ['tram-long-walks', 1, [30]], ['tram', 2, [0]], ['walk', 0, []]]),
  /** `routingErrors: [NO_TRANSIT_CONNECTION]`, no edges. */
  'plan-no-transit-connection': failing('NO_TRANSIT_CONNECTION', null),
  /** `routingErrors: [OUTSIDE_BOUNDS]` (inputField FROM), no edges. */
  'plan-outside-bounds': failing('OUTSIDE_BOUNDS', 'FROM'),
  /** `routingErrors: [LOCATION_NOT_FOUND]` (inputField FROM), no edges. */
  'plan-location-not-found': failing('LOCATION_NOT_FOUND', 'FROM'),
  /** 1st planConnection: delayed (540 s, 360 s) and cancelled itineraries; later ones: one clean train itinerary. */
  'plan-disrupted-then-clear':
    planning([['tram', 2, [540]], ['train', 5, [X]], ['bus-and-train', 1, [360, S]]], [['train', 9, [0]]]),
  /** Departures all SCHEDULED (no realtime), like the 2022 HSL capture. */
  'departures-scheduled': { ...DEFAULT_DATA, departures: 'scheduled' },
  /** No departures at any stop. */
  'departures-empty': { ...DEFAULT_DATA, departures: 'empty' },
  /** The default data, with the service alerts of alerts.ts on stops, routes and legs. */
  'service-alerts': { ...DEFAULT_DATA, alerts: true },
} satisfies Record<string, ScenarioData>;
type DataScenarioName = keyof typeof DATA_SCENARIOS;

/** Scenarios of the transport and gateway, shared with geocoding (except `graphql-errors`). */
const TRANSPORT_SCENARIOS = [
  /** 401 invalid subscription key. */
  'unauthorized',
  ...STATUS_FAULTS,
  ...BODY_FAULTS,
] as const;

export const DIGITRANSIT_SCENARIOS = [
  ...(Object.keys(DATA_SCENARIOS) as DataScenarioName[]),
  /** HTTP 200, `data: null`, one DataFetchingException in `errors[]`. */
  'graphql-errors',
  ...TRANSPORT_SCENARIOS,
] as const;

export type DigitransitScenarioName = (typeof DIGITRANSIT_SCENARIOS)[number];

export const GEOCODING_SCENARIOS = ['default', 'geocoding-empty', ...TRANSPORT_SCENARIOS] as const;
export type GeocodingScenarioName = (typeof GEOCODING_SCENARIOS)[number];

/** The data `name` sets, `default`'s for the scenarios that set none. */
export function scenarioData(name: string): ScenarioData {
  return Object.hasOwn(DATA_SCENARIOS, name) ? DATA_SCENARIOS[name as DataScenarioName] : DEFAULT_DATA;
}

/** The gateway's and OTP's own answers to the other transport scenarios. */
const GATEWAY_FAULTS: Readonly<Record<string, () => MockReply>> = {
  unauthorized: invalidKey,
  forbidden: quotaExceeded,
  'server-error': () => reply.text(500, 'Internal Server Error'),
  'bad-gateway': () => reply.text(502, NGINX_BAD_GATEWAY, 'text/html'),
  'service-unavailable': () => gatewayError(503, 'Service Unavailable'),
};

/**
 * The reply of a transport scenario, undefined for the others. `normal` produces the normal response for the
 * ones that mangle it (`reset`, `malformed-json`, `oversized-*`).
 */
export async function transportReply(
  name: string,
  options: ScenarioOptions,
  normal: () => Promise<unknown>,
): Promise<MockReply | undefined> {
  if (isSharedFault(name)) return sharedFaultReply(name, options, normal);
  return Object.hasOwn(GATEWAY_FAULTS, name) ? GATEWAY_FAULTS[name]!() : undefined;
}
