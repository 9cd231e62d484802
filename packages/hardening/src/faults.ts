import {
  GET_DEPARTURES_ERROR_TABLE,
  LONDON_ERROR_TABLE,
  PLAN_JOURNEY_ERROR_TABLE,
  PLAN_TRIP_ERROR_TABLE,
  TRANSIT_EXTRA_ERROR_TABLE,
  type DomainErrorTable,
  type ErrorKind,
} from '@switchyard/contracts/errors';
import { reply } from '@switchyard/upstream-mocks';
import type { Upstreams } from './harness/upstreams.js';

/** Seconds in the Retry-After of the rate-limit faults: past the 3 s retry budget, so the tool answers at once. */
export const RETRY_AFTER_SECONDS = 7;

/** Azure API Management's answer to a used-up subscription quota, as Digitransit's mock gateway sends it. */
const QUOTA_MESSAGE = 'Out of call volume quota. Quota will be replenished in 00:00:42.';
const QUOTA_REPLENISHED_IN_SECONDS = 42;

export type Upstream = 'tfl' | 'digitransit';

/** One upstream failure, how to provoke it on a mock, and the error kind the contract maps it from. */
export interface Fault {
  name: string;
  upstreams: readonly Upstream[];
  kind: ErrorKind;
  /** Whether the resilience layer may repeat the request (so the mock may see more than one). */
  retried: boolean;
  /** The wait the answer must state, in seconds; 'unknown' when the upstream gave none. */
  retryAfter?: number | 'unknown';
  apply(upstreams: Upstreams, upstream: Upstream): void;
}

const BOTH: readonly Upstream[] = ['tfl', 'digitransit'];

function named(name: string, retryAfterSeconds = RETRY_AFTER_SECONDS) {
  return (upstreams: Upstreams, upstream: Upstream) => {
    if (upstream === 'tfl') upstreams.tfl.scenario(name as never, { retryAfterSeconds });
    else upstreams.digitransit.scenario(name as never, { retryAfterSeconds });
  };
}

/** Every failure the issue lists: 429 with and without Retry-After, 5xx, hang, reset, bad JSON, GraphQL errors, 401/403. */
export const FAULTS: readonly Fault[] = [
  {
    name: '429 with Retry-After',
    upstreams: BOTH,
    kind: 'rate-limited',
    retried: false,
    retryAfter: RETRY_AFTER_SECONDS,
    apply: named('rate-limited'),
  },
  {
    name: '429 without Retry-After',
    upstreams: BOTH,
    kind: 'rate-limited',
    retried: true,
    retryAfter: 'unknown',
    apply: named('rate-limited-no-retry-after'),
  },
  { name: '500', upstreams: BOTH, kind: 'upstream-error', retried: true, apply: named('server-error') },
  { name: '502', upstreams: BOTH, kind: 'upstream-error', retried: true, apply: named('bad-gateway') },
  {
    name: '503',
    upstreams: BOTH,
    kind: 'upstream-error',
    retried: true,
    apply: named('service-unavailable'),
  },
  {
    name: 'hang past the timeout',
    upstreams: BOTH,
    kind: 'upstream-timeout',
    retried: true,
    apply: named('hang'),
  },
  {
    name: 'connection reset mid-body',
    upstreams: BOTH,
    kind: 'network-error',
    retried: true,
    apply: named('reset'),
  },
  {
    name: 'malformed JSON',
    upstreams: BOTH,
    kind: 'upstream-error',
    retried: false,
    apply: named('malformed-json'),
  },
  {
    name: 'GraphQL errors[]',
    upstreams: ['digitransit'],
    kind: 'upstream-error',
    retried: false,
    apply: named('graphql-errors'),
  },
  {
    name: '401',
    upstreams: BOTH,
    kind: 'upstream-error',
    retried: false,
    apply: (upstreams, upstream) => {
      if (upstream === 'digitransit') upstreams.digitransit.scenario('unauthorized');
      else
        upstreams.tfl.scenario(() =>
          reply.json(401, { statusCode: 401, message: 'Access denied due to invalid subscription key.' }),
        );
    },
  },
  {
    name: '403 refused key',
    upstreams: ['tfl'],
    kind: 'upstream-error',
    retried: false,
    apply: named('forbidden'),
  },
  {
    name: '403 call quota used up',
    upstreams: BOTH,
    kind: 'rate-limited',
    retried: false,
    retryAfter: QUOTA_REPLENISHED_IN_SECONDS,
    apply: (upstreams, upstream) => {
      // Digitransit's mock answers `forbidden` as its gateway does; TfL sits behind the same kind of gateway.
      if (upstream === 'digitransit') upstreams.digitransit.scenario('forbidden');
      else upstreams.tfl.scenario(() => reply.json(403, { statusCode: 403, message: QUOTA_MESSAGE }));
    },
  },
];

/** The error table each transit tool answers with (the contract's). */
export const TRANSIT_TABLES: Readonly<Record<string, DomainErrorTable>> = {
  planJourney: PLAN_JOURNEY_ERROR_TABLE,
  get_london_arrivals: LONDON_ERROR_TABLE,
  get_line_status: LONDON_ERROR_TABLE,
  find_london_stops: LONDON_ERROR_TABLE,
  get_departures: GET_DEPARTURES_ERROR_TABLE,
  plan_trip: PLAN_TRIP_ERROR_TABLE,
  find_stops: TRANSIT_EXTRA_ERROR_TABLE,
};

/** A normal call of each transit tool that succeeds against the mocks' fixture data. */
export const NORMAL_CALLS: Readonly<Record<string, Record<string, unknown>>> = {
  planJourney: { from: "King's Cross", to: 'Waterloo' },
  get_london_arrivals: { stop: { type: 'id', value: '940GZZLUOXC' }, limit: 5 },
  get_line_status: { lines: ['victoria', 'central'] },
  find_london_stops: { name: 'Oxford Circus' },
  get_departures: { stop: { type: 'id', value: 'HSL:1040129' }, limit: 5 },
  plan_trip: {
    origin: { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } },
    destination: { type: 'coords', value: { lat: 60.2055, lon: 24.6559 } },
  },
  find_stops: { name: 'Kamppi' },
};
