// One HTTP exchange with an upstream, through undici's `request` (the library Node's own fetch is built on).
// Its `request` API costs about half the CPU of `fetch` per exchange, because it skips the WHATWG stream and
// Request/Response machinery; the body arrives as a Node stream, is read here within the limit, and is handed
// on as a standard Response, so ky and graphql-request see the fetch they expect.
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher, request as UndiciRequest } from 'undici';
import { readWithinLimit, type ResponseLimit } from './body-limit.js';

/** What one hop sends. */
export interface Exchange {
  url: URL;
  method: string;
  headers: Headers;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
}

/** An answer whose body is still unread: a redirect is dropped unread, anything else is read within the limit. */
export interface UnreadAnswer {
  status: number;
  headers: Headers;
  /** Reads the body within the limit into a Response (status and headers stay readable when the body is not). */
  read(): Promise<Response>;
  /** Drops the body unread and frees the connection. */
  discard(): void;
}

/**
 * The request headers fetch would add when the caller names none. Compressed answers are decoded before the
 * body limit counts them, as fetch does, so a small compressed body cannot unpack past the limit.
 */
const FETCH_DEFAULT_HEADERS: [string, string][] = [
  ['accept', '*/*'],
  ['accept-encoding', 'gzip, deflate, br'],
  ['user-agent', 'node'],
];

/** undici with one keep-alive pool for every upstream, loaded with the first exchange (not at server start). */
let client: Promise<{ request: typeof UndiciRequest; dispatcher: Dispatcher }> | undefined;
function undici(): NonNullable<typeof client> {
  // undici is CommonJS: its exports are the module's default export both in Node and in the bundled bins.
  client ??= import('undici').then(({ default: { Agent, request } }) => ({
    request,
    dispatcher: new Agent(),
  }));
  return client;
}

/** Decoders of the content codings asked for; an answer in any other coding is read as it came, as fetch does. */
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The body decoded by its Content-Encoding; destroying the decoder drops the connection too. */
function decodedBody(body: Readable, encoding: string | null): Readable {
  const decoder = encoding === null ? undefined : DECODERS[encoding.trim().toLowerCase()];
  if (decoder === undefined) return body;
  return pipeline(body, decoder(), () => undefined);
}

function requestHeaders(exchange: Exchange): Record<string, string> {
  const headers = Object.fromEntries(exchange.headers);
  for (const [name, value] of FETCH_DEFAULT_HEADERS) headers[name] ??= value;
  if (typeof exchange.body === 'string') headers['content-type'] ??= 'text/plain;charset=UTF-8';
  return headers;
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

export async function exchange(hop: Exchange, limit: ResponseLimit): Promise<UnreadAnswer> {
  const { request, dispatcher } = await undici();
  const answer = await request(hop.url, {
    method: hop.method as Dispatcher.HttpMethod,
    headers: requestHeaders(hop),
    body: hop.body,
    signal: hop.signal,
    dispatcher,
  });
  // undici's body emits an error when destroyed before its end (a redirect dropped, a body past the limit):
  // a reader still sees every failure, and one nobody reads is not an uncaught exception.
  answer.body.on('error', () => undefined);
  const headers = responseHeaders(answer.headers);
  return {
    status: answer.statusCode,
    headers,
    read: () =>
      readWithinLimit(
        decodedBody(answer.body, headers.get('content-encoding')),
        { status: answer.statusCode, headers },
        limit,
        hop.signal,
      ),
    discard: () => answer.body.destroy(),
  };
}
