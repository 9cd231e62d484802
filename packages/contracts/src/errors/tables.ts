import type { ErrorKind } from './kinds.js';

export interface ErrorCodeSpec {
  /** Whether the same call may succeed if repeated unchanged (possibly after `retryAfter`). */
  retryable: boolean;
  /** When a caller sees this code. */
  description: string;
  /** The HTTP-style status the contract attaches to the code (journey tools only). */
  status?: number;
}

/** One domain's wire codes and the mapping from the shared error kinds to them. */
export interface DomainErrorTable<C extends string = string> {
  readonly domain: string;
  readonly codes: Readonly<Record<C, ErrorCodeSpec>>;
  readonly byKind: Readonly<Record<ErrorKind, C>>;
}

/** planJourney (seed 000): UPPER_SNAKE codes inside the `{ success, code, message, ... }` envelope. */
export const PLAN_JOURNEY_ERROR_TABLE = {
  domain: 'transit/planJourney',
  codes: {
    VALIDATION_ERROR: { retryable: false, description: 'Invalid request input.' },
    DISAMBIGUATION_REQUIRED: {
      retryable: false,
      description:
        'TfL could not uniquely resolve `from` or `to`; retry with one of the returned `parameterValue`s.',
    },
    RATE_LIMIT_EXCEEDED: {
      retryable: true,
      description: 'TPS limit exceeded for planJourney (local or TfL).',
    },
    UPSTREAM_TIMEOUT: { retryable: true, description: 'Timeout while calling the TfL API.' },
    UPSTREAM_ERROR: { retryable: true, description: 'Non-timeout upstream failure (HTTP or request error).' },
    INTERNAL_ERROR: { retryable: false, description: 'Unexpected internal failure.' },
  },
  byKind: {
    validation: 'VALIDATION_ERROR',
    'not-found': 'VALIDATION_ERROR',
    conflict: 'INTERNAL_ERROR',
    'rate-limited': 'RATE_LIMIT_EXCEEDED',
    'upstream-timeout': 'UPSTREAM_TIMEOUT',
    'upstream-error': 'UPSTREAM_ERROR',
    'network-error': 'UPSTREAM_ERROR',
    cancelled: 'INTERNAL_ERROR',
    internal: 'INTERNAL_ERROR',
  },
} as const satisfies DomainErrorTable;

/**
 * The London tools other than planJourney (get_london_arrivals): planJourney's UPPER_SNAKE codes and envelope,
 * without DISAMBIGUATION_REQUIRED (they take stop ids, not place names). An unknown stop is VALIDATION_ERROR.
 */
export const LONDON_ERROR_TABLE = {
  domain: 'transit/london',
  codes: {
    VALIDATION_ERROR: {
      retryable: false,
      description: 'Invalid request input, or a stop or line TfL does not know.',
    },
    RATE_LIMIT_EXCEEDED: PLAN_JOURNEY_ERROR_TABLE.codes.RATE_LIMIT_EXCEEDED,
    UPSTREAM_TIMEOUT: PLAN_JOURNEY_ERROR_TABLE.codes.UPSTREAM_TIMEOUT,
    UPSTREAM_ERROR: PLAN_JOURNEY_ERROR_TABLE.codes.UPSTREAM_ERROR,
    INTERNAL_ERROR: PLAN_JOURNEY_ERROR_TABLE.codes.INTERNAL_ERROR,
  },
  byKind: PLAN_JOURNEY_ERROR_TABLE.byKind,
} as const satisfies DomainErrorTable;

const HSL_CODES = {
  'validation-error': { retryable: false, description: 'Input failed the contract constraints.' },
  'upstream-error': { retryable: true, description: 'GraphQL errors or an HTTP failure from Digitransit.' },
  'upstream-timeout': { retryable: true, description: 'The upstream request exceeded its timeout.' },
  'rate-limited': {
    retryable: true,
    description: '429 from upstream or the local limiter; respect `retryAfter`.',
  },
  'network-error': { retryable: true, description: 'DNS, connection or fetch-abort failure (plan_trip).' },
  'unsupported-region': {
    retryable: false,
    description: 'Origin or destination outside the provider bounds.',
  },
  'no-itinerary-found': {
    retryable: false,
    description: 'No viable itineraries after one relax attempt; adjusting the request may help.',
  },
  'not-found': {
    retryable: false,
    description: 'A saved place (user variable) does not exist (additive tools).',
  },
  'internal-error': { retryable: false, description: 'Unexpected internal failure (additive code).' },
} as const satisfies Record<string, ErrorCodeSpec>;

/** get_departures (seed 001): kebab-case codes; a transport failure is reported as `upstream-error`. */
export const GET_DEPARTURES_ERROR_TABLE = {
  domain: 'transit/get_departures',
  codes: HSL_CODES,
  byKind: {
    validation: 'validation-error',
    'not-found': 'validation-error',
    conflict: 'internal-error',
    'rate-limited': 'rate-limited',
    'upstream-timeout': 'upstream-timeout',
    'upstream-error': 'upstream-error',
    'network-error': 'upstream-error',
    cancelled: 'internal-error',
    internal: 'internal-error',
  },
} as const satisfies DomainErrorTable;

/** plan_trip (seed 003) and the additive transit tools: kebab-case codes including `network-error`. */
export const PLAN_TRIP_ERROR_TABLE = {
  domain: 'transit/plan_trip',
  codes: HSL_CODES,
  byKind: {
    validation: 'validation-error',
    'not-found': 'validation-error',
    conflict: 'internal-error',
    'rate-limited': 'rate-limited',
    'upstream-timeout': 'upstream-timeout',
    'upstream-error': 'upstream-error',
    'network-error': 'network-error',
    cancelled: 'internal-error',
    internal: 'internal-error',
  },
} as const satisfies DomainErrorTable;

/** The additive saved-place and stop tools: like plan_trip, but an unknown key is `not-found`. */
export const TRANSIT_EXTRA_ERROR_TABLE = {
  domain: 'transit/extra',
  codes: HSL_CODES,
  byKind: { ...PLAN_TRIP_ERROR_TABLE.byKind, 'not-found': 'not-found' },
} as const satisfies DomainErrorTable;

/** launch_* (seed 002): the standard error shape `{ ok: false, run_id?, error: { code, message, retryable, details } }`. */
export const LAUNCH_ERROR_TABLE = {
  domain: 'launch-runs',
  codes: {
    INVALID_INPUT: { retryable: false, description: 'Request missing or invalid fields.' },
    SCHEMA_VALIDATION_FAILED: {
      retryable: false,
      description: 'run_config or an artifact fails schema validation.',
    },
    RUN_NOT_FOUND: { retryable: false, description: 'Unknown run_id.' },
    ILLEGAL_STATE: { retryable: false, description: 'The tool was called in a state where it cannot run.' },
    TOOLCHAIN_MISSING: { retryable: false, description: 'A required validator toolchain is not available.' },
    GATE_FAILED: { retryable: false, description: 'Validation completed but ok=false.' },
    FIX_EXHAUSTED: { retryable: false, description: 'max_fix_attempts reached.' },
    ALLOWED_PATHS_VIOLATION: { retryable: false, description: 'Attempted write outside allowed_paths.' },
    COMMIT_SERVICE_ERROR: { retryable: true, description: 'The commit service rejected or failed.' },
    CANCELLED: { retryable: false, description: 'The run was cancelled.' },
    INTERNAL: { retryable: false, description: 'Unexpected server error (details.cause_class says what).' },
  },
  byKind: {
    validation: 'INVALID_INPUT',
    'not-found': 'RUN_NOT_FOUND',
    conflict: 'ILLEGAL_STATE',
    'rate-limited': 'COMMIT_SERVICE_ERROR',
    'upstream-timeout': 'COMMIT_SERVICE_ERROR',
    'upstream-error': 'COMMIT_SERVICE_ERROR',
    'network-error': 'COMMIT_SERVICE_ERROR',
    cancelled: 'CANCELLED',
    internal: 'INTERNAL',
  },
} as const satisfies DomainErrorTable;

/** Journey tools (seed 004): `{ error: { status: 400|404|500, code, message } }`. */
export const JOURNEY_ERROR_TABLE = {
  domain: 'journey-continuity',
  codes: {
    VALIDATION_ERROR: {
      status: 400,
      retryable: false,
      description: 'Invalid input (the message names the field).',
    },
    NOT_FOUND: { status: 404, retryable: false, description: 'The journey does not exist.' },
    DATABASE_ERROR: {
      status: 500,
      retryable: true,
      description: 'The database failed; the message says which step.',
    },
    INTERNAL_ERROR: { status: 500, retryable: false, description: 'Unexpected internal failure.' },
  },
  byKind: {
    validation: 'VALIDATION_ERROR',
    'not-found': 'NOT_FOUND',
    conflict: 'VALIDATION_ERROR',
    'rate-limited': 'INTERNAL_ERROR',
    'upstream-timeout': 'DATABASE_ERROR',
    'upstream-error': 'DATABASE_ERROR',
    'network-error': 'DATABASE_ERROR',
    cancelled: 'INTERNAL_ERROR',
    internal: 'INTERNAL_ERROR',
  },
} as const satisfies DomainErrorTable;

export type PlanJourneyErrorCode = keyof typeof PLAN_JOURNEY_ERROR_TABLE.codes;
export type LondonErrorCode = keyof typeof LONDON_ERROR_TABLE.codes;
export type HslErrorCode = keyof typeof HSL_CODES;
export type LaunchErrorCode = keyof typeof LAUNCH_ERROR_TABLE.codes;
export type JourneyErrorCode = keyof typeof JOURNEY_ERROR_TABLE.codes;

/** The wire code a table gives an error: its own override when the table knows it, else the kind's mapping. */
export function codeFor<C extends string>(table: DomainErrorTable<C>, kind: ErrorKind, override?: string): C {
  if (override !== undefined && Object.prototype.hasOwnProperty.call(table.codes, override))
    return override as C;
  return table.byKind[kind];
}
