// The upstream requests each transit tool makes for the benchmark's calls, made directly (no MCP, no
// resilience): the floor the tools are compared against, shared by the bare server and the direct runs.
import { STOP_DEPARTURES_QUERY, PLAN_CONNECTION_QUERY } from '../src/hsl/queries.js';
import { planConnectionVariables } from '../src/hsl/plan-request.js';
import { journeyResultsPath } from '../src/tfl/client.js';

export interface BenchTargets {
  tflUrl: string;
  tflKey: string;
  routingUrl: string;
  digitransitKey: string;
}

export const JOURNEY_ARGS = { from: 'Bank', to: 'Mile End' };
export const DEPARTURES_ARGS = { stop: { type: 'id', value: 'HSL:1040129' }, limit: 10 };
export const TRIP_ARGS = {
  origin: { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } },
  destination: { type: 'coords', value: { lat: 60.1989, lon: 24.9325 } },
};

async function json(response: Response): Promise<Record<string, unknown>> {
  if (!response.ok) throw new Error(`upstream answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

export function journeyRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  const url = `${targets.tflUrl}/${journeyResultsPath(JOURNEY_ARGS.from, JOURNEY_ARGS.to)}?app_key=${targets.tflKey}`;
  return fetch(url, { headers: { accept: 'application/json' } }).then(json);
}

function graphql(targets: BenchTargets, query: string, variables: Record<string, unknown>) {
  return fetch(targets.routingUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'accept-language': 'en',
      'digitransit-subscription-key': targets.digitransitKey,
    },
    body: JSON.stringify({ query, variables }),
  }).then(json);
}

export function departuresRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  return graphql(targets, STOP_DEPARTURES_QUERY, {
    id: DEPARTURES_ARGS.stop.value,
    startTime: Math.floor(Date.now() / 1000),
    timeRange: 30 * 60,
    numberOfDepartures: DEPARTURES_ARGS.limit + 1,
  });
}

export function tripRequest(targets: BenchTargets): Promise<Record<string, unknown>> {
  return graphql(
    targets,
    PLAN_CONNECTION_QUERY,
    planConnectionVariables({
      origin: { coordinate: TRIP_ARGS.origin.value, label: 'Origin' },
      destination: { coordinate: TRIP_ARGS.destination.value, label: 'Destination' },
      type: 'depart',
      time: new Date().toISOString(),
      constraints: {
        optimize: 'balanced',
        maxWalkingDistance: 1500,
        maxTransfers: 4,
        accessibility: { stepFree: false, lowWalkingDistance: false },
        language: 'en',
      },
    }),
  );
}

export function targetsFromEnv(env: NodeJS.ProcessEnv = process.env): BenchTargets {
  const get = (name: string): string => {
    const value = env[name];
    if (value === undefined || value === '') throw new Error(`${name} is required`);
    return value;
  };
  return {
    tflUrl: get('TFL_API_BASE_URL'),
    tflKey: get('TFL_API_KEY'),
    routingUrl: get('DIGITRANSIT_ROUTING_URL'),
    digitransitKey: get('DIGITRANSIT_SUBSCRIPTION_KEY'),
  };
}
