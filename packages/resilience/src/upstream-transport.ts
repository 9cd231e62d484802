// One HTTP exchange with an upstream, through Node's own HTTP client (node:http, node:https) and keep-alive
// agents. Neither fetch nor undici: both parse HTTP with llhttp compiled to WebAssembly, whose memory and code
// held about 45 MiB more of a server's RSS after 1,000 exchanges than Node's built-in parser, for more CPU per
// exchange. The body is read here within the limit and handed on as a ReadAnswer (upstream-answer.ts).
import type * as Http from 'node:http';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { readWithinLimit, type ResponseLimit } from './body-limit.js';
import { RawHeaders, type ReadAnswer } from './upstream-answer.js';

/** What one hop sends. */
export interface Exchange {
  url: URL;
  method: string;
  /** Field names in lower case. */
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
}

/** An answer whose body is still unread: a redirect is dropped unread, anything else is read within the limit. */
export interface UnreadAnswer {
  status: number;
  headers: RawHeaders;
  /** Reads the body within the limit (status and headers stay readable when the body is not). */
  read(): Promise<ReadAnswer>;
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

interface Client {
  request: typeof Http.request;
  agent: Http.Agent;
}

/**
 * One keep-alive agent per scheme for every upstream, made with the first exchange. The modules come from
 * getBuiltinModule: an ES import of node:http evaluates its every export, one of which loads Node's fetch.
 */
let clients: Record<string, Client> | undefined;
function clientFor(url: URL): Client {
  clients ??= Object.fromEntries(
    (['http', 'https'] as const).map((scheme) => {
      const module = process.getBuiltinModule(`node:${scheme}`);
      return [`${scheme}:`, { request: module.request, agent: new module.Agent({ keepAlive: true }) }];
    }),
  );
  const client = clients[url.protocol];
  if (client === undefined) throw new TypeError(`${url.protocol} is not an upstream scheme (http or https)`);
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
  const headers = { ...exchange.headers };
  for (const [name, value] of FETCH_DEFAULT_HEADERS) headers[name] ??= value;
  if (typeof exchange.body === 'string') headers['content-type'] ??= 'text/plain;charset=UTF-8';
  return headers;
}

/** The response's head once it arrives; the request fails with the network's or the signal's error. */
function send(hop: Exchange): Promise<Http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const { request, agent } = clientFor(hop.url);
    const outgoing = request(hop.url, {
      method: hop.method,
      headers: requestHeaders(hop),
      agent,
      signal: hop.signal,
    });
    outgoing.once('response', resolve);
    outgoing.once('error', reject);
    outgoing.end(hop.body);
  });
}

export async function exchange(hop: Exchange, limit: ResponseLimit): Promise<UnreadAnswer> {
  const answer = await send(hop);
  // A body destroyed before its end (a redirect dropped, a body past the limit) emits an error: a reader still
  // sees every failure, and one nobody reads is not an uncaught exception.
  answer.on('error', () => undefined);
  const status = answer.statusCode ?? 0;
  const headers = new RawHeaders(answer.headers);
  return {
    status,
    headers,
    read: () =>
      readWithinLimit(
        decodedBody(answer, headers.get('content-encoding')),
        { status, headers },
        limit,
        hop.signal,
      ),
    discard: () => answer.destroy(),
  };
}
