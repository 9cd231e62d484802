// The upstream sender seen as a `fetch`, for libraries that speak fetch (ky, through the `/ky` subpath): their
// Request taken apart into what the sender sends, and its answer made a web Response. Only these paths build
// web Requests, Headers and Responses, which load Node's fetch implementation.
import { NULL_BODY_STATUSES } from './body-limit.js';
import { normaliseMethod, type Outgoing } from './secret-sender.js';
import type { ReadAnswer } from './upstream-answer.js';

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name] = value));
  return record;
}

/**
 * The call's parts. A URL with no body or a string body is read from `init` as it is; anything else (bytes,
 * streams, forms) goes through a Request, which applies the Fetch standard's defaults (a form's content-type).
 * A Request's body is buffered for the redirect hops.
 */
export async function outgoingOfFetch(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<Outgoing> {
  if (!(input instanceof Request) && (init?.body == null || typeof init.body === 'string')) {
    return {
      url: new URL(input),
      method: normaliseMethod(init?.method ?? 'GET'),
      headers: headerRecord(new Headers(init?.headers)),
      body: init?.body ?? undefined,
      signal: init?.signal ?? undefined,
      redirect: init?.redirect ?? 'follow',
    };
  }
  // ky hands over its own Request with nothing to add (`init` empty): read it as it is, not through a copy.
  const onlyRequest = input instanceof Request && (init === undefined || Object.keys(init).length === 0);
  const request = onlyRequest ? input : new Request(input, init);
  return {
    url: new URL(request.url),
    method: request.method,
    headers: headerRecord(request.headers),
    body: request.body === null ? undefined : new Uint8Array(await request.arrayBuffer()),
    signal: request.signal,
    redirect: request.redirect,
  };
}

function erroredStream(error: unknown): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.error(error) });
}

/** The answer as a web Response: a body that could not be read reads as that failure; status and headers stay. */
export function responseOf(answer: ReadAnswer): Response {
  const head = { status: answer.status, headers: new Headers(answer.headers.pairs()) };
  const { body } = answer;
  if ('failure' in body) return new Response(erroredStream(body.failure), head);
  return new Response(NULL_BODY_STATUSES.has(answer.status) ? null : body.bytes, head);
}
