// What both mocks are made of: a clock, a log of the requests received, scenario selections and a loopback
// server; each mock adds its routes.
import { startLoopbackServer } from './http.js';
import type { IncomingRequest, RecordedRequest } from './http.js';
import type { MockReply } from './reply.js';
import type { Chosen, ScenarioController } from './scenario.js';

export interface MockOptions {
  /** Clock for generated times (default: the system clock). */
  readonly now?: () => Date;
  /** Port on 127.0.0.1 (default 0: any free port). */
  readonly port?: number;
  /** When given, only these keys are accepted; by default any non-empty key is. */
  readonly apiKeys?: readonly string[];
}

export interface Mock {
  readonly url: string;
  /** Every request received, in order (cleared by `reset()`). */
  readonly requests: readonly RecordedRequest[];
  /** Back to the default scenarios; forgets recorded requests. */
  reset(): void;
  /** Stops listening and drops every connection, hung ones included. */
  close(): Promise<void>;
}

/** What a mock's router gets besides the request. */
export interface MockRequest {
  readonly incoming: IncomingRequest;
  readonly now: Date;
  /** Logs the request as the route matched it. */
  record(route: Pick<RecordedRequest, 'endpoint' | 'params' | 'graphql'>): RecordedRequest;
  /** The next scenario of a selection, once its delay has passed. */
  choose<Name extends string>(
    selection: ScenarioController<Name>,
    recorded: RecordedRequest,
  ): Promise<Chosen<Name>>;
}

export async function startMock(
  options: MockOptions,
  selections: readonly ScenarioController<string>[],
  route: (request: MockRequest) => Promise<MockReply>,
): Promise<Mock> {
  const clock = options.now ?? (() => new Date());
  const requests: RecordedRequest[] = [];
  const server = await startLoopbackServer((incoming) => {
    const now = clock();
    return route({
      incoming,
      now,
      record({ endpoint, params, graphql }) {
        const recorded: RecordedRequest = {
          endpoint,
          method: incoming.method,
          url: incoming.rawUrl,
          path: incoming.url.pathname,
          params,
          query: incoming.query,
          headers: incoming.headers,
          body: incoming.body,
          ...(graphql === undefined ? {} : { graphql }),
          receivedAt: now,
        };
        requests.push(recorded);
        return recorded;
      },
      choose: (selection, recorded) => selection.choose(recorded, now, (ms) => server.delay(ms)),
    });
  }, options.port ?? 0);

  return {
    url: server.url,
    requests,
    reset() {
      for (const selection of selections) selection.reset();
      requests.length = 0;
    },
    close: () => server.close(),
  };
}

/** Whether a request's key is accepted: present, and one of `accepted` when the mock was given a list. */
export function keyCheck(key: string | undefined, accepted: readonly string[] | undefined) {
  if (key === undefined) return 'missing';
  return accepted !== undefined && !accepted.includes(key) ? 'invalid' : 'ok';
}
