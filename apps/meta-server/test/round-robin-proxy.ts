import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the proxy passed it on. */
export interface ProxiedRequest {
  /** Index of the backend that served it. */
  backend: number;
  method: string;
  path: string;
  /** The request body as text (JSON-RPC for MCP). */
  body: string;
  /** The status the backend answered with (502 when it could not be reached). */
  status: number;
}

export interface RoundRobinProxy {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** Where requests go, in turn; set once the backends listen (they may need the proxy's port first). */
  backends: string[];
  /** Every request, in the order it arrived. */
  readonly log: readonly ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy that sends each request to the next backend in turn (a stand-in for a load balancer
 * in front of several server processes; a test helper, not a product feature). It forwards method, path,
 * headers (Host included, as a proxy that preserves it does) and body, streams the answer back, and records
 * which backend served what.
 */
export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  const log: ProxiedRequest[] = [];
  const proxy: RoundRobinProxy = { origin: '', backends: [], log, close: async () => {} };
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // The backends may change between requests (a replica killed, another started).
      const backend = next % proxy.backends.length;
      next = backend + 1;
      const body = Buffer.concat(chunks);
      const entry: ProxiedRequest = {
        backend,
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        body: body.toString('utf8'),
        status: 0,
      };
      log.push(entry);
      const target = new URL(req.url ?? '/', proxy.backends[backend]);
      const upstream = http.request(
        target,
        { method: req.method, headers: req.headers, agent: false },
        (answer) => {
          entry.status = answer.statusCode ?? 0;
          res.writeHead(entry.status, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        entry.status = 502;
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return proxy;
}
