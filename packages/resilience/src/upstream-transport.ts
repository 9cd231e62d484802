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
  /** Where to: the scheme, host and port are read from it (the path sent is `path`). */
  url: URL;
  /** The path and query on the request line: the URL's, with any secret query added. */
  path: string;
  method: string;
  /** Field names in lower case. */
  headers: Record<string, string>;
  /** Fields sent over `headers` (names in lower case): the secret headers, added at the last moment. */
  overrides: readonly (readonly [string, string])[];
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

/** Methods whose request Node sends without a length when it has no body, as fetch does. */
const BODILESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/**
 * The request's fields as Node's flat list (name, value, name, value...), built in one pass. Given a list, Node
 * checks each name and value as it writes the head (an invalid one throws as `setHeader` would) but adds no
 * Host and no Content-Length of its own, so those are added here: Host as the URL names it (its port only when
 * not the scheme's), a body's length in bytes, and 0 for a bodiless POST or PUT, as Node and fetch send them.
 */
function headerList(hop: Exchange): string[] {
  const { headers, overrides, body, url } = hop;
  const list: string[] = [];
  for (const name in headers) {
    if (!isOverridden(overrides, name)) list.push(name, headers[name]!);
  }
  for (const [name, value] of overrides) list.push(name, value);
  for (const [name, value] of FETCH_DEFAULT_HEADERS) if (!isGiven(hop, name)) list.push(name, value);
  if (typeof body === 'string' && !isGiven(hop, 'content-type'))
    list.push('content-type', 'text/plain;charset=UTF-8');
  if (!isGiven(hop, 'host')) list.push('host', url.host);
  if (url.username !== '' || url.password !== '') {
    if (!isGiven(hop, 'authorization')) list.push('authorization', basicCredentials(url));
  }
  if (!isGiven(hop, 'content-length') && !isGiven(hop, 'transfer-encoding')) {
    if (body !== undefined) {
      const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      list.push('content-length', String(bytes));
    } else if (!BODILESS_METHODS.has(hop.method)) list.push('content-length', '0');
  }
  return list;
}

// Plain loops rather than closures: the list is built once per request.
function isOverridden(overrides: Exchange['overrides'], name: string): boolean {
  for (const field of overrides) if (field[0] === name) return true;
  return false;
}

function isGiven(hop: Exchange, name: string): boolean {
  return hop.headers[name] !== undefined || isOverridden(hop.overrides, name);
}

/** A URL's user and password as Node sends them for a URL: Basic, percent-decoded. */
function basicCredentials(url: URL): string {
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

/** The error Node's `signal` option destroys a request with: the reason is its cause. */
class AbortError extends Error {
  readonly code = 'ABORT_ERR';
  constructor(reason: unknown) {
    super('The operation was aborted', { cause: reason });
    this.name = 'AbortError';
  }
}

/**
 * The response's head once it arrives; the request fails with the network's or the signal's error. The
 * request is made of precomputed parts rather than a URL object (Node would read the URL's href and copy it
 * into options), and the caller's signal gets one listener of ours, removed when the request closes, rather
 * than Node's `signal` option (an abort listener and an end-of-stream watcher of eight listeners per request).
 */
function send(hop: Exchange): Promise<Http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const { url, signal } = hop;
    if (signal?.aborted === true) {
      reject(new AbortError(signal.reason));
      return;
    }
    const { request, agent } = clientFor(url);
    const { hostname } = url;
    const outgoing = request({
      agent,
      protocol: url.protocol,
      hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: hop.path,
      method: hop.method,
      headers: headerList(hop),
    });
    outgoing.on('response', resolve);
    outgoing.on('error', reject);
    if (signal !== undefined) {
      const onAbort = (): void => void outgoing.destroy(new AbortError(signal.reason));
      signal.addEventListener('abort', onAbort);
      outgoing.on('close', () => signal.removeEventListener('abort', onAbort));
    }
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
