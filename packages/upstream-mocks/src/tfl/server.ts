// The TfL mock: JourneyResults, arrivals, line status and stop points (routes.ts), each under the same scenarios.
import { keyCheck, startMock } from '../mock.js';
import type { Mock, MockOptions } from '../mock.js';
import { ScenarioController } from '../scenario.js';
import type { ScenarioHandler, ScenarioOptions } from '../scenario.js';
import { apiErrorReply, forbiddenReply } from './errors.js';
import { matchTflRoute } from './routes.js';
import { TFL_SCENARIOS, tflScenarioReply } from './scenarios.js';
import type { TflScenarioName } from './scenarios.js';

export interface TflMock extends Mock {
  /** Selects how the next requests are answered; see the README for the names. */
  scenario(spec: TflScenarioName | ScenarioHandler<TflScenarioName>, options?: ScenarioOptions): void;
}

/** `apiKeys`: the accepted `app_key` values (others get 403). */
export async function startTflMock(options: MockOptions = {}): Promise<TflMock> {
  const scenarios = new ScenarioController<TflScenarioName>('default', TFL_SCENARIOS);
  const mock = await startMock(options, [scenarios], async ({ incoming, now, record, choose }) => {
    const { rawUrl, method } = incoming;
    const nowMs = now.getTime();
    const route = matchTflRoute({ url: incoming.url, query: incoming.query, nowMs });
    const recorded = record({ endpoint: route?.endpoint ?? 'unknown', params: route?.params ?? {} });
    if (route === undefined) {
      const message = `No HTTP resource was found that matches the request URI 'https://api.tfl.gov.uk${incoming.url.pathname}'.`;
      return apiErrorReply(404, rawUrl, message, nowMs);
    }
    if (method !== 'GET') {
      const message = `The requested resource does not support http method '${method}'.`;
      return apiErrorReply(405, rawUrl, message, nowMs);
    }
    const key = incoming.url.searchParams.get('app_key') ?? incoming.headers['app_key'];
    if (keyCheck(key || undefined, options.apiKeys) !== 'ok') return forbiddenReply(rawUrl, nowMs);

    const { scenario, entry } = await choose(scenarios, recorded);
    if (typeof scenario !== 'string') return scenario;
    return tflScenarioReply(scenario, { ...route, rawUrl, nowMs, options: entry.options });
  });
  return { ...mock, scenario: (spec, scenarioOptions) => scenarios.set(spec, scenarioOptions) };
}
