// The Digitransit mock: OTP routing (POST /routing/v2/{router}/gtfs/v1) and Pelias geocoding
// (GET /geocoding/v1/search|autocomplete) behind one API gateway.
import { peliasResponse } from '../geocoding/pelias.js';
import type { GraphQLRequestBody } from '../http.js';
import { startMock } from '../mock.js';
import type { Mock, MockOptions, MockRequest } from '../mock.js';
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';
import { ScenarioController } from '../scenario.js';
import type { ScenarioEntry, ScenarioHandler, ScenarioOptions } from '../scenario.js';
import { ROUTERS } from './data.js';
import { KEY_HEADER, keyRefusal, notFound } from './gateway.js';
import { failedExecution, readGraphQL, runGraphQL } from './graphql.js';
import type { OtpGraphQLResponse } from './graphql.js';
import { DIGITRANSIT_SCENARIOS, GEOCODING_SCENARIOS, scenarioData, transportReply } from './scenarios.js';
import type { DigitransitScenarioName, GeocodingScenarioName } from './scenarios.js';

export interface DigitransitMock extends Mock {
  /** `${url}/routing/v2/hsl/gtfs/v1` */
  readonly routingUrl: string;
  /** `${url}/geocoding/v1` (append `/search` or `/autocomplete`). */
  readonly geocodingUrl: string;
  /** Routing URL of another router: `hsl`, `finland` or `waltti`. */
  routingUrlFor(router: string): string;
  /** Selects how routing (GraphQL) requests are answered. */
  scenario(
    spec: DigitransitScenarioName | ScenarioHandler<DigitransitScenarioName>,
    options?: ScenarioOptions,
  ): void;
  /** Selects how geocoding requests are answered. */
  geocodingScenario(
    spec: GeocodingScenarioName | ScenarioHandler<GeocodingScenarioName>,
    options?: ScenarioOptions,
  ): void;
}

const ROUTING_PATH = /^\/routing\/v2\/([^/]+)\/gtfs\/v1\/?$/;
const GEOCODING_PATH = /^\/geocoding\/v1\/(search|autocomplete)\/?$/;

/** OTP's answer (HTTP 200) to a readable GraphQL request under a data scenario or `graphql-errors`. */
async function execute(
  name: DigitransitScenarioName,
  graphql: GraphQLRequestBody,
  router: string,
  now: Date,
  entry: ScenarioEntry<string>,
): Promise<OtpGraphQLResponse> {
  if (name === 'graphql-errors') return failedExecution(graphql.query, 'The routing request timed out');
  return runGraphQL(graphql, { now, router, ...scenarioData(name), nextPlanCall: () => entry.planCalls++ });
}

/** `apiKeys`: the accepted subscription keys (others get 401). */
export async function startDigitransitMock(options: MockOptions = {}): Promise<DigitransitMock> {
  const routing = new ScenarioController<DigitransitScenarioName>('default', DIGITRANSIT_SCENARIOS);
  const geocoding = new ScenarioController<GeocodingScenarioName>('default', GEOCODING_SCENARIOS);

  const answerRouting = async ({ incoming, now, record, choose }: MockRequest, router: string) => {
    const read = incoming.method === 'POST' ? readGraphQL(incoming) : undefined;
    const graphql = read && 'graphql' in read ? read.graphql : undefined;
    const recorded = record({ endpoint: 'routing', params: { router }, graphql });
    if (read === undefined) return notFound();
    const refusal = keyRefusal(incoming, options.apiKeys);
    if (refusal) return refusal;
    const { scenario, entry } = await choose(routing, recorded);
    if (typeof scenario !== 'string') return scenario;
    const fault = await transportReply(scenario, entry.options, async () =>
      graphql === undefined ? {} : execute('default', graphql, router, now, entry),
    );
    if (fault) return fault;
    return graphql === undefined
      ? (read as { error: MockReply }).error
      : reply.json(200, await execute(scenario, graphql, router, now, entry));
  };

  const answerGeocoding = async (
    { incoming, now, record, choose }: MockRequest,
    endpoint: 'search' | 'autocomplete',
  ) => {
    const recorded = record({ endpoint: `geocoding-${endpoint}`, params: {} });
    if (incoming.method !== 'GET') return notFound();
    const refusal = keyRefusal(incoming, options.apiKeys);
    if (refusal) return refusal;
    const { scenario, entry } = await choose(geocoding, recorded);
    if (typeof scenario !== 'string') return scenario;
    const answer = (empty: boolean) =>
      peliasResponse({
        endpoint,
        params: Object.fromEntries(
          Object.entries(incoming.query).filter(([name]) => name.toLowerCase() !== KEY_HEADER),
        ),
        acceptLanguage: incoming.headers['accept-language'],
        keyInQuery: incoming.url.searchParams.has(KEY_HEADER),
        nowMs: now.getTime(),
        empty,
      });
    const fault = await transportReply(scenario, entry.options, () => Promise.resolve(answer(false).body));
    if (fault) return fault;
    const { status, body } = answer(scenario === 'geocoding-empty');
    return reply.json(status, body);
  };

  const mock = await startMock(options, [routing, geocoding], async (request) => {
    const path = request.incoming.url.pathname;
    const router = ROUTING_PATH.exec(path)?.[1];
    if (router !== undefined && ROUTERS.includes(router)) return answerRouting(request, router);
    const geocodingEndpoint = GEOCODING_PATH.exec(path)?.[1];
    if (geocodingEndpoint === 'search' || geocodingEndpoint === 'autocomplete') {
      return answerGeocoding(request, geocodingEndpoint);
    }
    request.record({ endpoint: 'unknown', params: {} });
    return notFound();
  });
  return {
    ...mock,
    routingUrl: `${mock.url}/routing/v2/hsl/gtfs/v1`,
    geocodingUrl: `${mock.url}/geocoding/v1`,
    routingUrlFor: (router) => `${mock.url}/routing/v2/${router}/gtfs/v1`,
    scenario: (spec, scenarioOptions) => routing.set(spec, scenarioOptions),
    geocodingScenario: (spec, scenarioOptions) => geocoding.set(spec, scenarioOptions),
  };
}
