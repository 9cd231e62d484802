import { SwitchyardError } from '@switchyard/contracts/errors';
import { classifyFailure, classifyHttpStatus, MalformedResponseError } from './classify.js';
import { currentCorrelationId } from './correlation.js';
import { redactError, redactText } from './redaction.js';
import { createSecretFetch } from './secret-fetch.js';
import { registerSecret } from './secrets.js';

export { DEFAULT_MAX_RESPONSE_BYTES } from './body-limit.js';

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

/** Bytes of an error body kept for classification; the rest is discarded unread. */
const ERROR_BODY_LIMIT = 16 * 1024;

/**
 * The `fetch` every client of one upstream sends through (graphql-request's `fetch` option, plain GETs, and ky
 * with `createUpstreamKy` of the `/ky` subpath): secrets registered and injected, the body limit, the
 * correlation header, redaction. Plain GETs use it without ky, which would rebuild and clone every request to
 * prepare retries that the policy owns. Takes absolute URLs (relative ones resolve against baseUrl); secrets
 * still go to the base URL's origin only.
 */
export function createUpstreamFetch(options: UpstreamHttpOptions): typeof fetch {
  for (const value of Object.values(options.secretQuery ?? {})) registerSecret(value);
  for (const value of Object.values(options.secretHeaders ?? {})) registerSecret(value);
  const secretFetch = createSecretFetch(options);
  const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  const upstreamFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(options.headers);
    const given = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => given.set(name, value));
    given.forEach((value, name) => headers.set(name, value));
    const correlationId = currentCorrelationId();
    if (correlationId !== undefined) headers.set(CORRELATION_HEADER, correlationId);
    const target = input instanceof Request ? input : new URL(input, base);
    return secretFetch(target, { ...init, headers });
  };
  return upstreamFetch as typeof fetch;
}

/**
 * The body as JSON. A malformed, empty or truncated body is an upstream-error ("malformed response", cause a
 * MalformedResponseError); a connection reset while reading is a network-error; a body past the client's
 * `maxResponseBytes` is the upstream-error "response too large".
 */
export async function readJson(response: Response, options: { upstream: string }): Promise<unknown> {
  const { upstream } = options;
  let text: string;
  try {
    text = await response.text();
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
  if (text.trim() === '') throw malformed('empty body');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw malformed('invalid JSON', error);
  }
}

async function readBounded(response: Response, limit: number): Promise<string | undefined> {
  if (response.body === null) return undefined;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body cut off while reading is still worth classifying by its status.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit));
}

/**
 * The response when it is 2xx; otherwise throws `classifyHttpStatus(...)` with the body read defensively
 * (at most 16 KiB, redacted). Domain outcomes carried by non-2xx statuses (TfL's 300 disambiguation, 404 "no
 * journey") must be handled before calling this.
 */
export async function assertOk(response: Response, options: { upstream: string }): Promise<Response> {
  if (response.ok) return response;
  const body = await readBounded(response, ERROR_BODY_LIMIT);
  throw classifyHttpStatus(response.status, {
    upstream: options.upstream,
    headers: response.headers,
    body: body === undefined ? undefined : redactText(body),
  });
}
