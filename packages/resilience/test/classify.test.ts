import { SwitchyardError } from '@switchyard/contracts/errors';
import { TaskCancelledError } from 'cockatiel';
import { HTTPError, TimeoutError as KyTimeoutError } from 'ky';
import { describe, expect, it } from 'vitest';
import {
  classifyFailure,
  classifyHttpStatus,
  graphqlErrorsToError,
  MalformedResponseError,
  parseRetryAfter,
} from '../src/index.js';

const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);
const opts = { upstream: 'TfL' };

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(' 0 ')).toBe(0);
    expect(parseRetryAfter('1.5')).toBe(1500);
  });

  it('reads HTTP-dates against the given clock; a past date means now', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:05 GMT', NOW)).toBe(5000);
    expect(parseRetryAfter('Sunday, 01-Mar-26 12:00:07 GMT', NOW)).toBe(7000);
    expect(parseRetryAfter('Sun Mar  1 12:00:09 2026', NOW)).toBe(9000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:59:00 GMT', NOW)).toBe(0);
  });

  it('gives undefined for garbage, negatives and nothing', () => {
    for (const value of [
      '-1',
      'soon',
      '',
      '2 seconds',
      '1e3',
      'Sun, 99 Foo 2026 12:00:05 GMT',
      null,
      undefined,
    ]) {
      expect(parseRetryAfter(value, NOW)).toBeUndefined();
    }
  });
});

describe('classifyHttpStatus', () => {
  it.each([
    [429, 'rate-limited', true],
    [408, 'upstream-timeout', true],
    [504, 'upstream-timeout', true],
    [500, 'upstream-error', true],
    [503, 'upstream-error', true],
    [401, 'upstream-error', false],
    [403, 'upstream-error', false],
    [400, 'upstream-error', false],
    [404, 'upstream-error', false],
    [422, 'upstream-error', false],
  ] as const)('%i → %s (retryable %s)', (status, kind, retryable) => {
    const error = classifyHttpStatus(status, opts);
    expect(error.kind).toBe(kind);
    expect(error.retryable).toBe(retryable);
    expect(error.upstreamStatus).toBe(status);
  });

  it('writes messages for callers', () => {
    expect(classifyHttpStatus(503, opts).message).toBe('TfL answered 503 Service Unavailable');
    expect(classifyHttpStatus(400, { upstream: 'GitHub' }).message).toBe('GitHub answered 400 Bad Request');
    expect(classifyHttpStatus(504, opts).message).toBe(
      'TfL answered 504 Gateway Timeout: it did not answer in time',
    );
  });

  it('says a rejected key was rejected, without the key', () => {
    const error = classifyHttpStatus(401, {
      upstream: 'Digitransit',
      body: JSON.stringify({
        statusCode: 401,
        message: 'Access denied due to invalid subscription key SECRET-99',
      }),
    });
    expect(error.message).toBe(
      'Digitransit rejected the API key (401 Unauthorized); check that the configured key is valid',
    );
    expect(error.message).not.toContain('SECRET-99');
  });

  it('takes a 429 wait from Retry-After, then from a gateway body', () => {
    expect(classifyHttpStatus(429, { ...opts, headers: { 'Retry-After': '3' } }).retryAfterMs).toBe(3000);
    expect(
      classifyHttpStatus(429, { ...opts, headers: new Headers({ 'retry-after': '4' }) }).retryAfterMs,
    ).toBe(4000);
    expect(classifyHttpStatus(429, { ...opts, body: '{"retryAfter": 6}' }).retryAfterMs).toBe(6000);
    expect(
      classifyHttpStatus(429, {
        ...opts,
        body: '{"statusCode":429,"message":"Rate limit is exceeded. Try again in 12 seconds."}',
      }).retryAfterMs,
    ).toBe(12_000);
    expect(classifyHttpStatus(429, { ...opts, body: 'Too many. Try again in 500 ms' }).retryAfterMs).toBe(
      500,
    );
    const bare = classifyHttpStatus(429, { ...opts, body: '<html>slow down</html>' });
    expect(bare.retryAfterMs).toBeUndefined();
    expect(bare.message).toBe('TfL answered 429 Too Many Requests: too many requests');
  });

  it('says a plain 403 rejected the key, and a 403 with quota left is not a rate limit', () => {
    const rejected = 'TfL rejected the API key (403 Forbidden); check that the configured key is valid';
    expect(classifyHttpStatus(403, opts).message).toBe(rejected);
    const withQuotaLeft = classifyHttpStatus(403, {
      ...opts,
      headers: {
        'x-ratelimit-remaining': '10',
        'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 30),
      },
    });
    expect(withQuotaLeft).toMatchObject({ kind: 'upstream-error', retryable: false, message: rejected });
  });

  it('reads the other gateway body forms: retry_after, minutes, and ignores a negative wait', () => {
    const wait = (body: string) => classifyHttpStatus(429, { ...opts, body }).retryAfterMs;
    expect(wait('{"retry_after": 7}')).toBe(7000);
    expect(wait('{"retryAfterSeconds": 8}')).toBe(8000);
    expect(wait('{"message": "Rate limit is exceeded. Try again in 2 minutes."}')).toBe(120_000);
    expect(wait('{"retryAfter": -5}')).toBeUndefined();
  });

  it("treats GitHub's 403 with an exhausted quota as rate-limited", () => {
    const reset = Math.ceil(Date.now() / 1000) + 30;
    const error = classifyHttpStatus(403, {
      upstream: 'GitHub',
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    });
    expect(error.kind).toBe('rate-limited');
    expect(error.retryAfterMs).toBeGreaterThan(25_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(31_000);
    expect(
      classifyHttpStatus(403, { upstream: 'GitHub', headers: { 'retry-after': '60' } }).retryAfterMs,
    ).toBe(60_000);
  });

  it("treats API Management's 403 'Out of call volume quota' as rate-limited, waiting as long as it says", () => {
    const quota = (message: string) =>
      classifyHttpStatus(403, {
        upstream: 'Digitransit',
        body: JSON.stringify({ statusCode: 403, message }),
      });
    const error = quota('Out of call volume quota. Quota will be replenished in 00:00:42.');
    expect(error.kind).toBe('rate-limited');
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(42_000);
    expect(error.message).toBe(
      "Digitransit answered 403 Forbidden: the API key's call quota is used up; retry after 42 s",
    );
    expect(quota('Out of bandwidth quota. Quota will be replenished in 1.02:03:04.').retryAfterMs).toBe(
      ((26 * 60 + 3) * 60 + 4) * 1000,
    );
    // A 403 that refuses the key stays what it was.
    expect(quota('Access denied: a valid app_key is required.').kind).toBe('upstream-error');
  });

  it("keeps the upstream's own message, redacted, in details", () => {
    const error = classifyHttpStatus(500, {
      ...opts,
      body: JSON.stringify({
        message: 'failed for /Journey?app_key=abc123',
        relativeUri: '/Journey?app_key=abc123',
      }),
    });
    expect(error.details).toEqual({
      upstream: 'TfL',
      status: 500,
      upstreamMessage: 'failed for /Journey?app_key=[REDACTED]',
    });
  });
});

function codeError(code: string, message = 'low level'): Error {
  return Object.assign(new Error(message), { code });
}

describe('classifyFailure', () => {
  it('passes SwitchyardErrors through', () => {
    const error = new SwitchyardError('not-found', 'no such stop');
    expect(classifyFailure(error, opts)).toBe(error);
  });

  it.each([
    ['ENOTFOUND', 'Could not reach TfL: its host name could not be resolved (DNS lookup failed)'],
    ['EAI_AGAIN', 'Could not reach TfL: its host name could not be resolved (DNS lookup failed)'],
    ['ECONNREFUSED', 'Could not reach TfL: the connection was refused'],
    ['ECONNRESET', 'Could not reach TfL: the connection was reset'],
    ['UND_ERR_SOCKET', 'Could not reach TfL: the connection closed before the response was complete'],
    ['UND_ERR_SOMETHING_NEW', 'Could not reach TfL: the request failed (UND_ERR_SOMETHING_NEW)'],
  ])('undici fetch failed with cause %s → network-error', (code, message) => {
    const error = classifyFailure(new TypeError('fetch failed', { cause: codeError(code) }), opts);
    expect(error.kind).toBe('network-error');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(message);
  });

  it('finds codes inside AggregateErrors and recognises socket hang up', () => {
    const aggregate = new AggregateError([codeError('ECONNREFUSED'), codeError('ECONNREFUSED')], 'x');
    expect(classifyFailure(new TypeError('fetch failed', { cause: aggregate }), opts).kind).toBe(
      'network-error',
    );
    expect(classifyFailure(new Error('socket hang up'), opts).message).toBe(
      'Could not reach TfL: the connection was closed unexpectedly (socket hang up)',
    );
    expect(classifyFailure(new TypeError('fetch failed'), opts).kind).toBe('network-error');
  });

  it('does not retry a certificate problem', () => {
    const error = classifyFailure(
      new TypeError('fetch failed', { cause: codeError('CERT_HAS_EXPIRED') }),
      opts,
    );
    expect(error.kind).toBe('network-error');
    expect(error.retryable).toBe(false);
  });

  it('classifies timeouts: cockatiel, AbortSignal.timeout, undici headers timeout', () => {
    expect(classifyFailure(new TaskCancelledError('Operation timed out after 5ms'), opts).kind).toBe(
      'upstream-timeout',
    );
    expect(classifyFailure(new DOMException('timed out', 'TimeoutError'), opts).kind).toBe(
      'upstream-timeout',
    );
    for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
      expect(classifyFailure(new TypeError('fetch failed', { cause: codeError(code) }), opts)).toMatchObject({
        kind: 'upstream-timeout',
        retryable: true,
      });
    }
  });

  it("classifies graphql-request's ClientError by its status when that status is a quota or a key problem", () => {
    const clientError = (status: number, headers: Record<string, string>) =>
      Object.assign(new Error('GraphQL Error (Code: 429)'), {
        response: { status, headers: new Headers(headers), errors: [{ message: 'Too many requests' }] },
      });
    expect(classifyFailure(clientError(429, { 'retry-after': '3' }), opts)).toMatchObject({
      kind: 'rate-limited',
      retryAfterMs: 3000,
    });
    expect(classifyFailure(clientError(401, {}), opts).message).toBe(
      'TfL rejected the API key (401 Unauthorized); check that the configured key is valid',
    );
  });

  it("recognises ky's errors (by name: this module does not load ky)", () => {
    const request = new Request('https://api.tfl.gov.uk/Journey');
    const quota = new Response('{}', { status: 429, headers: { 'retry-after': '3' } });
    expect(classifyFailure(new HTTPError(quota, request, {} as never), opts)).toMatchObject({
      kind: 'rate-limited',
      retryAfterMs: 3000,
    });
    expect(classifyFailure(new KyTimeoutError(request), opts).kind).toBe('upstream-timeout');
  });

  it("classifies an abort as cancelled, also when the caller's signal says so", () => {
    expect(classifyFailure(new DOMException('aborted', 'AbortError'), opts).kind).toBe('cancelled');
    const signal = AbortSignal.abort();
    const error = classifyFailure(new Error('whatever happened next'), { ...opts, signal });
    expect(error.kind).toBe('cancelled');
    expect(error.message).toBe('The call to TfL was cancelled');
  });

  it('classifies malformed bodies as upstream-error', () => {
    let syntax: unknown;
    try {
      JSON.parse('{"journeys": [');
    } catch (error) {
      syntax = error;
    }
    for (const error of [syntax, new MalformedResponseError('journeys missing')]) {
      const classified = classifyFailure(error, opts);
      expect(classified.kind).toBe('upstream-error');
      expect(classified.message).toBe('TfL sent a malformed response');
      expect(classified.retryable).toBe(false);
    }
  });

  it('classifies unknown failures as internal and never copies their message', () => {
    const error = classifyFailure(
      new RangeError('index 7 out of range at https://x/?app_key=LEAK-1234'),
      opts,
    );
    expect(error.kind).toBe('internal');
    expect(error.message).toBe('Unexpected failure while calling TfL');
    expect(error.details).toMatchObject({ cause_class: 'RangeError' });
    expect((error.cause as Error).message).toBe('index 7 out of range at https://x/?app_key=[REDACTED]');
  });
});

describe('graphqlErrorsToError', () => {
  it('summarises the first errors as an upstream-error, details listing them', () => {
    const error = graphqlErrorsToError(
      [
        {
          message: 'Cannot query field "foo" on type "Stop".',
          extensions: { classification: 'ValidationError' },
        },
        { message: 'Second problem' },
        { message: 'Third problem' },
      ],
      { upstream: 'Digitransit' },
    );
    expect(error.kind).toBe('upstream-error');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'Digitransit answered with GraphQL errors: Cannot query field "foo" on type "Stop".; Second problem (and 1 more)',
    );
    expect(error.details).toEqual({
      upstream: 'Digitransit',
      graphqlErrors: [
        { message: 'Cannot query field "foo" on type "Stop".', code: 'ValidationError' },
        { message: 'Second problem' },
        { message: 'Third problem' },
      ],
    });
  });

  it('redacts credentials that GraphQL error messages echo', () => {
    const error = graphqlErrorsToError(
      [
        {
          message:
            'Invalid request https://api.digitransit.fi/graphql?digitransit-subscription-key=gql-secret-42',
        },
      ],
      { upstream: 'Digitransit' },
    );
    expect(error.message).toContain('digitransit-subscription-key=[REDACTED]');
    expect(JSON.stringify(error.details)).not.toContain('gql-secret-42');
    expect(error.message).not.toContain('gql-secret-42');
  });

  it('copes with odd shapes', () => {
    expect(graphqlErrorsToError([], { upstream: 'Digitransit' }).message).toBe(
      'Digitransit answered with GraphQL errors: an unspecified error',
    );
    expect(graphqlErrorsToError([{ message: 42 }], { upstream: 'Digitransit' }).message).toBe(
      'Digitransit answered with GraphQL errors: unspecified error',
    );
  });
});
