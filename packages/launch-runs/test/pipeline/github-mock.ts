import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface MockAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The answer is sent once this settles (a request the test keeps in flight). */
  wait?: Promise<unknown>;
}

/**
 * A loopback stand-in for GitHub's pulls endpoint: answers POST and GET /repos/{owner}/{repo}/pulls from
 * queues the test fills (a string body is sent as it is), and records every request (headers included).
 */
export class GithubPullsMock {
  readonly requests: RecordedRequest[] = [];
  readonly posts: MockAnswer[] = [];
  readonly gets: MockAnswer[] = [];
  /** Called with each request as it arrives, before it is answered. */
  onRequest: ((request: RecordedRequest) => void) | undefined;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const recorded = {
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body,
        };
        this.requests.push(recorded);
        const queue = request.method === 'POST' ? this.posts : this.gets;
        const answer = queue.shift() ?? { status: 500, body: { message: 'no answer queued' } };
        this.onRequest?.(recorded);
        void Promise.resolve(answer.wait).then(() => {
          response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
          response.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server === undefined ? resolve() : this.server.close(() => resolve()),
    );
  }
}
