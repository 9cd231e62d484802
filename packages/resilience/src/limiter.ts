import { SwitchyardError } from '@switchyard/contracts/errors';
// rate-limiter-flexible's index requires every store it supports (Redis, Mongo, Postgres, DynamoDB...), about
// 15 ms of every server's start; only the memory limiter is used, so it is imported from its own file (the
// package has no exports map; rate-limiter-files.d.ts gives these files the package's types). A static import,
// so that a bundle holds it.
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';

export interface CallLimiter {
  /**
   * Takes one call from `key`'s allowance (one shared allowance when no key is given). Answers at once:
   * resolves when allowed, throws SwitchyardError('rate-limited', ..., { retryAfterMs }) when not. Never queues.
   */
  consume(key?: string): Promise<void>;
}

export interface CallLimiterOptions {
  /** The tool (or group of tools) limited, as callers know it: "planJourney". */
  name: string;
  /** Calls allowed per window. */
  points: number;
  /** Window length. */
  durationMs: number;
}

const SHARED_KEY = 'all-callers';

/** The limiter of a tool that has no local limit (the operator turned it off, or nothing meters the upstream). */
export const NO_CALL_LIMIT: CallLimiter = { consume: () => Promise.resolve() };

function windowText(durationMs: number): string {
  if (durationMs === 1000) return 'second';
  if (durationMs === 60_000) return 'minute';
  if (durationMs === 3_600_000) return 'hour';
  return durationMs % 1000 === 0 ? `${durationMs / 1000} seconds` : `${durationMs} ms`;
}

/**
 * A caller-side limit for one tool: `points` calls per `durationMs` window per key (fixed window), in memory.
 * Built on rate-limiter-flexible so the store can later move to Redis/SQLite and be shared by replicas.
 */
export function createCallLimiter(options: CallLimiterOptions): CallLimiter {
  const { name, points, durationMs } = options;
  if (!Number.isInteger(points) || points < 1) {
    throw new RangeError(`points must be an integer >= 1 (got ${points})`);
  }
  if (!Number.isFinite(durationMs) || durationMs <= 0) {
    throw new RangeError(`durationMs must be a positive number (got ${durationMs})`);
  }
  const limiter = new RateLimiterMemory({ points, duration: durationMs / 1000, keyPrefix: name });
  const limitText = `${name} is limited to ${points} ${points === 1 ? 'call' : 'calls'} per ${windowText(durationMs)}`;

  return {
    async consume(key = SHARED_KEY): Promise<void> {
      try {
        await limiter.consume(key);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) {
          throw new SwitchyardError('internal', `The ${name} rate limiter failed`, { cause: rejection });
        }
        const retryAfterMs = Math.max(1, rejection.msBeforeNext);
        const seconds = Math.ceil(retryAfterMs / 100) / 10;
        throw new SwitchyardError('rate-limited', `${limitText}; retry after ${seconds} s`, {
          retryAfterMs,
          retryable: true,
          details: { limit: points, windowMs: durationMs },
        });
      }
    },
  };
}
