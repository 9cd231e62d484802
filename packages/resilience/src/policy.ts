import { SwitchyardError } from '@switchyard/contracts/errors';
import { ExponentialBackoff, type IBackoff } from 'cockatiel';
import { createUpstreamBreaker, isCircuitOpenError, type BreakerState } from './breaker.js';
import { classifyFailure } from './classify.js';
import type { PolicyLogger } from './policy-logger.js';
import { abortableSleep } from './sleep.js';

export type { BreakerState } from './breaker.js';
export type { PolicyLogger } from './policy-logger.js';

export interface UpstreamPolicyOptions {
  /** Display name used in messages: "TfL", "Digitransit", "GitHub". */
  upstream: string;
  /** Per attempt: the attempt's signal aborts after this long and the attempt fails as upstream-timeout. */
  timeoutMs: number;
  /** Longest TOTAL wait across retries, Retry-After included; a wait beyond it gives up at once. */
  retryBudgetMs: number;
  /** Attempts per call, the first included. Default 3. */
  maxAttempts?: number;
  /** Exponential backoff with decorrelated jitter between attempts without Retry-After. Default 100..2000 ms. */
  backoff?: { initialDelayMs?: number; maxDelayMs?: number };
  /** One breaker per policy; `false` turns it off. Default 5 consecutive failures, half-open after 10 s. */
  breaker?: { consecutiveFailures?: number; halfOpenAfterMs?: number } | false;
  /** Deadline of the whole call, retries included. Default timeoutMs * maxAttempts + retryBudgetMs. */
  deadlineMs?: number;
  /** Where retries and breaker transitions are logged (server-kit's Logger fits). */
  logger?: PolicyLogger;
}

export interface UpstreamExecuteOptions {
  /** `false` for calls that must never be repeated (a POST that creates something). Default true. */
  idempotent?: boolean;
  /** The caller's signal: aborting it stops the call at once with kind 'cancelled'. */
  signal?: AbortSignal;
}

export interface UpstreamPolicy {
  /**
   * Runs `operation` (ONE attempt: request and parse, using the given signal) with timeouts, retries and the
   * breaker. Everything it throws ends up a SwitchyardError. The attempt's signal is aborted once the
   * attempt settles, so read the response body inside `operation`.
   */
  execute<T>(operation: (signal: AbortSignal) => Promise<T>, options?: UpstreamExecuteOptions): Promise<T>;
  readonly breakerState: BreakerState;
}

/** Why a call's own controller aborted. */
const CALLER_ABORTED = { why: 'caller' } as const;
const DEADLINE_PASSED = { why: 'deadline' } as const;
/** Why an attempt's signal aborted: plain reasons, because a DOMException per call costs a stack trace. */
const ATTEMPT_TIMED_OUT = { why: 'attempt timeout' } as const;
const ATTEMPT_SETTLED = { why: 'attempt settled' } as const;

function requireNumber(name: string, value: number, min: number, integer = false): number {
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new RangeError(
      `${name} must be ${integer ? 'an integer' : 'a finite number'} >= ${min} (got ${value})`,
    );
  }
  return value;
}

/** Whether repeating the same request may succeed (see the README's retry rules). */
function isRetryable(error: SwitchyardError): boolean {
  if (isCircuitOpenError(error) || error.retryable === false) return false;
  switch (error.kind) {
    case 'rate-limited':
    case 'upstream-timeout':
    case 'network-error':
      return true;
    case 'upstream-error':
      return error.upstreamStatus === undefined || error.upstreamStatus >= 500;
    default:
      return false;
  }
}

/**
 * Retry, per-attempt timeout, overall deadline and circuit breaker around ONE logical upstream call.
 * Create one policy per upstream and share it across that upstream's tools (it owns the breaker).
 */
export function createUpstreamPolicy(options: UpstreamPolicyOptions): UpstreamPolicy {
  const { upstream, logger } = options;
  const timeoutMs = requireNumber('timeoutMs', options.timeoutMs, 1);
  const retryBudgetMs = requireNumber('retryBudgetMs', options.retryBudgetMs, 0);
  const maxAttempts = requireNumber('maxAttempts', options.maxAttempts ?? 3, 1, true);
  const initialDelayMs = requireNumber('backoff.initialDelayMs', options.backoff?.initialDelayMs ?? 100, 0);
  const maxDelayMs = requireNumber('backoff.maxDelayMs', options.backoff?.maxDelayMs ?? 2000, initialDelayMs);
  const deadlineMs = requireNumber(
    'deadlineMs',
    options.deadlineMs ?? timeoutMs * maxAttempts + retryBudgetMs,
    1,
  );

  const backoffFactory = new ExponentialBackoff({ initialDelay: initialDelayMs, maxDelay: maxDelayMs });
  const breaker =
    options.breaker === false
      ? undefined
      : createUpstreamBreaker({
          upstream,
          consecutiveFailures: requireNumber(
            'breaker.consecutiveFailures',
            options.breaker?.consecutiveFailures ?? 5,
            1,
            true,
          ),
          halfOpenAfterMs: requireNumber(
            'breaker.halfOpenAfterMs',
            options.breaker?.halfOpenAfterMs ?? 10_000,
            0,
          ),
          logger,
        });

  const stopError = (reason: unknown): SwitchyardError =>
    reason === DEADLINE_PASSED
      ? new SwitchyardError('upstream-timeout', `${upstream} did not answer within ${deadlineMs} ms`, {
          retryable: true,
          details: { upstream, deadlineMs },
        })
      : new SwitchyardError('cancelled', `The call to ${upstream} was cancelled`, { details: { upstream } });

  /**
   * One attempt under its own signal, which aborts after `timeoutMs`, when the call stops, and once the
   * attempt settles. A timeout or stop rejects at once, without waiting for the operation to notice.
   */
  async function withinAttempt<T>(
    operation: (signal: AbortSignal) => Promise<T>,
    callSignal: AbortSignal,
  ): Promise<T> {
    const attempt = new AbortController();
    const stop = (): void => attempt.abort(callSignal.reason);
    callSignal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(() => attempt.abort(ATTEMPT_TIMED_OUT), timeoutMs);
    const aborted = new Promise<never>((_, reject) => {
      attempt.signal.addEventListener('abort', () => reject(attempt.signal.reason), { once: true });
    });
    aborted.catch(() => undefined);
    try {
      return await Promise.race([operation(attempt.signal), aborted]);
    } finally {
      clearTimeout(timer);
      callSignal.removeEventListener('abort', stop);
      attempt.abort(ATTEMPT_SETTLED);
    }
  }

  async function runAttempt<T>(
    operation: (signal: AbortSignal) => Promise<T>,
    callSignal: AbortSignal,
  ): Promise<T> {
    const attempt = async (): Promise<T> => {
      try {
        return await withinAttempt(operation, callSignal);
      } catch (error) {
        if (callSignal.aborted) throw stopError(callSignal.reason);
        if (error === ATTEMPT_TIMED_OUT) {
          throw new SwitchyardError('upstream-timeout', `${upstream} did not answer within ${timeoutMs} ms`, {
            retryable: true,
            details: { upstream, timeoutMs },
          });
        }
        throw classifyFailure(error, { upstream });
      }
    };
    return breaker === undefined ? attempt() : breaker.execute(attempt);
  }

  async function attempts<T>(
    operation: (signal: AbortSignal) => Promise<T>,
    idempotent: boolean,
    callSignal: AbortSignal,
    startedAt: number,
  ): Promise<T> {
    let waitedMs = 0;
    let backoff: IBackoff<unknown> | undefined;
    let lastFailure: SwitchyardError | undefined;
    for (let attempt = 1; ; attempt += 1) {
      let error: SwitchyardError;
      try {
        return await runAttempt(operation, callSignal);
      } catch (thrown) {
        error = classifyFailure(thrown, { upstream });
      }
      // The circuit opening during this call's retries is not what happened to this call: it answers with its
      // own last failure (a timeout stays a timeout). Only a call refused before any attempt says "circuit open".
      if (isCircuitOpenError(error) && lastFailure !== undefined) throw lastFailure;
      lastFailure = error;
      if (callSignal.aborted || !idempotent || attempt >= maxAttempts || !isRetryable(error)) throw error;
      let delayMs: number;
      if (error.kind === 'rate-limited' && error.retryAfterMs !== undefined) {
        delayMs = error.retryAfterMs;
      } else {
        backoff = (backoff ?? backoffFactory.next()).next(undefined);
        delayMs = Math.round(backoff.duration);
      }
      const untilDeadlineMs = deadlineMs - (Date.now() - startedAt);
      // Beyond the budget (or the deadline) waiting cannot help this call: answer now, Retry-After included.
      if (waitedMs + delayMs > retryBudgetMs || delayMs >= untilDeadlineMs) throw error;
      logger?.warn(`${upstream} call failed; retrying`, {
        upstream,
        attempt,
        delayMs,
        kind: error.kind,
        upstreamStatus: error.upstreamStatus,
        reason: error.message,
      });
      await abortableSleep(delayMs, callSignal);
      waitedMs += delayMs;
    }
  }

  return {
    get breakerState(): BreakerState {
      return breaker?.state ?? 'closed';
    },
    async execute<T>(
      operation: (signal: AbortSignal) => Promise<T>,
      callOptions: UpstreamExecuteOptions = {},
    ): Promise<T> {
      const { signal } = callOptions;
      if (signal?.aborted === true) throw stopError(CALLER_ABORTED);
      const call = new AbortController();
      const onCallerAbort = (): void => call.abort(CALLER_ABORTED);
      signal?.addEventListener('abort', onCallerAbort, { once: true });
      const deadline = setTimeout(() => call.abort(DEADLINE_PASSED), deadlineMs);
      const stopped = new Promise<never>((_, reject) => {
        call.signal.addEventListener('abort', () => reject(stopError(call.signal.reason)), { once: true });
      });
      try {
        const run = attempts(operation, callOptions.idempotent !== false, call.signal, Date.now());
        // Whichever loses the race below settles unobserved; these keep that from being an unhandled rejection.
        run.catch(() => undefined);
        stopped.catch(() => undefined);
        return await Promise.race([run, stopped]);
      } finally {
        clearTimeout(deadline);
        signal?.removeEventListener('abort', onCallerAbort);
      }
    },
  };
}
