// Named Digitransit scenarios: data scenarios (the query still executes) and transport scenarios.
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';
import { BODY_FAULTS, isSharedFault, sharedFaultReply, STATUS_FAULTS } from '../scenario.js';
import type { ScenarioOptions } from '../scenario.js';
import type { DepartureVariant } from './departures.js';
import { gatewayError, invalidKey, NGINX_BAD_GATEWAY, quotaExceeded } from './gateway.js';

/** Scenarios that change the data the GraphQL query is executed against. */
const DIGITRANSIT_DATA_SCENARIOS = [
  /** Mixed departures board; planConnection = `plan-mixed`. */
  'default',
  /** Realtime, scheduled-only and mixed itineraries. */
  'plan-mixed',
  /** Every transit leg realtime (UPDATED). */
  'plan-realtime',
  /** No realtime at all (SCHEDULED, `estimated: null`). */
  'plan-scheduled',
  /** One itinerary has a CANCELED leg; only returned with `includeRealTimeCancellations: true`. */
  'plan-cancelled-leg',
  /** One leg 420 s late (> 300 s), one 180 s late. */
  'plan-delayed',
  /** Exact duplicate itineraries. */
  'plan-duplicates',
  /** Walks of 2.7 km, 1.4 km, 0.5 km and a 2.9 km walk-only itinerary. */
  'plan-long-walks',
  /** `routingErrors: [NO_TRANSIT_CONNECTION]`, no edges. */
  'plan-no-transit-connection',
  /** `routingErrors: [OUTSIDE_BOUNDS]` (inputField FROM), no edges. */
  'plan-outside-bounds',
  /** `routingErrors: [LOCATION_NOT_FOUND]` (inputField FROM), no edges. */
  'plan-location-not-found',
  /** 1st planConnection: delayed (540 s, 360 s) and cancelled itineraries; later ones: one clean train itinerary. */
  'plan-disrupted-then-clear',
  /** Departures all SCHEDULED (no realtime), like the 2022 HSL capture. */
  'departures-scheduled',
  /** No departures at any stop. */
  'departures-empty',
  /** The default data, with the service alerts of alerts.ts on stops, routes and legs. */
  'service-alerts',
] as const;

/** Scenarios of the transport and gateway, shared with geocoding (except `graphql-errors`). */
const TRANSPORT_SCENARIOS = [
  /** 401 invalid subscription key. */
  'unauthorized',
  ...STATUS_FAULTS,
  ...BODY_FAULTS,
] as const;

export const DIGITRANSIT_SCENARIOS = [
  ...DIGITRANSIT_DATA_SCENARIOS,
  /** HTTP 200, `data: null`, one DataFetchingException in `errors[]`. */
  'graphql-errors',
  ...TRANSPORT_SCENARIOS,
] as const;

export type DigitransitScenarioName = (typeof DIGITRANSIT_SCENARIOS)[number];
type DataScenarioName = (typeof DIGITRANSIT_DATA_SCENARIOS)[number];
type PlanOf<Name> = Name extends `plan-${infer Variant}` ? Variant : never;
/** The itineraries a data scenario plans: its `plan-*` name's, `mixed` for the others. */
export type PlanVariant = PlanOf<DataScenarioName>;

export const GEOCODING_SCENARIOS = ['default', 'geocoding-empty', ...TRANSPORT_SCENARIOS] as const;
export type GeocodingScenarioName = (typeof GEOCODING_SCENARIOS)[number];

export function isDataScenario(name: string): name is DataScenarioName {
  return (DIGITRANSIT_DATA_SCENARIOS as readonly string[]).includes(name);
}

interface DataVariants {
  readonly plan: PlanVariant;
  readonly departures: DepartureVariant;
  readonly alerts: boolean;
}

const DEFAULT_DATA: DataVariants = { plan: 'mixed', departures: 'mixed', alerts: false };

/** The data scenarios that are not `plan-*` (those name their plan variant). */
const DATA_VARIANTS: Partial<Record<DataScenarioName, DataVariants>> = {
  default: DEFAULT_DATA,
  'departures-scheduled': { ...DEFAULT_DATA, departures: 'scheduled' },
  'departures-empty': { ...DEFAULT_DATA, departures: 'empty' },
  'service-alerts': { ...DEFAULT_DATA, alerts: true },
};

export function dataVariants(name: DataScenarioName): DataVariants {
  return DATA_VARIANTS[name] ?? { ...DEFAULT_DATA, plan: name.slice('plan-'.length) as PlanVariant };
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
