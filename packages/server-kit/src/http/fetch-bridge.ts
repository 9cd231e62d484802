import type http from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { JSONRPC_INTERNAL_ERROR } from '../host.js';
import { sendJsonRpcError } from './responses.js';

/** The web-standard face of the SDK's `createMcpHandler`. */
export interface FetchHandler {
  fetch(request: Request, options?: { authInfo?: AuthInfo; parsedBody?: unknown }): Promise<Response>;
}

/** A request on `/mcp`: `auth` set by the bearer token check, `body` by the JSON body parser (when JSON came). */
export type McpRequest = http.IncomingMessage & { auth?: AuthInfo; body?: unknown };

/** Headers that describe a body; the `Request` built here carries none (the handler gets it parsed). */
const BODY_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding']);

/**
 * The request's headers as a plain record, which the `Request` takes into its own header list at once (a
 * `Headers` built first would be filled header by header and then copied). A repeated header is joined with
 * ", ", as `Headers` would combine it.
 */
function requestHeaders(req: http.IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(req.headers)) {
    const value = req.headers[name];
    if (value === undefined || name.startsWith(':') || BODY_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The request's JSON-RPC id, when the body is one request whose id a 500 answer can echo. */
function echoableId(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { method, id } = body as { method?: unknown; id?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : null;
}

function isJson(response: Response): boolean {
  return /^application\/json\s*(;|$)/i.test(response.headers.get('content-type') ?? '');
}

/**
 * Writes an event stream as it comes, the writes of one turn of the event loop together (a tool's last event
 * and the end of the stream are one syscall, not three), so that an event sent before the result (progress)
 * still leaves at once. A client that goes away cancels the stream, which ends the SDK's exchange.
 */
async function writeStream(
  body: ReadableStream<Uint8Array>,
  res: http.ServerResponse,
  gone: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  // The socket is corked, not the response: a corked response's `end()` would send the last chunk before
  // the ones it holds back; a corked socket's is sent whole by `end()`, which uncorks it.
  const socket = res.socket;
  let corked = false;
  const uncork = (): void => {
    if (!corked) return;
    corked = false;
    socket?.uncork();
  };
  const drained = (): Promise<void> =>
    new Promise((resolve) => {
      if (gone.aborted) {
        resolve();
        return;
      }
      const done = (): void => {
        res.off('drain', done);
        gone.removeEventListener('abort', done);
        resolve();
      };
      res.on('drain', done);
      gone.addEventListener('abort', done, { once: true });
    });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (gone.aborted) {
        await reader.cancel().catch(() => undefined);
        break;
      }
      if (!corked && socket !== null) {
        corked = true;
        socket.cork();
        setImmediate(uncork);
      }
      if (!res.write(value)) {
        uncork();
        await drained();
      }
    }
  } catch {
    // The stream failed mid-answer: the status is sent, so the answer can only end here.
  }
  corked = false;
  res.end();
}

/**
 * A body's bytes, read straight from its stream: the one chunk a JSON answer comes in is used as it is, where
 * `Response.arrayBuffer()` gathers it into a new buffer and copies that again (about 0.03 ms of CPU on a 40 KB
 * answer).
 */
async function wholeBody(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  const only = chunks.length === 1 ? chunks[0] : undefined;
  return only === undefined
    ? Buffer.concat(chunks, size)
    : Buffer.from(only.buffer, only.byteOffset, only.byteLength);
}

/** Writes a web `Response` to `res`: a JSON answer whole, in one packet with its length; a stream as it comes. */
async function writeResponse(response: Response, res: http.ServerResponse, gone: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (response.body === null) {
    res.writeHead(response.status, headers);
    res.end();
  } else if (isJson(response)) {
    const body = await wholeBody(response.body);
    headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, headers);
    res.end(body);
  } else {
    res.writeHead(response.status, headers);
    await writeStream(response.body, res, gone);
  }
}

/**
 * Serves a node request with a web-standard fetch handler, the body handed over already parsed. Unlike the
 * SDK's `toNodeHandler` it neither serializes the parsed body again nor builds a body stream for the
 * `Request` (the handler reads the parsed value, never the request's body), and it writes the answer in one
 * packet (see writeResponse): over a cheap tool call those were a third of the HTTP host's CPU.
 */
export function bridgeToFetch(
  handler: FetchHandler,
  onerror: (error: Error) => void,
): (req: McpRequest, res: http.ServerResponse) => Promise<void> {
  return async (req, res) => {
    // Closed before the whole answer was written: the client went away, and the handler's request is aborted.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    if (res.destroyed) gone.abort();
    let response: Response;
    try {
      const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers: requestHeaders(req),
        signal: gone.signal,
      });
      response = await handler.fetch(request, {
        ...(req.auth === undefined ? {} : { authInfo: req.auth }),
        ...(req.body === undefined ? {} : { parsedBody: req.body }),
      });
    } catch (error) {
      onerror(error instanceof Error ? error : new Error(String(error)));
      sendJsonRpcError(res, 500, 'Internal server error', JSONRPC_INTERNAL_ERROR, echoableId(req.body));
      return;
    }
    await writeResponse(response, res, gone.signal);
  };
}
