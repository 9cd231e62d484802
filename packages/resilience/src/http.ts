import { SwitchyardError } from '@switchyard/contracts/errors';
import { classifyFailure, classifyHttpStatus, MalformedResponseError } from './classify.js';
import { currentCorrelationId } from './correlation.js';
import { isBlankText, parseJsonBytes } from './json-bytes.js';
import { outgoingOfFetch, responseOf } from './fetch-adapter.js';
import { redactError, redactText } from './redaction.js';
import { createSecretSender, normaliseMethod, type Outgoing } from './secret-sender.js';
import { registerSecret } from './secrets.js';
import type { ReadAnswer, UpstreamAnswer } from './upstream-answer.js';

export { DEFAULT_MAX_RESPONSE_BYTES } from './body-limit.js';
export type { AnswerHeaders, UpstreamAnswer } from './upstream-answer.js';

export interface UpstreamHttpOptions {
  /** Display name used in messages: "TfL", "Digitransit", "GitHub". */
  upstream: string;
  /** e.g. https://api.tfl.gov.uk */
  baseUrl: string;
  /** e.g. `{ app_key: KEY }`: appended to every request URL of the base URL's origin; registered as secrets. */
  secretQuery?: Record<string, string>;
  /** e.g. `{ 'digitransit-subscription-key': KEY }`: sent to the base URL's origin only; registered as secrets. */
  secretHeaders?: Record<string, string>;
  /** Other default headers (user-agent...). Per-call headers such as accept-language go on the request. */
  headers?: Record<string, string>;
  /**
   * Largest response body read, in bytes (default `DEFAULT_MAX_RESPONSE_BYTES`, 8 MiB). Reading past it fails
   * with upstream-error "response too large" and aborts the connection; a larger Content-Length is refused
   * before reading.
   */
  maxResponseBytes?: number;
}

/** The header that carries the call's correlation id to the upstream (and into its logs). */
export const CORRELATION_HEADER = 'x-correlation-id';

/** Characters of an error body kept for classification. */
const ERROR_BODY_LIMIT = 16 * 1024;

/** One request to an upstream: a GET unless `method` says otherwise. */
export interface UpstreamRequest {
  method?: string;
  /** Per-call headers (accept-language...), over the client's defaults. */
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** Sends to one upstream; `target` is absolute or relative to the base URL. */
export type UpstreamClient = (target: string | URL, request?: UpstreamRequest) => Promise<UpstreamAnswer>;

function lowerCaseNames(headers: Record<string, string> | undefined): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const name in headers) lower[name.toLowerCase()] = headers[name]!;
  return lower;
}

/** The base URL, as a directory (relative targets resolve under it). */
const baseOf = (options: UpstreamHttpOptions): URL =>
  new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);

/** The secret sender with the client's default headers and the call's correlation id added to each request. */
function upstreamSender(options: UpstreamHttpOptions): (outgoing: Outgoing) => Promise<ReadAnswer> {
  for (const value of Object.values(options.secretQuery ?? {})) registerSecret(value);
  for (const value of Object.values(options.secretHeaders ?? {})) registerSecret(value);
  const send = createSecretSender(options);
  const defaults = lowerCaseNames(options.headers);
  return (outgoing) => {
    const headers = { ...defaults, ...outgoing.headers };
    const correlationId = currentCorrelationId();
    if (correlationId !== undefined) headers[CORRELATION_HEADER] = correlationId;
    return send({ ...outgoing, headers });
  };
}

/**
 * The client every caller of one upstream sends through: secrets registered and injected, the body limit,
 * the correlation header, redaction. Takes absolute URLs (relative ones resolve against baseUrl); secrets
 * still go to the base URL's origin only. Its answers are not web Responses (see upstream-answer.ts).
 * A URL object is sent as it is, never changed (the sender puts a secret query on a copy), so it is not
 * parsed again.
 */
export function createUpstreamClient(options: UpstreamHttpOptions): UpstreamClient {
  const send = upstreamSender(options);
  const base = baseOf(options);
  return (target, request = {}) =>
    send({
      url: target instanceof URL ? target : new URL(target, base),
      method: normaliseMethod(request.method ?? 'GET'),
      headers: lowerCaseNames(request.headers),
      body: request.body,
      signal: request.signal,
      redirect: 'follow',
    });
}

/**
 * The same client as a `fetch`, for libraries that speak fetch (ky with `createUpstreamKy` of the `/ky`
 * subpath): their requests are taken apart and sent as the client sends, and each answer becomes a Response.
 */
export function createUpstreamFetch(options: UpstreamHttpOptions): typeof fetch {
  const send = upstreamSender(options);
  const base = baseOf(options);
  const upstreamFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const target = input instanceof Request ? input : new URL(input, base);
    return responseOf(await send(await outgoingOfFetch(target, init)));
  };
  return upstreamFetch as typeof fetch;
}

/**
 * The body as JSON. A malformed, empty or truncated body is an upstream-error ("malformed response", cause a
 * MalformedResponseError); a connection reset while reading is a network-error; a body past the client's
 * `maxResponseBytes` is the upstream-error "response too large".
 */
export async function readJson(response: UpstreamAnswer, options: { upstream: string }): Promise<unknown> {
  const { upstream } = options;
  let bytes: Uint8Array;
  try {
    bytes = response.bytes ? await response.bytes() : Buffer.from(await response.text());
  } catch (error) {
    throw classifyFailure(error, { upstream });
  }
  const malformed = (reason: string, cause?: unknown): SwitchyardError =>
    new SwitchyardError('upstream-error', `${upstream} sent a malformed response (${reason})`, {
      cause: redactError(new MalformedResponseError(reason, { cause })),
      retryable: false,
      upstreamStatus: response.status,
      details: { upstream, reason },
    });
  if (isBlankText(bytes)) throw malformed('empty body');
  try {
    return parseJsonBytes(bytes);
  } catch (error) {
    throw malformed('invalid JSON', error);
  }
}

/** At most `limit` characters of the body, or undefined when it cannot be read (still worth classifying). */
async function readBounded(response: UpstreamAnswer, limit: number): Promise<string | undefined> {
  try {
    return (await response.text()).slice(0, limit);
  } catch {
    return undefined;
  }
}

/**
 * The response when it is 2xx; otherwise throws `classifyHttpStatus(...)` with the body read defensively
 * (at most 16 KiB, redacted). Domain outcomes carried by non-2xx statuses (TfL's 300 disambiguation, 404 "no
 * journey") must be handled before calling this.
 */
export async function assertOk<T extends UpstreamAnswer>(
  response: T,
  options: { upstream: string },
): Promise<T> {
  if (response.ok) return response;
  const body = await readBounded(response, ERROR_BODY_LIMIT);
  throw classifyHttpStatus(response.status, {
    upstream: options.upstream,
    headers: response.headers,
    body: body === undefined ? undefined : redactText(body),
  });
}
