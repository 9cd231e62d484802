import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  circuitBreaker,
  CircuitState,
  ConsecutiveBreaker,
  handleWhen,
  isBrokenCircuitError,
} from 'cockatiel';
import type { PolicyLogger } from './policy-logger.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface UpstreamBreakerOptions {
  upstream: string;
  consecutiveFailures: number;
  halfOpenAfterMs: number;
  logger?: PolicyLogger;
}

export interface UpstreamBreaker {
  readonly state: BreakerState;
  /** Runs one attempt through the breaker; throws the circuit-open upstream-error when it is open. */
  execute<T>(attempt: () => Promise<T>): Promise<T>;
}

/** Failures that say the upstream is unwell: timeouts, network errors and 5xx (not 4xx, not 429). */
function isUpstreamFault(error: SwitchyardError): boolean {
  if (error.kind === 'upstream-timeout' || error.kind === 'network-error') return true;
  return error.kind === 'upstream-error' && error.upstreamStatus !== undefined && error.upstreamStatus >= 500;
}

/** The errors a breaker raises because it is open; a retry loop must not retry them. */
const circuitOpenErrors = new WeakSet<SwitchyardError>();

export function isCircuitOpenError(error: unknown): boolean {
  return error instanceof SwitchyardError && circuitOpenErrors.has(error);
}

/** One cockatiel consecutive-failure breaker for one upstream, speaking SwitchyardError. */
export function createUpstreamBreaker(options: UpstreamBreakerOptions): UpstreamBreaker {
  const { upstream, halfOpenAfterMs, logger } = options;
  let openedAt = 0;
  const policy = circuitBreaker(
    handleWhen((error) => {
      if (!(error instanceof SwitchyardError)) return false;
      // A probe that was cancelled or hit the call deadline proves nothing: keep the circuit open.
      if (policy.state === CircuitState.HalfOpen && error.kind === 'cancelled') return true;
      return isUpstreamFault(error);
    }),
    { halfOpenAfter: halfOpenAfterMs, breaker: new ConsecutiveBreaker(options.consecutiveFailures) },
  );
  policy.onBreak(() => {
    openedAt = Date.now();
    logger?.warn(`${upstream} circuit opened`, { upstream, halfOpenAfterMs });
  });
  policy.onHalfOpen(() => logger?.info(`${upstream} circuit half-open: sending one probe`, { upstream }));
  policy.onReset(() => logger?.info(`${upstream} circuit closed`, { upstream }));

  const msUntilHalfOpen = (): number => Math.max(0, openedAt + halfOpenAfterMs - Date.now());

  const openError = (): SwitchyardError => {
    const retryAfterMs = msUntilHalfOpen();
    const error = new SwitchyardError(
      'upstream-error',
      `${upstream} is temporarily unavailable (circuit open)`,
      {
        retryAfterMs,
        retryable: true,
        details: { upstream, circuit: 'open' },
      },
    );
    circuitOpenErrors.add(error);
    return error;
  };

  return {
    get state(): BreakerState {
      switch (policy.state) {
        case CircuitState.Closed:
          return 'closed';
        case CircuitState.HalfOpen:
          return 'half-open';
        case CircuitState.Open:
          // cockatiel moves to half-open lazily, on the next call; report what that call will see.
          return msUntilHalfOpen() === 0 ? 'half-open' : 'open';
        default:
          return 'open';
      }
    },
    async execute<T>(attempt: () => Promise<T>): Promise<T> {
      try {
        return await policy.execute(attempt);
      } catch (error) {
        // Also the isolated variant, a subclass.
        if (isBrokenCircuitError(error)) throw openError();
        throw error;
      }
    },
  };
}
