import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the mock answers the next pull-request creation (a queue; `default` creates the pull request). */
export type GithubFault =
  'server-error' | 'unauthorized' | 'rate-limited' | 'echo-token-422' | 'already-exists' | 'reset';

export interface GithubRequestRecord {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface GithubMock {
  /** The API base URL to put in `pr.github.api_base_url`. */
  url: string;
  readonly requests: readonly GithubRequestRecord[];
  /** Pull requests created so far (one per distinct head branch). */
  readonly pulls: ReadonlyMap<string, { number: number; html_url: string; head: string }>;
  /** The next `times` pull-request creations answer with `fault`. */
  fault(fault: GithubFault, times?: number): void;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * A loopback stand-in for the part of the GitHub REST API the launch commit service uses:
 * `POST /repos/{owner}/{repo}/pulls` (201 with `html_url` and `number`; 422 "A pull request already exists"
 * for a head branch that has one) and `GET /repos/{owner}/{repo}/pulls?head=owner:branch`. Faults are queued
 * per creation; `echo-token-422` answers with the caller's Authorization header inside the error message, the
 * way a misbehaving proxy might, to prove the token is redacted before it reaches a client.
 */
export async function startGithubMock(): Promise<GithubMock> {
  const requests: GithubRequestRecord[] = [];
  const pulls = new Map<string, { number: number; html_url: string; head: string }>();
  const faults: GithubFault[] = [];
  let base = '';

  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://localhost');
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname + url.search,
        headers: req.headers,
        body,
      });
      const match = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(url.pathname);
      if (match === null) return json(res, 404, { message: 'Not Found' });
      const [, owner, repo] = match;
      if (req.method === 'GET') {
        const head = url.searchParams.get('head') ?? '';
        const branch = head.includes(':') ? head.slice(head.indexOf(':') + 1) : head;
        const pull = pulls.get(branch);
        return json(res, 200, pull === undefined ? [] : [pull]);
      }
      if (req.method !== 'POST') return json(res, 405, { message: 'Method Not Allowed' });
      const fault = faults.shift();
      switch (fault) {
        case 'server-error':
          return json(res, 502, { message: 'Server Error' });
        case 'unauthorized':
          return json(res, 401, { message: 'Bad credentials' });
        case 'rate-limited':
          return json(
            res,
            403,
            { message: 'API rate limit exceeded' },
            {
              'x-ratelimit-remaining': '0',
              'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
            },
          );
        case 'echo-token-422':
          return json(res, 422, {
            message: `Validation Failed for ${req.headers.authorization ?? ''}`,
            errors: [{ message: `token ${String(req.headers.authorization ?? '').replace(/^Bearer /, '')}` }],
          });
        case 'reset':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"html_url": "');
          req.socket.destroy();
          return;
        default:
          break;
      }
      let parsed: { head?: unknown };
      try {
        parsed = JSON.parse(body) as { head?: unknown };
      } catch {
        return json(res, 400, { message: 'Problems parsing JSON' });
      }
      const head = typeof parsed.head === 'string' ? parsed.head : '';
      if (fault === 'already-exists' || pulls.has(head)) {
        return json(res, 422, {
          message: 'Validation Failed',
          errors: [{ message: `A pull request already exists for ${owner}:${head}.` }],
        });
      }
      const number = pulls.size + 1;
      const pull = { number, html_url: `${base}/${owner}/${repo}/pull/${number}`, head };
      pulls.set(head, pull);
      return json(res, 201, pull);
    })().catch(() => {
      if (!res.headersSent) json(res, 500, { message: 'mock failure' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    requests,
    pulls,
    fault(fault, times = 1) {
      for (let i = 0; i < times; i += 1) faults.push(fault);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
