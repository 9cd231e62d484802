import type { ErrorKind } from './kinds.js';

export interface SwitchyardErrorOptions {
  /** A domain-specific wire code that overrides the kind's default mapping (e.g. `DISAMBIGUATION_REQUIRED`). */
  code?: string;
  /** How long to wait before retrying, when the failure says so (Retry-After, a local limiter). */
  retryAfterMs?: number;
  /** Overrides the domain table's retryable flag for this one failure (e.g. a lease held by another caller). */
  retryable?: boolean;
  /** A short, user-facing suggestion of what to change. */
  hint?: string;
  /** Structured, secret-free details for the error payload. */
  details?: Record<string, unknown>;
  /** The HTTP status an upstream answered with, when there was one. */
  upstreamStatus?: number;
  cause?: unknown;
}

/**
 * The one error type that crosses from domain logic and resilience into the tool layer. Its message is
 * shown to callers, so it must be written for them and must never contain a secret.
 */
export class SwitchyardError extends Error {
  readonly kind: ErrorKind;
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly retryable: boolean | undefined;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly upstreamStatus: number | undefined;

  constructor(kind: ErrorKind, message: string, options: SwitchyardErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SwitchyardError';
    this.kind = kind;
    this.code = options.code;
    this.retryAfterMs = options.retryAfterMs;
    this.retryable = options.retryable;
    this.hint = options.hint;
    this.details = options.details;
    this.upstreamStatus = options.upstreamStatus;
  }
}

export function isSwitchyardError(value: unknown): value is SwitchyardError {
  return value instanceof SwitchyardError;
}

/** Wraps anything thrown into a SwitchyardError, keeping SwitchyardErrors as they are. */
export function toSwitchyardError(value: unknown): SwitchyardError {
  if (value instanceof SwitchyardError) return value;
  const causeClass = value instanceof Error ? value.constructor.name : typeof value;
  return new SwitchyardError('internal', 'Unexpected internal failure', {
    cause: value,
    details: { cause_class: causeClass },
  });
}
