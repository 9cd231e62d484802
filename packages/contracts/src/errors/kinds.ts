/**
 * The small set of error kinds that domain logic and the resilience layer raise. Each domain maps a kind to
 * its own contract's wire code (see the tables beside this file); a client can import those tables.
 */
export const ERROR_KINDS = [
  'validation',
  'not-found',
  'conflict',
  'rate-limited',
  'upstream-timeout',
  'upstream-error',
  'network-error',
  'cancelled',
  'internal',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Where a failure is worth retrying unchanged, by kind, before any domain or instance override. */
export const RETRYABLE_BY_KIND: Readonly<Record<ErrorKind, boolean>> = {
  validation: false,
  'not-found': false,
  conflict: false,
  'rate-limited': true,
  'upstream-timeout': true,
  'upstream-error': true,
  'network-error': true,
  cancelled: false,
  internal: false,
};
