import { SwitchyardError } from '@switchyard/contracts/errors';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  assertOk,
  createUpstreamPolicy,
  readJson,
  type UpstreamPolicy,
  type UpstreamPolicyOptions,
} from '../src/index.js';
import { createUpstreamKy } from '../src/ky.js';
import { closedPort, sendJson, startServer, type Handler, type TestServer } from './helpers/server.js';
import { eventually, realDelay } from './helpers/wait.js';

const UPSTREAM = 'TfL';

let server: TestServer | undefined;

async function serve(handler: Handler): Promise<TestServer> {
  server = await startServer(handler);
  return server;
}

afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

/** One attempt the way a domain client does it: request, assertOk, readJson. */
function getJson(baseUrl: string, path = 'journey') {
  const client = createUpstreamKy({ upstream: UPSTREAM, baseUrl });
  return async (signal: AbortSignal): Promise<unknown> => {
    const response = await (await client).get(path, { signal });
    await assertOk(response, { upstream: UPSTREAM });
    return readJson(response, { upstream: UPSTREAM });
  };
}

function policyFor(overrides: Partial<UpstreamPolicyOptions> = {}): UpstreamPolicy {
  return createUpstreamPolicy({ upstream: UPSTREAM, timeoutMs: 10_000, retryBudgetMs: 3000, ...overrides });
}

async function rejection(promise: Promise<unknown>): Promise<SwitchyardError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SwitchyardError);
    return error as SwitchyardError;
  }
  throw new Error('expected a rejection');
}

async function untilRequests(target: TestServer, count: number): Promise<void> {
  await eventually(() => expect(target.requests.length).toBe(count));
}

describe('createUpstreamPolicy with fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });

  it('waits exactly Retry-After seconds after a 429, then succeeds', async () => {
    const target = await serve((_req, res, _seen, index) => {
      if (index === 0)
        sendJson(res, 429, { statusCode: 429, message: 'Rate limit is exceeded.' }, { 'retry-after': '2' });
      else sendJson(res, 200, { ok: true });
    });
    const call = policyFor().execute(getJson(target.url));
    await untilRequests(target, 1);
    await vi.advanceTimersByTimeAsync(1999);
    expect(target.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await untilRequests(target, 2);
    await expect(call).resolves.toEqual({ ok: true });
  });

  it('answers rate-limited at once when Retry-After is beyond the retry budget', async () => {
    const target = await serve((_req, res) => sendJson(res, 429, {}, { 'retry-after': '30' }));
    const error = await rejection(policyFor().execute(getJson(target.url)));
    expect(error.kind).toBe('rate-limited');
    expect(error.retryAfterMs).toBe(30_000);
    expect(error.upstreamStatus).toBe(429);
    expect(error.message).toBe('TfL answered 429 Too Many Requests: too many requests; retry after 30 s');
    expect(target.requests).toHaveLength(1);
  });

  it('honours Retry-After in its HTTP-date form', async () => {
    // HTTP-dates have whole seconds: start the fake clock on one so the wait is exact.
    vi.setSystemTime(Date.UTC(2026, 2, 1, 12, 0, 0));
    const target = await serve((_req, res, _seen, index) => {
      if (index === 0) sendJson(res, 429, {}, { 'retry-after': new Date(Date.now() + 3000).toUTCString() });
      else sendJson(res, 200, { ok: 'date' });
    });
    const call = policyFor().execute(getJson(target.url));
    await untilRequests(target, 1);
    await vi.advanceTimersByTimeAsync(2999);
    expect(target.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await untilRequests(target, 2);
    await expect(call).resolves.toEqual({ ok: 'date' });
  });

  it('takes the wait from a gateway body when the 429 has no Retry-After header', async () => {
    const target = await serve((_req, res, _seen, index) => {
      if (index === 0) {
        sendJson(res, 429, { statusCode: 429, message: 'Rate limit is exceeded. Try again in 1 seconds.' });
      } else sendJson(res, 200, { ok: 'body' });
    });
    const call = policyFor().execute(getJson(target.url));
    await untilRequests(target, 1);
    await vi.advanceTimersByTimeAsync(999);
    expect(target.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await untilRequests(target, 2);
    await expect(call).resolves.toEqual({ ok: 'body' });
  });

  it('retries a 503 after a backoff and succeeds', async () => {
    const target = await serve((_req, res, _seen, index) => {
      if (index === 0) sendJson(res, 503, { message: 'busy' });
      else sendJson(res, 200, { ok: 'second' });
    });
    const call = policyFor().execute(getJson(target.url));
    await untilRequests(target, 1);
    await vi.advanceTimersByTimeAsync(2000);
    await untilRequests(target, 2);
    await expect(call).resolves.toEqual({ ok: 'second' });
  });

  it('throws the last classified error after the last attempt', async () => {
    const target = await serve((_req, res) => sendJson(res, 502, { message: 'bad gateway' }));
    const call = policyFor({ maxAttempts: 3, retryBudgetMs: 10_000 }).execute(getJson(target.url));
    const settled = rejection(call);
    for (let seen = 1; seen < 3; seen += 1) {
      await untilRequests(target, seen);
      await vi.advanceTimersByTimeAsync(2000);
    }
    const error = await settled;
    expect(target.requests).toHaveLength(3);
    expect(error.kind).toBe('upstream-error');
    expect(error.upstreamStatus).toBe(502);
    expect(error.message).toBe('TfL answered 502 Bad Gateway');
  });

  it('turns a hang into upstream-timeout and really aborts the request', async () => {
    const target = await serve(() => {
      // never answers
    });
    const call = rejection(policyFor({ maxAttempts: 1 }).execute(getJson(target.url)));
    await untilRequests(target, 1);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await call;
    expect(error.kind).toBe('upstream-timeout');
    expect(error.message).toBe('TfL did not answer within 10000 ms');
    await eventually(() => expect(target.requests[0]?.aborted).toBe(true));
  });

  it('does not retry a 400', async () => {
    const target = await serve((_req, res) => sendJson(res, 400, { message: 'bad from' }));
    const error = await rejection(policyFor().execute(getJson(target.url)));
    expect(error.kind).toBe('upstream-error');
    expect(error.retryable).toBe(false);
    expect(error.details).toMatchObject({ upstreamMessage: 'bad from' });
    expect(target.requests).toHaveLength(1);
  });

  it('does not retry a non-idempotent call', async () => {
    const target = await serve((_req, res) => sendJson(res, 503, {}));
    const error = await rejection(policyFor().execute(getJson(target.url), { idempotent: false }));
    expect(error.kind).toBe('upstream-error');
    expect(error.upstreamStatus).toBe(503);
    expect(target.requests).toHaveLength(1);
  });

  it('opens the breaker after five failures, fails fast, then lets one probe through and closes', async () => {
    let healthy = false;
    const target = await serve((_req, res) =>
      healthy ? sendJson(res, 200, { ok: 'probe' }) : sendJson(res, 500, {}),
    );
    const policy = policyFor({
      maxAttempts: 1,
      breaker: { consecutiveFailures: 5, halfOpenAfterMs: 10_000 },
    });
    const operation = getJson(target.url);
    for (let failure = 1; failure <= 5; failure += 1) {
      expect(policy.breakerState).toBe('closed');
      expect((await rejection(policy.execute(operation))).upstreamStatus).toBe(500);
    }
    expect(policy.breakerState).toBe('open');

    await vi.advanceTimersByTimeAsync(4000);
    const fast = await rejection(policy.execute(operation));
    expect(fast.kind).toBe('upstream-error');
    expect(fast.message).toBe('TfL is temporarily unavailable (circuit open)');
    expect(fast.retryAfterMs).toBe(6000);
    expect(target.requests).toHaveLength(5);

    await vi.advanceTimersByTimeAsync(6000);
    expect(policy.breakerState).toBe('half-open');
    healthy = true;
    const probe = policy.execute(operation);
    const waiting = policy.execute(operation);
    await expect(probe).resolves.toEqual({ ok: 'probe' });
    await expect(waiting).resolves.toEqual({ ok: 'probe' });
    expect(policy.breakerState).toBe('closed');
    // The probe went alone; the concurrent call only followed once the probe had closed the circuit.
    expect(target.requests).toHaveLength(7);
  });

  it('a call whose own retries open the circuit answers its own last failure, not "circuit open"', async () => {
    // Three 500s (one call), then a hang: the hanging call's two timeouts are failures four and five, so the
    // circuit opens before its third attempt. That call timed out; only the next call is refused by the circuit.
    const target = await serve((_req, res, _seen, index) => {
      if (index < 3) sendJson(res, 500, {});
    });
    const policy = policyFor({
      timeoutMs: 1000,
      retryBudgetMs: 10_000,
      breaker: { consecutiveFailures: 5, halfOpenAfterMs: 60_000 },
    });
    /** Lets fake time pass (backoff waits, attempt timeouts) until the call settles. */
    const settle = async (call: Promise<SwitchyardError>): Promise<SwitchyardError> => {
      let settled = false;
      void call.finally(() => (settled = true));
      while (!settled) {
        await realDelay(5);
        await vi.advanceTimersByTimeAsync(100);
      }
      return call;
    };
    expect((await settle(rejection(policy.execute(getJson(target.url))))).upstreamStatus).toBe(500);
    expect(target.requests).toHaveLength(3);

    const timedOut = await settle(rejection(policy.execute(getJson(target.url))));
    expect(policy.breakerState).toBe('open');
    expect(target.requests).toHaveLength(5);
    expect(timedOut.kind).toBe('upstream-timeout');
    expect(timedOut.message).toBe('TfL did not answer within 1000 ms');

    const refused = await rejection(policy.execute(getJson(target.url)));
    expect(refused.kind).toBe('upstream-error');
    expect(refused.message).toBe('TfL is temporarily unavailable (circuit open)');
    expect(target.requests).toHaveLength(5);
  });

  it('re-opens the breaker when the half-open probe fails', async () => {
    const target = await serve((_req, res) => sendJson(res, 503, {}));
    const policy = policyFor({ maxAttempts: 1, breaker: { consecutiveFailures: 2, halfOpenAfterMs: 1000 } });
    const operation = getJson(target.url);
    await rejection(policy.execute(operation));
    await rejection(policy.execute(operation));
    expect(policy.breakerState).toBe('open');
    await vi.advanceTimersByTimeAsync(1000);
    expect((await rejection(policy.execute(operation))).upstreamStatus).toBe(503);
    expect(policy.breakerState).toBe('open');
    expect(target.requests).toHaveLength(3);
  });

  it('does not count 4xx and 429 against the breaker', async () => {
    const target = await serve((_req, res, _seen, index) =>
      index % 2 === 0 ? sendJson(res, 404, {}) : sendJson(res, 429, {}, { 'retry-after': '60' }),
    );
    const policy = policyFor({ maxAttempts: 1, breaker: { consecutiveFailures: 2 } });
    for (let call = 0; call < 4; call += 1) await rejection(policy.execute(getJson(target.url)));
    expect(policy.breakerState).toBe('closed');
    expect(target.requests).toHaveLength(4);
  });

  it('stops at once with cancelled when the caller aborts, during a request or a retry wait', async () => {
    const hang = await serve((_req, res, _seen, index) => {
      if (index === 1) sendJson(res, 503, {});
    });
    const caller = new AbortController();
    const first = rejection(policyFor().execute(getJson(hang.url), { signal: caller.signal }));
    await untilRequests(hang, 1);
    caller.abort();
    const error = await first;
    expect(error.kind).toBe('cancelled');
    expect(error.message).toBe('The call to TfL was cancelled');
    await eventually(() => expect(hang.requests[0]?.aborted).toBe(true));

    const second = new AbortController();
    const waiting = rejection(policyFor().execute(getJson(hang.url), { signal: second.signal }));
    await untilRequests(hang, 2);
    second.abort();
    expect((await waiting).kind).toBe('cancelled');
    await vi.advanceTimersByTimeAsync(5000);
    expect(hang.requests).toHaveLength(2);
  });

  it('answers cancelled without calling when the signal is already aborted', async () => {
    const target = await serve((_req, res) => sendJson(res, 200, {}));
    const error = await rejection(policyFor().execute(getJson(target.url), { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('cancelled');
    expect(target.requests).toHaveLength(0);
  });

  it('gives up at the overall deadline', async () => {
    const target = await serve(() => {
      // never answers
    });
    const call = rejection(policyFor({ timeoutMs: 5000, deadlineMs: 3000 }).execute(getJson(target.url)));
    await untilRequests(target, 1);
    await vi.advanceTimersByTimeAsync(3000);
    const error = await call;
    expect(error.kind).toBe('upstream-timeout');
    expect(error.message).toBe('TfL did not answer within 3000 ms');
  });

  it('holds one timer during an attempt: the deadline has none of its own', async () => {
    const policy = policyFor({ timeoutMs: 1000, maxAttempts: 1 });
    const hung = rejection(policy.execute(() => new Promise(() => undefined)));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect((await hung).kind).toBe('upstream-timeout');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends at the deadline, without another request, when a wait between attempts overran it', async () => {
    const policy = policyFor({
      timeoutMs: 1000,
      deadlineMs: 2000,
      retryBudgetMs: 1500,
      backoff: { initialDelayMs: 100, maxDelayMs: 100 },
    });
    let calls = 0;
    const call = rejection(
      policy.execute(async () => {
        calls += 1;
        throw new SwitchyardError('network-error', 'connection reset');
      }),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    // The process was descheduled during the backoff wait: the clock passed the deadline before the wait's timer ran.
    vi.setSystemTime(Date.now() + 2500);
    await vi.advanceTimersByTimeAsync(1500);
    const error = await call;
    expect(error.kind).toBe('upstream-timeout');
    expect(error.message).toBe('TfL did not answer within 2000 ms');
    expect(calls).toBe(1);
  });

  it('stops a call held behind the half-open probe at once when its caller aborts, and sends nothing for it', async () => {
    const policy = policyFor({
      timeoutMs: 1000,
      maxAttempts: 1,
      breaker: { consecutiveFailures: 1, halfOpenAfterMs: 5000 },
    });
    await rejection(policy.execute(() => Promise.reject(new SwitchyardError('network-error', 'reset'))));
    await vi.advanceTimersByTimeAsync(5000);
    expect(policy.breakerState).toBe('half-open');
    let sent = 0;
    let answerProbe!: (value: string) => void;
    const probe = policy.execute(() => {
      sent += 1;
      return new Promise<string>((resolve) => (answerProbe = resolve));
    });
    const caller = new AbortController();
    const held = rejection(
      policy.execute(
        async () => {
          sent += 1;
          return 'held';
        },
        { signal: caller.signal },
      ),
    );
    caller.abort();
    expect((await held).kind).toBe('cancelled');
    answerProbe('probe');
    await expect(probe).resolves.toBe('probe');
    expect(policy.breakerState).toBe('closed');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no timer behind, whatever the outcome', async () => {
    const policy = policyFor({ timeoutMs: 1000 });
    await expect(policy.execute(async () => 'ok')).resolves.toBe('ok');
    expect(vi.getTimerCount()).toBe(0);

    await rejection(policy.execute(async () => Promise.reject(new SwitchyardError('validation', 'bad'))));
    expect(vi.getTimerCount()).toBe(0);

    const retried = rejection(
      policy.execute(async () => Promise.reject(new SwitchyardError('network-error', 'x'))),
    );
    await vi.advanceTimersByTimeAsync(5000);
    await retried;
    expect(vi.getTimerCount()).toBe(0);

    const hung = rejection(policy.execute(() => new Promise(() => undefined), { idempotent: false }));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await hung).kind).toBe('upstream-timeout');
    expect(vi.getTimerCount()).toBe(0);

    const caller = new AbortController();
    const cancelled = rejection(
      policy.execute(() => new Promise(() => undefined), { signal: caller.signal }),
    );
    caller.abort();
    expect((await cancelled).kind).toBe('cancelled');
    // The abandoned attempt unwinds on the microtask queue, without any time passing.
    await new Promise((resolve) => setImmediate(resolve));
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('createUpstreamPolicy with real timers', () => {
  it('retries after a real backoff', async () => {
    const target = await serve((_req, res, _seen, index) =>
      index < 2 ? sendJson(res, 500, {}) : sendJson(res, 200, { ok: 'third' }),
    );
    const policy = policyFor({ backoff: { initialDelayMs: 5, maxDelayMs: 20 } });
    await expect(policy.execute(getJson(target.url))).resolves.toEqual({ ok: 'third' });
    expect(target.requests).toHaveLength(3);
  });

  it('times out a real hang and the server sees the abort', async () => {
    const target = await serve(() => {
      // never answers
    });
    // Long enough for the request to reach the server first, even on a loaded machine.
    const error = await rejection(
      policyFor({ timeoutMs: 1000, maxAttempts: 1 }).execute(getJson(target.url)),
    );
    expect(target.requests).toHaveLength(1);
    expect(error.kind).toBe('upstream-timeout');
    await eventually(() => expect(target.requests[0]?.aborted).toBe(true));
  });

  it('classifies a refused connection as network-error (retried, then reported)', async () => {
    const port = await closedPort();
    const policy = policyFor({ backoff: { initialDelayMs: 1, maxDelayMs: 5 } });
    const error = await rejection(policy.execute(getJson(`http://127.0.0.1:${port}`)));
    expect(error.kind).toBe('network-error');
    expect(error.message).toBe('Could not reach TfL: the connection was refused');
  });

  it('does not retry an operation that fails with a non-retryable error of its own', async () => {
    let calls = 0;
    const error = await rejection(
      policyFor().execute(async () => {
        calls += 1;
        throw new RangeError('bug in the parser');
      }),
    );
    expect(error.kind).toBe('internal');
    expect(calls).toBe(1);
  });

  it('rejects impossible options with a message naming the option', () => {
    expect(() => policyFor({ timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => policyFor({ maxAttempts: 1.5 })).toThrow(/maxAttempts/);
    expect(() => policyFor({ breaker: { consecutiveFailures: 0 } })).toThrow(/consecutiveFailures/);
  });
});
