// Named Digitransit scenarios: data scenarios (the query still executes) and transport scenarios.
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';
import { BODY_FAULTS, bodyFaultReply, isBodyFault, type ScenarioOptions } from '../scenario.js';
import type { PlanVariant } from './context.js';
import type { DepartureVariant } from './departures.js';
import { gatewayError, invalidKey, NGINX_BAD_GATEWAY, quotaExceeded, rateLimited } from './gateway.js';

/** Scenarios that change the data the GraphQL query is executed against. */
export const DIGITRANSIT_DATA_SCENARIOS = [
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
export const TRANSPORT_SCENARIOS = [
  /** 401 invalid subscription key. */
  'unauthorized',
  /** 403 out of call volume quota. */
  'forbidden',
  /** 429 with `Retry-After`. */
  'rate-limited',
  /** 429 without `Retry-After`. */
  'rate-limited-no-retry-after',
  /** 500 text/plain from the backend. */
  'server-error',
  /** 502 HTML from nginx. */
  'bad-gateway',
  /** 503 gateway JSON. */
  'service-unavailable',
  ...BODY_FAULTS,
] as const;

export const DIGITRANSIT_SCENARIOS = [
  ...DIGITRANSIT_DATA_SCENARIOS,
  /** HTTP 200, `data: null`, one DataFetchingException in `errors[]`. */
  'graphql-errors',
  ...TRANSPORT_SCENARIOS,
] as const;

export type DigitransitScenarioName = (typeof DIGITRANSIT_SCENARIOS)[number];
export type TransportScenarioName = (typeof TRANSPORT_SCENARIOS)[number];
type DataScenarioName = (typeof DIGITRANSIT_DATA_SCENARIOS)[number];

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

/**
 * The reply of a transport scenario. `body` produces the normal response for the ones that
 * mangle it (`reset`, `malformed-json`).
 */
export async function transportReply(
  name: TransportScenarioName,
  options: ScenarioOptions,
  body: () => Promise<unknown>,
): Promise<MockReply> {
  const retryAfterSeconds = options.retryAfterSeconds ?? 1;
  if (isBodyFault(name)) {
    return bodyFaultReply(name, name === 'hang' ? undefined : await body(), { bodyBytes: options.bodyBytes });
  }
  switch (name) {
    case 'unauthorized':
      return invalidKey();
    case 'forbidden':
      return quotaExceeded();
    case 'rate-limited':
      return rateLimited(retryAfterSeconds);
    case 'rate-limited-no-retry-after':
      return rateLimited(undefined);
    case 'server-error':
      return reply.text(500, 'Internal Server Error');
    case 'bad-gateway':
      return reply.text(502, NGINX_BAD_GATEWAY, 'text/html');
    case 'service-unavailable':
      return gatewayError(503, 'Service Unavailable');
  }
}
