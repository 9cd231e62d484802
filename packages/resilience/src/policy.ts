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

/** Why an attempt stopped for the whole call: the caller aborted, or the call's deadline passed. */
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

  /** The errors that stop a call (the caller's abort, the deadline): never retried. */
  const stops = new WeakSet<SwitchyardError>();
  const stopError = (reason: unknown): SwitchyardError => {
    const error =
      reason === DEADLINE_PASSED
        ? new SwitchyardError('upstream-timeout', `${upstream} did not answer within ${deadlineMs} ms`, {
            retryable: true,
            details: { upstream, deadlineMs },
          })
        : new SwitchyardError('cancelled', `The call to ${upstream} was cancelled`, {
            details: { upstream },
          });
    stops.add(error);
    return error;
  };

  /**
   * One attempt under its own signal, which aborts after `timeoutMs` (or at the call's deadline, when that comes
   * first), when the caller aborts, and once the attempt settles. A timeout or stop rejects at once, without
   * waiting for the operation to notice. The call's deadline needs no timer of its own: waits between attempts
   * never run past it (see `attempts`), so it can only pass during an attempt, or while the breaker holds the
   * call (`heldByBreaker`). What it throws is classified: the call's stops, the attempt's timeout, or the
   * operation's own failure.
   */
  async function withinAttempt<T>(
    operation: (signal: AbortSignal) => Promise<T>,
    callerSignal: AbortSignal | undefined,
    deadlineAt: number,
  ): Promise<T> {
    const attempt = new AbortController();
    let resolveOutcome!: (value: T) => void;
    let rejectOutcome!: (reason: unknown) => void;
    const outcome = new Promise<T>((resolve, reject) => {
      resolveOutcome = resolve;
      rejectOutcome = reject;
    });
    // Every early end aborts the attempt's signal (so the request is really cancelled) and rejects at once: no
    // listener of the policy's own on that signal.
    const stopWith = (reason: unknown): void => {
      attempt.abort(reason);
      rejectOutcome(reason);
    };
    const stop = (): void => stopWith(CALLER_ABORTED);
    callerSignal?.addEventListener('abort', stop, { once: true });
    const untilDeadlineMs = deadlineAt - Date.now();
    const timer =
      untilDeadlineMs < timeoutMs
        ? setTimeout(stopWith, untilDeadlineMs, DEADLINE_PASSED)
        : setTimeout(stopWith, timeoutMs, ATTEMPT_TIMED_OUT);
    try {
      operation(attempt.signal).then(resolveOutcome, rejectOutcome);
      return await outcome;
    } catch (error) {
      if (error === DEADLINE_PASSED) throw stopError(DEADLINE_PASSED);
      if (callerSignal?.aborted === true) throw stopError(CALLER_ABORTED);
      if (error === ATTEMPT_TIMED_OUT) {
        throw new SwitchyardError('upstream-timeout', `${upstream} did not answer within ${timeoutMs} ms`, {
          retryable: true,
          details: { upstream, timeoutMs },
        });
      }
      throw classifyFailure(error, { upstream });
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', stop);
      attempt.abort(ATTEMPT_SETTLED);
    }
  }

  /**
   * A call the breaker holds while its half-open probe is out has no attempt, and so no timer or listener, yet:
   * that wait still ends at once when the caller aborts or the deadline passes. `abandon` is told, so that the
   * attempt the breaker runs once the probe settles sends nothing.
   */
  function heldByBreaker<T>(
    run: Promise<T>,
    callerSignal: AbortSignal | undefined,
    deadlineAt: number,
    abandon: () => void,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const stopWith = (reason: unknown) => (): void => {
        settled();
        abandon();
        reject(stopError(reason));
      };
      const onAbort = stopWith(CALLER_ABORTED);
      const timer = setTimeout(stopWith(DEADLINE_PASSED), Math.max(0, deadlineAt - Date.now()));
      const settled = (): void => {
        clearTimeout(timer);
        callerSignal?.removeEventListener('abort', onAbort);
      };
      callerSignal?.addEventListener('abort', onAbort, { once: true });
      run.then(
        (value) => {
          settled();
          resolve(value);
        },
        (error: unknown) => {
          settled();
          reject(error);
        },
      );
    });
  }

  function runAttempt<T>(
    operation: (signal: AbortSignal) => Promise<T>,
    callerSignal: AbortSignal | undefined,
    deadlineAt: number,
  ): Promise<T> {
    const state = { started: false, abandoned: false };
    const attempt = (): Promise<T> => {
      state.started = true;
      if (state.abandoned || callerSignal?.aborted === true) return Promise.reject(stopError(CALLER_ABORTED));
      return withinAttempt(operation, callerSignal, deadlineAt);
    };
    if (breaker === undefined) return attempt();
    // The breaker calls `attempt` at once unless a half-open probe is out, when it holds the call until then.
    const run = breaker.execute(attempt);
    return state.started ? run : heldByBreaker(run, callerSignal, deadlineAt, () => (state.abandoned = true));
  }

  async function attempts<T>(
    operation: (signal: AbortSignal) => Promise<T>,
    idempotent: boolean,
    callerSignal: AbortSignal | undefined,
    startedAt: number,
  ): Promise<T> {
    const deadlineAt = startedAt + deadlineMs;
    let waitedMs = 0;
    let backoff: IBackoff<unknown> | undefined;
    let lastFailure: SwitchyardError | undefined;
    for (let attempt = 1; ; attempt += 1) {
      // A wait that overran its timer ends at the deadline, before another request is sent.
      if (attempt > 1 && Date.now() >= deadlineAt) throw stopError(DEADLINE_PASSED);
      let error: SwitchyardError;
      try {
        return await runAttempt(operation, callerSignal, deadlineAt);
      } catch (thrown) {
        error = classifyFailure(thrown, { upstream });
      }
      if (stops.has(error)) throw error;
      // The circuit opening during this call's retries is not what happened to this call: it answers with its
      // own last failure (a timeout stays a timeout). Only a call refused before any attempt says "circuit open".
      if (isCircuitOpenError(error) && lastFailure !== undefined) throw lastFailure;
      lastFailure = error;
      if (callerSignal?.aborted === true) throw stopError(CALLER_ABORTED);
      if (!idempotent || attempt >= maxAttempts || !isRetryable(error)) throw error;
      let delayMs: number;
      if (error.kind === 'rate-limited' && error.retryAfterMs !== undefined) {
        delayMs = error.retryAfterMs;
      } else {
        backoff = (backoff ?? backoffFactory.next()).next(undefined);
        delayMs = Math.round(backoff.duration);
      }
      const untilDeadlineMs = deadlineAt - Date.now();
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
      try {
        await abortableSleep(delayMs, callerSignal);
      } catch {
        throw stopError(CALLER_ABORTED);
      }
      waitedMs += delayMs;
    }
  }

  return {
    get breakerState(): BreakerState {
      return breaker?.state ?? 'closed';
    },
    // Not async, and runAttempt neither: a layer that only hands a promise on adds no frame of its own.
    execute<T>(
      operation: (signal: AbortSignal) => Promise<T>,
      callOptions: UpstreamExecuteOptions = {},
    ): Promise<T> {
      const { signal } = callOptions;
      if (signal?.aborted === true) return Promise.reject(stopError(CALLER_ABORTED));
      return attempts(operation, callOptions.idempotent !== false, signal, Date.now());
    },
  };
}
