// The TfL mock: GET /Journey/JourneyResults/{from}/to/{to}, /StopPoint/{id}/Arrivals and
// /Line/{ids}/Arrivals/{stopPointId} (routes.ts), each under the same scenarios.
import { startLoopbackServer } from '../http.js';
import type { IncomingRequest, RecordedRequest } from '../http.js';
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';
import { resolvePick, ScenarioController } from '../scenario.js';
import type { ScenarioHandler, ScenarioOptions } from '../scenario.js';
import { apiError, notFoundError } from './errors.js';
import { matchTflRoute } from './routes.js';
import { forbiddenReply, TFL_SCENARIOS, tflScenarioReply } from './scenarios.js';
import type { TflScenarioName } from './scenarios.js';

export interface TflMockOptions {
  /** Clock for generated times (default: the system clock). */
  readonly now?: () => Date;
  /** Port on 127.0.0.1 (default 0: any free port). */
  readonly port?: number;
  /** When given, only these `app_key` values are accepted (others get 403); by default any non-empty key is. */
  readonly apiKeys?: readonly string[];
}

export interface TflMock {
  /** Base URL, e.g. `http://127.0.0.1:41234` (append `/Journey/JourneyResults/...` or `/StopPoint/.../Arrivals`). */
  readonly url: string;
  /** Every request received, in order (cleared by `reset()`). */
  readonly requests: readonly RecordedRequest[];
  /** Selects how the next requests are answered; see the README for the names. */
  scenario(spec: TflScenarioName | ScenarioHandler<TflScenarioName>, options?: ScenarioOptions): void;
  /** Back to the default scenario; forgets recorded requests. */
  reset(): void;
  /** Stops listening and drops every connection, hung ones included. */
  close(): Promise<void>;
}

export async function startTflMock(options: TflMockOptions = {}): Promise<TflMock> {
  const now = options.now ?? (() => new Date());
  const requests: RecordedRequest[] = [];
  const scenarios = new ScenarioController<TflScenarioName>('default', TFL_SCENARIOS);
  let delay: (ms: number) => Promise<void> = () => Promise.resolve();

  const handle = async (incoming: IncomingRequest): Promise<MockReply> => {
    const nowDate = now();
    const nowMs = nowDate.getTime();
    const route = matchTflRoute({
      url: incoming.url,
      rawUrl: incoming.rawUrl,
      query: incoming.query,
      nowMs,
    });
    const recorded: RecordedRequest = {
      endpoint: route?.endpoint ?? 'unknown',
      method: incoming.method,
      url: incoming.rawUrl,
      path: incoming.url.pathname,
      params: route?.params ?? {},
      query: incoming.query,
      headers: incoming.headers,
      body: incoming.body,
      receivedAt: nowDate,
    };
    requests.push(recorded);

    if (route === undefined) {
      const message = `No HTTP resource was found that matches the request URI 'https://api.tfl.gov.uk${incoming.url.pathname}'.`;
      return reply.json(404, notFoundError(incoming.rawUrl, message, nowMs));
    }
    if (incoming.method !== 'GET') {
      return reply.json(
        405,
        apiError(
          {
            status: 405,
            httpStatus: 'MethodNotAllowed',
            exceptionType: 'HttpResponseException',
            relativeUri: incoming.rawUrl,
            message: `The requested resource does not support http method '${incoming.method}'.`,
          },
          nowMs,
        ),
      );
    }
    const key = incoming.url.searchParams.get('app_key') ?? incoming.headers['app_key'] ?? '';
    if (key === '' || (options.apiKeys !== undefined && !options.apiKeys.includes(key))) {
      return forbiddenReply(incoming.rawUrl, nowMs);
    }

    const pick = scenarios.next();
    if (pick.entry.options.delayMs) await delay(pick.entry.options.delayMs);
    const resolved = await resolvePick(scenarios, pick, recorded, nowDate, 'default');
    if (typeof resolved !== 'string') return resolved;
    return tflScenarioReply(resolved, {
      normal: route.normal,
      body: route.body,
      ...(route.journey === undefined ? {} : { journey: route.journey }),
      notFoundMessage: route.notFoundMessage,
      rawUrl: incoming.rawUrl,
      nowMs,
      retryAfterSeconds: pick.entry.options.retryAfterSeconds ?? 1,
      ...(pick.entry.options.bodyBytes === undefined ? {} : { bodyBytes: pick.entry.options.bodyBytes }),
    });
  };

  const server = await startLoopbackServer(handle, options.port ?? 0);
  delay = (ms) => new Promise((resolve) => server.later(ms, resolve));

  return {
    url: server.url,
    requests,
    scenario(spec, scenarioOptions) {
      scenarios.set(spec, scenarioOptions);
    },
    reset() {
      scenarios.reset();
      requests.length = 0;
    },
    close: () => server.close(),
  };
}
