import type http from 'node:http';
import { createRequire } from 'node:module';
import { SwitchyardError } from '@switchyard/contracts/errors';
import { isTaskCancelledError } from 'cockatiel';
import { redactError, redactText } from './redaction.js';
import { parseRetryAfter, retryAfterFromBody } from './retry-after.js';
import type { AnswerHeaders } from './upstream-answer.js';

export { parseRetryAfter } from './retry-after.js';

/** Thrown by response parsers when a body is not what the upstream documents; classified as upstream-error. */
export class MalformedResponseError extends Error {
  constructor(message = 'malformed response', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MalformedResponseError';
  }
}

export interface ClassifyOptions {
  /** Display name used in messages: "TfL", "Digitransit", "GitHub". */
  upstream: string;
}

export interface ClassifyHttpOptions extends ClassifyOptions {
  headers?: AnswerHeaders | Record<string, string>;
  /** The response body (already read, bounded). Only used for hints such as a gateway's retry delay. */
  body?: string;
}

export interface ClassifyFailureOptions extends ClassifyOptions {
  /** The caller's signal: an abort while it is aborted is a cancellation, otherwise a timeout. */
  signal?: AbortSignal;
}

const MAX_UPSTREAM_MESSAGE = 300;

// Shapes are recognised by their members, not with `instanceof Headers` or `Response`: naming either global
// loads Node's fetch implementation (about 17 MiB), which a server that never builds a Response does not need.
function hasGet(value: unknown): value is AnswerHeaders {
  return typeof (value as { get?: unknown } | null | undefined)?.get === 'function';
}

function headerValue(
  headers: AnswerHeaders | Record<string, string> | undefined,
  name: string,
): string | undefined {
  if (headers === undefined) return undefined;
  if (hasGet(headers)) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

// Required, not imported: an ES import of node:http makes Node evaluate every export of the module, and one
// of them loads Node's fetch implementation, 30-40 ms of every server's start. ky stays out of this module for
// the same reason (it builds a Request when it loads); its errors are recognised by name.
const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof http;

function statusLine(status: number): string {
  const text = STATUS_CODES[status];
  return text === undefined ? String(status) : `${status} ${text}`;
}

/** The `message` of a JSON error body (TfL ApiError, gateway `{statusCode, message}`, GitHub), redacted and short. */
function upstreamMessage(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) {
      const message = (parsed as Record<string, unknown>).message;
      if (typeof message === 'string' && message.trim() !== '') {
        return redactText(message.trim()).slice(0, MAX_UPSTREAM_MESSAGE);
      }
    }
  } catch {
    // Not JSON: nothing structured to keep.
  }
  return undefined;
}

/** GitHub signals an exhausted quota with 403 (or 429) plus `x-ratelimit-remaining: 0` or `retry-after`. */
function quotaRetryAfter(headers: ClassifyHttpOptions['headers'], nowMs: number): number | undefined {
  const retryAfter = parseRetryAfter(headerValue(headers, 'retry-after'), nowMs);
  if (retryAfter !== undefined) return retryAfter;
  if (headerValue(headers, 'x-ratelimit-remaining') !== '0') return undefined;
  const reset = Number(headerValue(headers, 'x-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - nowMs) : undefined;
}

/**
 * Azure API Management's quota policy (the gateway in front of Digitransit and TfL) answers an exhausted
 * subscription quota with 403 "Out of call volume quota. Quota will be replenished in 00:00:42." (or "Out of
 * bandwidth quota"): a rate limit, not a refused key.
 */
const OUT_OF_QUOTA = /\bout of (?:call volume|bandwidth) quota\b/i;

function retryAfterText(ms: number): string {
  return `${Math.ceil(ms / 100) / 10} s`;
}

/**
 * A non-2xx HTTP answer as a SwitchyardError whose message is written for callers
 * ("TfL answered 503 Service Unavailable"). See the README's classification table.
 */
export function classifyHttpStatus(status: number, options: ClassifyHttpOptions): SwitchyardError {
  const { upstream, headers, body } = options;
  const now = Date.now();
  const said = upstreamMessage(body);
  const details: Record<string, unknown> = {
    upstream,
    status,
    upstreamMessage: said,
  };
  const base = { upstreamStatus: status, details };
  const answered = `${upstream} answered ${statusLine(status)}`;

  const quota = status === 429 || status === 403 ? quotaRetryAfter(headers, now) : undefined;
  const quotaUsedUp = status === 403 && said !== undefined && OUT_OF_QUOTA.test(said);
  if (status === 429 || quota !== undefined || quotaUsedUp) {
    const retryAfterMs = quota ?? retryAfterFromBody(body);
    const what = quotaUsedUp ? "the API key's call quota is used up" : 'too many requests';
    const message =
      retryAfterMs === undefined
        ? `${answered}: ${what}`
        : `${answered}: ${what}; retry after ${retryAfterText(retryAfterMs)}`;
    return new SwitchyardError('rate-limited', message, {
      ...base,
      retryable: true,
      retryAfterMs,
    });
  }
  if (status === 408 || status === 504) {
    return new SwitchyardError('upstream-timeout', `${answered}: it did not answer in time`, {
      ...base,
      retryable: true,
    });
  }
  if (status >= 500) return new SwitchyardError('upstream-error', answered, { ...base, retryable: true });
  if (status === 401 || status === 403) {
    return new SwitchyardError(
      'upstream-error',
      `${upstream} rejected the API key (${statusLine(status)}); check that the configured key is valid`,
      { ...base, retryable: false },
    );
  }
  return new SwitchyardError('upstream-error', answered, { ...base, retryable: false });
}

/** Network failures, by the `code` Node, undici and the OS put on errors (anywhere in the cause chain). */
const NETWORK_CODES: Readonly<Record<string, string>> = {
  ENOTFOUND: 'its host name could not be resolved (DNS lookup failed)',
  EAI_AGAIN: 'its host name could not be resolved (DNS lookup failed)',
  EAI_NONAME: 'its host name could not be resolved (DNS lookup failed)',
  EAI_FAIL: 'its host name could not be resolved (DNS lookup failed)',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ECONNABORTED: 'the connection was aborted',
  EPIPE: 'the connection was closed while sending',
  UND_ERR_SOCKET: 'the connection closed before the response was complete',
  UND_ERR_CLOSED: 'the connection closed before the response was complete',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the response was cut off',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EHOSTUNREACH: 'the network is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENETDOWN: 'the network is unreachable',
  EHOSTDOWN: 'the network is unreachable',
};

/**
 * Node's HTTP client ends a body the upstream cut short with ECONNRESET "aborted": said as what happened, not as
 * a reset (the connection closed cleanly, too early).
 */
function cutOffBody(code: string, item: unknown): string | undefined {
  return code === 'ECONNRESET' && messageOf(item) === 'aborted'
    ? 'the connection closed before the response was complete'
    : undefined;
}

/** undici timeouts after the connection was made: the upstream itself was slow. */
const ANSWER_TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

const TLS_CODE = /^(?:CERT_|ERR_TLS_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT)/;

/** Messages of errors that carry no code but are network failures. */
const NETWORK_MESSAGES: ReadonlyArray<[RegExp, string]> = [
  [/socket hang up/i, 'the connection was closed unexpectedly (socket hang up)'],
  [/^terminated$/i, 'the connection closed before the response was complete'],
  [/other side closed/i, 'the connection closed before the response was complete'],
];

/** The error, its `cause` chain and AggregateError members, breadth-first, without cycles. */
function errorChain(error: unknown): unknown[] {
  const out: unknown[] = [];
  const queue: unknown[] = [error];
  const seen = new Set<unknown>();
  while (queue.length > 0 && out.length < 20) {
    const item = queue.shift();
    if (item === undefined || item === null || seen.has(item)) continue;
    seen.add(item);
    out.push(item);
    if (typeof item === 'object') {
      const record = item as { cause?: unknown; errors?: unknown };
      if (record.cause !== undefined) queue.push(record.cause);
      if (Array.isArray(record.errors)) queue.push(...(record.errors as unknown[]));
    }
  }
  return out;
}

function property(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function nameOf(value: unknown): string | undefined {
  const name = property(value, 'name');
  return typeof name === 'string' ? name : undefined;
}

function messageOf(value: unknown): string {
  const message = property(value, 'message');
  return typeof message === 'string' ? message : '';
}

function withCause(error: SwitchyardError, cause: unknown): SwitchyardError {
  return new SwitchyardError(error.kind, error.message, {
    cause,
    code: error.code,
    retryAfterMs: error.retryAfterMs,
    retryable: error.retryable,
    hint: error.hint,
    details: error.details,
    upstreamStatus: error.upstreamStatus,
  });
}

/** Statuses whose meaning beats any GraphQL `errors` in the body. */
const TRANSPORT_STATUSES = new Set([401, 403, 408, 429]);

/**
 * graphql-request's ClientError (`response: { status, headers, body, errors? }`): HTTP failures by status,
 * GraphQL errors (HTTP 200, or a plain 4xx carrying them) as upstream-error.
 */
function fromGraphqlClientError(error: unknown, upstream: string): SwitchyardError | undefined {
  const response = property(error, 'response');
  const status = property(response, 'status');
  if (!(error instanceof Error) || typeof status !== 'number') return undefined;
  const errors = property(response, 'errors');
  const graphqlErrors =
    Array.isArray(errors) && errors.length > 0 ? (errors as { message?: unknown }[]) : undefined;
  const ok = status >= 200 && status < 300;
  if (graphqlErrors !== undefined && (ok || (status < 500 && !TRANSPORT_STATUSES.has(status)))) {
    return graphqlErrorsToError(graphqlErrors, { upstream });
  }
  if (ok) return undefined;
  const headers = property(response, 'headers');
  const body = property(response, 'body');
  return classifyHttpStatus(status, {
    upstream,
    headers: hasGet(headers) ? headers : undefined,
    body: typeof body === 'string' ? redactText(body.slice(0, 16_384)) : undefined,
  });
}

/**
 * Anything thrown while calling an upstream, as a SwitchyardError (see the README's classification table).
 * The caller-facing message never copies the raw error text (it may hold a URL with a key); the original
 * is kept as `cause`, redacted.
 */
export function classifyFailure(error: unknown, options: ClassifyFailureOptions): SwitchyardError {
  if (error instanceof SwitchyardError) return error;
  const { upstream } = options;
  const cause = redactError(error);
  const chain = errorChain(error);

  // ky's HTTPError (only thrown by a client created with throwHttpErrors).
  const response = nameOf(error) === 'HTTPError' ? property(error, 'response') : undefined;
  const status = property(response, 'status');
  if (typeof status === 'number') {
    const headers = property(response, 'headers');
    return withCause(
      classifyHttpStatus(status, { upstream, headers: hasGet(headers) ? headers : undefined }),
      cause,
    );
  }
  const graphqlClientError = fromGraphqlClientError(error, upstream);
  if (graphqlClientError !== undefined) return withCause(graphqlClientError, cause);

  if (options.signal?.aborted === true) {
    return new SwitchyardError('cancelled', `The call to ${upstream} was cancelled`, { cause });
  }

  const timedOut = chain.some(
    (item) =>
      nameOf(item) === 'TimeoutError' ||
      isTaskCancelledError(item) ||
      ANSWER_TIMEOUT_CODES.has(String(property(item, 'code'))),
  );
  if (timedOut) {
    return new SwitchyardError('upstream-timeout', `${upstream} did not answer in time`, {
      cause,
      retryable: true,
    });
  }

  if (nameOf(error) === 'AbortError') {
    return new SwitchyardError('cancelled', `The call to ${upstream} was cancelled`, { cause });
  }

  for (const item of chain) {
    const code = property(item, 'code');
    if (typeof code !== 'string') continue;
    const what = cutOffBody(code, item) ?? NETWORK_CODES[code];
    if (what !== undefined) {
      return new SwitchyardError('network-error', `Could not reach ${upstream}: ${what}`, {
        cause,
        retryable: true,
        details: { upstream, code },
      });
    }
    if (TLS_CODE.test(code)) {
      return new SwitchyardError(
        'network-error',
        `Could not reach ${upstream}: its TLS certificate was not accepted`,
        { cause, retryable: false, details: { upstream, code } },
      );
    }
    if (code.startsWith('UND_ERR_')) {
      return new SwitchyardError(
        'network-error',
        `Could not reach ${upstream}: the request failed (${code})`,
        {
          cause,
          retryable: true,
          details: { upstream, code },
        },
      );
    }
  }
  for (const item of chain) {
    const message = messageOf(item);
    for (const [pattern, what] of NETWORK_MESSAGES) {
      if (pattern.test(message)) {
        return new SwitchyardError('network-error', `Could not reach ${upstream}: ${what}`, {
          cause,
          retryable: true,
          details: { upstream },
        });
      }
    }
  }

  if (error instanceof MalformedResponseError || error instanceof SyntaxError) {
    return new SwitchyardError('upstream-error', `${upstream} sent a malformed response`, {
      cause,
      retryable: false,
      details: { upstream },
    });
  }

  // undici's `fetch failed` without a recognised cause: still a failure before any answer arrived.
  if (error instanceof TypeError && /fetch failed/i.test(messageOf(error))) {
    return new SwitchyardError('network-error', `Could not reach ${upstream}: the request failed`, {
      cause,
      retryable: true,
      details: { upstream },
    });
  }

  const causeClass = error instanceof Error ? error.constructor.name : typeof error;
  return new SwitchyardError('internal', `Unexpected failure while calling ${upstream}`, {
    cause,
    retryable: false,
    details: { upstream, cause_class: causeClass },
  });
}

function graphqlCode(extensions: unknown): string | undefined {
  const code = property(extensions, 'code') ?? property(extensions, 'classification');
  return typeof code === 'string' ? code : undefined;
}

/**
 * GraphQL `errors[]` (HTTP 200) as an upstream-error: the message summarises the first two errors,
 * `details.graphqlErrors` lists up to ten (message and extension code), all redacted.
 */
export function graphqlErrorsToError(
  errors: ReadonlyArray<{ message?: unknown; extensions?: unknown }>,
  options: ClassifyOptions,
): SwitchyardError {
  const { upstream } = options;
  const listed = errors.slice(0, 10).map((error) => {
    const message =
      typeof error.message === 'string' && error.message.trim() !== ''
        ? redactText(error.message.trim()).slice(0, MAX_UPSTREAM_MESSAGE)
        : 'unspecified error';
    const code = graphqlCode(error.extensions);
    return code === undefined ? { message } : { message, code };
  });
  const shown = listed.slice(0, 2).map((error) => error.message);
  const more = errors.length > shown.length ? ` (and ${errors.length - shown.length} more)` : '';
  const summary = shown.length === 0 ? 'an unspecified error' : shown.join('; ');
  return new SwitchyardError(
    'upstream-error',
    `${upstream} answered with GraphQL errors: ${summary}${more}`,
    {
      retryable: false,
      details: { upstream, graphqlErrors: listed },
    },
  );
}
