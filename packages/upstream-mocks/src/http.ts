// Loopback HTTP plumbing shared by the mocks: listen, read, record, answer, close without leaks.
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MockReply } from './reply.js';

/** The body of a GraphQL POST, as the client sent it. */
export interface GraphQLRequestBody {
  readonly query: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly operationName?: string;
}

/** One request as a mock received it. */
export interface RecordedRequest {
  /** Which route of the mock it hit. */
  readonly endpoint:
    | 'tfl-journey'
    | 'tfl-arrivals'
    | 'tfl-line-status'
    | 'tfl-stops'
    | 'routing'
    | 'geocoding-search'
    | 'geocoding-autocomplete'
    | 'unknown';
  readonly method: string;
  /** Path and query exactly as received (still percent-encoded). */
  readonly url: string;
  /** Path without the query, still percent-encoded. */
  readonly path: string;
  /** Decoded path parameters: `from`, `to`, `stopPointId`, `ids` (TfL), `router` (Digitransit). */
  readonly params: Readonly<Record<string, string>>;
  /** Decoded query parameters; a repeated parameter's values are joined with `,`. */
  readonly query: Readonly<Record<string, string>>;
  /** Lower-cased header names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The raw body text (empty for GET). */
  readonly body: string;
  /** The GraphQL request when the body was one (JSON `{query, variables, operationName}` or `application/graphql`). */
  readonly graphql?: GraphQLRequestBody;
  readonly receivedAt: Date;
}

export interface IncomingRequest {
  readonly method: string;
  readonly url: URL;
  readonly rawUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly query: Readonly<Record<string, string>>;
}

type RequestHandler = (request: IncomingRequest) => Promise<MockReply>;

interface LoopbackServer {
  readonly url: string;
  /** Resolves after `ms`, unless `close()` comes first (then never: the request it holds is dropped). */
  delay(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Header names (lower case, as Node gives them); repeated headers joined with `, `. */
function headerRecord(req: IncomingMessage): Record<string, string> {
  const present = Object.entries(req.headers).filter(([, value]) => value !== undefined);
  return Object.fromEntries(present.map(([name, value]) => [name, [value].flat().join(', ')]));
}

function queryRecord(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    const previous = out[name];
    out[name] = previous === undefined ? value : `${previous},${value}`;
  }
  return out;
}

/** Starts an HTTP server on 127.0.0.1 (port 0 = any free port). */
export async function startLoopbackServer(handler: RequestHandler, port = 0): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const closing = new AbortController();

  const server: Server = createServer((req, res) => {
    const socket = req.socket;
    void (async () => {
      try {
        const body = Buffer.concat(await req.toArray()).toString('utf8');
        const rawUrl = req.url ?? '/';
        const url = new URL(rawUrl, 'http://127.0.0.1');
        const answer = await handler({
          method: (req.method ?? 'GET').toUpperCase(),
          url,
          rawUrl,
          headers: headerRecord(req),
          body,
          query: queryRecord(url),
        });
        if (closing.signal.aborted || socket.destroyed) return;
        answer(res, socket);
      } catch (error) {
        console.error('[upstream-mocks] handler failed:', error);
        if (!res.headersSent && !socket.destroyed) {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('mock handler failed');
        }
      }
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('loopback server has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;

  return {
    url,
    delay: (ms) => sleep(ms, undefined, { signal: closing.signal }).catch(() => new Promise<never>(() => {})),
    async close() {
      if (closing.signal.aborted) return;
      closing.abort();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await done;
    },
  };
}
