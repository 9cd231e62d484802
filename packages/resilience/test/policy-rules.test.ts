// The README's policy rules one by one, with operations that fail as a domain client's would (no server
// needed): which errors are retried, the retry budget as a total, the deadline and the breaker's defaults.
import { SwitchyardError } from '@switchyard/contracts/errors';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createUpstreamPolicy, type UpstreamPolicyOptions } from '../src/index.js';

const UPSTREAM = 'TfL';

function policyFor(overrides: Partial<UpstreamPolicyOptions> = {}) {
  return createUpstreamPolicy({ upstream: UPSTREAM, timeoutMs: 10_000, retryBudgetMs: 3000, ...overrides });
}

/** An operation that throws `failures` in turn, then answers 'ok'; `attempts` counts its calls. */
function failing(...failures: SwitchyardError[]) {
  const operation = async (): Promise<string> => {
    operation.attempts += 1;
    const failure = failures[operation.attempts - 1];
    if (failure !== undefined) throw failure;
    return 'ok';
  };
  operation.attempts = 0;
  return operation;
}

const rateLimited = (retryAfterMs: number) =>
  new SwitchyardError('rate-limited', 'TfL answered 429', { retryAfterMs, upstreamStatus: 429 });
const serverError = () => new SwitchyardError('upstream-error', 'TfL answered 503', { upstreamStatus: 503 });

/** Lets fake time pass until the call settles; resolves to its value or its error. */
async function settle<T>(call: Promise<T>): Promise<T | SwitchyardError> {
  let settled = false;
  const outcome = call.then(
    (value) => value,
    (error: unknown) => {
      expect(error).toBeInstanceOf(SwitchyardError);
      return error as SwitchyardError;
    },
  );
  void outcome.finally(() => (settled = true));
  await vi.advanceTimersByTimeAsync(0);
  while (!settled) await vi.advanceTimersByTimeAsync(100);
  return outcome;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('policy retries', () => {
  it('retries an upstream-error that has no status (the request may not have been answered)', async () => {
    const operation = failing(new SwitchyardError('upstream-error', 'TfL sent nothing usable'));
    expect(await settle(policyFor().execute(operation))).toBe('ok');
    expect(operation.attempts).toBe(2);
  });

  it('counts the retry budget over all waits of a call, not per wait', async () => {
    // 1000 ms fits a 1500 ms budget; a second 1000 ms wait would make 2000 ms: answer the 429 instead.
    const operation = failing(rateLimited(1000), rateLimited(1000));
    const error = await settle(policyFor({ retryBudgetMs: 1500 }).execute(operation));
    expect(error).toMatchObject({ kind: 'rate-limited', retryAfterMs: 1000 });
    expect(operation.attempts).toBe(2);
  });

  it('answers at once when the wait would run past the deadline, even within the budget', async () => {
    const operation = failing(rateLimited(2000));
    const error = await settle(policyFor({ retryBudgetMs: 10_000, deadlineMs: 1000 }).execute(operation));
    expect(error).toMatchObject({ kind: 'rate-limited', retryAfterMs: 2000 });
    expect(operation.attempts).toBe(1);
  });

  it('has a default deadline of timeoutMs * maxAttempts + retryBudgetMs', async () => {
    // Deadline 1000 * 2 + 5000 = 7000 ms: a 4000 ms Retry-After fits it (without the budget it would not).
    const operation = failing(rateLimited(4000));
    const policy = policyFor({ timeoutMs: 1000, maxAttempts: 2, retryBudgetMs: 5000 });
    expect(await settle(policy.execute(operation))).toBe('ok');
    expect(operation.attempts).toBe(2);
  });
});

describe('policy breaker', () => {
  it('opens after 5 consecutive failures and turns half-open after 10 s by default', async () => {
    const policy = policyFor({ maxAttempts: 1 });
    const operation = failing(...Array.from({ length: 5 }, serverError));
    for (let failure = 1; failure <= 4; failure += 1) await settle(policy.execute(operation));
    expect(policy.breakerState).toBe('closed');
    await settle(policy.execute(operation));
    expect(policy.breakerState).toBe('open');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(policy.breakerState).toBe('open');
    await vi.advanceTimersByTimeAsync(1);
    expect(policy.breakerState).toBe('half-open');
  });

  it('keeps the circuit open when the half-open probe is cancelled', async () => {
    const policy = policyFor({ maxAttempts: 1, breaker: { consecutiveFailures: 1, halfOpenAfterMs: 1000 } });
    await settle(policy.execute(failing(serverError())));
    await vi.advanceTimersByTimeAsync(1000);
    expect(policy.breakerState).toBe('half-open');

    const caller = new AbortController();
    const probe = policy.execute(() => new Promise<never>(() => undefined), { signal: caller.signal });
    caller.abort();
    expect(await settle(probe)).toMatchObject({ kind: 'cancelled' });
    expect(policy.breakerState).toBe('open');
    const refused = await settle(policy.execute(failing()));
    expect(refused).toMatchObject({ message: 'TfL is temporarily unavailable (circuit open)' });
  });
});
