import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface SeenRequest {
  method: string;
  /** Path and query as the server received it. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** True when the client went away before the response was finished. */
  aborted: boolean;
}

export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  seen: SeenRequest,
  index: number,
) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on a loopback port chosen by the OS; every request is recorded. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        aborted: false,
      };
      requests.push(seen);
      res.on('close', () => {
        if (!res.writableFinished) seen.aborted = true;
      });
      void Promise.resolve(handler(req, res, seen, requests.length - 1)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `serve(handler)` for one test file: each server it starts is closed after the test that started it. */
export function serversClosedAfterEach(): (handler: Handler) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (handler) => {
    const server = await startServer(handler);
    servers.push(server);
    return server;
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
