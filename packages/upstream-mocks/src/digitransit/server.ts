// The Digitransit mock: OTP routing (POST /routing/v2/{router}/gtfs/v1) and Pelias geocoding
// (GET /geocoding/v1/search|autocomplete) behind one API gateway.
import { peliasResponse } from '../geocoding/pelias.js';
import { startLoopbackServer } from '../http.js';
import type { GraphQLRequestBody, IncomingRequest, RecordedRequest } from '../http.js';
import { reply } from '../reply.js';
import type { MockReply } from '../reply.js';
import { resolvePick, ScenarioController } from '../scenario.js';
import type { ScenarioEntry, ScenarioHandler, ScenarioOptions } from '../scenario.js';
import type { ResolverContext } from './context.js';
import { ROUTERS } from './data.js';
import { checkKey, invalidKey, KEY_HEADER, missingKey, notFound, subscriptionKey } from './gateway.js';
import { failedExecution, runGraphQL } from './graphql.js';
import {
  DIGITRANSIT_SCENARIOS,
  dataVariants,
  GEOCODING_SCENARIOS,
  isDataScenario,
  transportReply,
} from './scenarios.js';
import type { DigitransitScenarioName, GeocodingScenarioName, TransportScenarioName } from './scenarios.js';

export interface DigitransitMockOptions {
  /** Clock for generated times (default: the system clock). */
  readonly now?: () => Date;
  /** Port on 127.0.0.1 (default 0: any free port). */
  readonly port?: number;
  /** When given, only these subscription keys are accepted (others get 401); by default any non-empty key is. */
  readonly apiKeys?: readonly string[];
}

export interface DigitransitMock {
  /** Base URL, e.g. `http://127.0.0.1:41235`. */
  readonly url: string;
  /** `${url}/routing/v2/hsl/gtfs/v1` */
  readonly routingUrl: string;
  /** `${url}/geocoding/v1` (append `/search` or `/autocomplete`). */
  readonly geocodingUrl: string;
  /** Routing URL of another router: `hsl`, `finland` or `waltti`. */
  routingUrlFor(router: string): string;
  /** Every request received (routing and geocoding), in order (cleared by `reset()`). */
  readonly requests: readonly RecordedRequest[];
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
  /** Back to the default scenarios; forgets recorded requests. */
  reset(): void;
  /** Stops listening and drops every connection, hung ones included. */
  close(): Promise<void>;
}

const ROUTING_PATH = /^\/routing\/v2\/([^/]+)\/gtfs\/v1\/?$/;
const GEOCODING_PATH = /^\/geocoding\/v1\/(search|autocomplete)\/?$/;

type BodyRead = { readonly graphql: GraphQLRequestBody } | { readonly error: MockReply };

function readGraphQL(incoming: IncomingRequest): BodyRead {
  const type = (incoming.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/graphql')) return { graphql: { query: incoming.body, variables: {} } };
  if (!type.startsWith('application/json')) return { error: reply.text(415, '', undefined) };
  let parsed: unknown;
  try {
    parsed = incoming.body.trim() === '' ? null : JSON.parse(incoming.body);
  } catch (error) {
    return { error: reply.text(400, `Unable to process JSON: ${(error as Error).message}`) };
  }
  const record =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  if (!record || !('query' in record)) return { error: reply.text(400, 'No query found in body') };
  let variables: Record<string, unknown> = {};
  const raw = record['variables'];
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    variables = raw as Record<string, unknown>;
  } else if (typeof raw === 'string' && raw !== '') {
    try {
      const fromString: unknown = JSON.parse(raw);
      if (fromString === null || typeof fromString !== 'object' || Array.isArray(fromString))
        throw new Error('not an object');
      variables = fromString as Record<string, unknown>;
    } catch {
      return { error: reply.text(400, 'Variables must be a valid json object') };
    }
  }
  return {
    graphql: {
      query: String(record['query']),
      variables,
      ...(typeof record['operationName'] === 'string' ? { operationName: record['operationName'] } : {}),
    },
  };
}

function planCounter(entry: Pick<ScenarioEntry<string>, 'counters'>): () => number {
  return () => {
    const n = entry.counters.get('plan') ?? 0;
    entry.counters.set('plan', n + 1);
    return n;
  };
}

function isTransport(name: string): name is TransportScenarioName {
  return !isDataScenario(name) && name !== 'graphql-errors' && name !== 'geocoding-empty';
}

export async function startDigitransitMock(options: DigitransitMockOptions = {}): Promise<DigitransitMock> {
  const now = options.now ?? (() => new Date());
  const requests: RecordedRequest[] = [];
  const routing = new ScenarioController<DigitransitScenarioName>('default', DIGITRANSIT_SCENARIOS);
  const geocoding = new ScenarioController<GeocodingScenarioName>('default', GEOCODING_SCENARIOS);
  let delay: (ms: number) => Promise<void> = () => Promise.resolve();

  const executeWith = async (
    name: DigitransitScenarioName,
    graphql: GraphQLRequestBody,
    router: string,
    nowDate: Date,
    entry: Pick<ScenarioEntry<string>, 'counters'>,
  ): Promise<MockReply> => {
    if (name === 'graphql-errors') {
      return reply.json(200, failedExecution(graphql.query, 'The routing request timed out'));
    }
    const variants = isDataScenario(name) ? dataVariants(name) : dataVariants('default');
    const context: ResolverContext = { now: nowDate, router, ...variants, nextPlanCall: planCounter(entry) };
    return reply.json(200, await runGraphQL(graphql, context));
  };

  const handleRouting = async (
    incoming: IncomingRequest,
    recorded: RecordedRequest,
    router: string,
    read: BodyRead | undefined,
  ): Promise<MockReply> => {
    const nowDate = recorded.receivedAt;
    if (incoming.method !== 'POST' || read === undefined) return notFound();
    const key = checkKey(subscriptionKey(incoming.headers, incoming.url), options.apiKeys);
    if (key !== 'ok') return key === 'missing' ? missingKey() : invalidKey();

    const pick = routing.next();
    if (pick.entry.options.delayMs) await delay(pick.entry.options.delayMs);
    const resolved = await resolvePick(routing, pick, recorded, nowDate, 'default');
    if (typeof resolved !== 'string') return resolved;
    if (isTransport(resolved)) {
      return transportReply(resolved, pick.entry.options, async () => {
        if ('error' in read) return {};
        const normal = await executeWith('default', read.graphql, router, nowDate, pick.entry);
        return normal.kind === 'json' ? normal.body : {};
      });
    }
    if ('error' in read) return read.error;
    return executeWith(resolved, read.graphql, router, nowDate, pick.entry);
  };

  const handleGeocoding = async (
    incoming: IncomingRequest,
    recorded: RecordedRequest,
    endpoint: 'search' | 'autocomplete',
  ): Promise<MockReply> => {
    const nowDate = recorded.receivedAt;
    if (incoming.method !== 'GET') return notFound();
    const rawKey = subscriptionKey(incoming.headers, incoming.url);
    const key = checkKey(rawKey, options.apiKeys);
    if (key !== 'ok') return key === 'missing' ? missingKey() : invalidKey();

    const pick = geocoding.next();
    if (pick.entry.options.delayMs) await delay(pick.entry.options.delayMs);
    const resolved = await resolvePick(geocoding, pick, recorded, nowDate, 'default');
    if (typeof resolved !== 'string') return resolved;
    const params = Object.fromEntries(
      Object.entries(incoming.query).filter(([name]) => name.toLowerCase() !== KEY_HEADER),
    );
    const answer = (empty: boolean): { status: number; body: Record<string, unknown> } =>
      peliasResponse({
        endpoint,
        params,
        acceptLanguage: incoming.headers['accept-language'],
        keyInQuery: incoming.url.searchParams.has(KEY_HEADER),
        nowMs: nowDate.getTime(),
        empty,
      });
    if (resolved !== 'default' && resolved !== 'geocoding-empty') {
      return transportReply(resolved, pick.entry.options, () => Promise.resolve(answer(false).body));
    }
    const { status, body } = answer(resolved === 'geocoding-empty');
    return reply.json(status, body);
  };

  const handle = async (incoming: IncomingRequest): Promise<MockReply> => {
    const nowDate = now();
    const path = incoming.url.pathname;
    const routingMatch = ROUTING_PATH.exec(path);
    const router = routingMatch?.[1] ?? '';
    const geocodingMatch = GEOCODING_PATH.exec(path);
    const isRouting = routingMatch !== null && ROUTERS.includes(router);
    const read = isRouting && incoming.method === 'POST' ? readGraphQL(incoming) : undefined;
    const recorded: RecordedRequest = {
      endpoint: isRouting
        ? 'routing'
        : geocodingMatch?.[1] === 'search'
          ? 'geocoding-search'
          : geocodingMatch?.[1] === 'autocomplete'
            ? 'geocoding-autocomplete'
            : 'unknown',
      method: incoming.method,
      url: incoming.rawUrl,
      path,
      params: isRouting ? { router } : {},
      query: incoming.query,
      headers: incoming.headers,
      body: incoming.body,
      ...(read && 'graphql' in read ? { graphql: read.graphql } : {}),
      receivedAt: nowDate,
    };
    requests.push(recorded);
    if (isRouting) return handleRouting(incoming, recorded, router, read);
    if (geocodingMatch)
      return handleGeocoding(incoming, recorded, geocodingMatch[1] === 'search' ? 'search' : 'autocomplete');
    return notFound();
  };

  const server = await startLoopbackServer(handle, options.port ?? 0);
  delay = (ms) => new Promise((resolve) => server.later(ms, resolve));

  return {
    url: server.url,
    routingUrl: `${server.url}/routing/v2/hsl/gtfs/v1`,
    geocodingUrl: `${server.url}/geocoding/v1`,
    routingUrlFor: (router) => `${server.url}/routing/v2/${router}/gtfs/v1`,
    requests,
    scenario(spec, scenarioOptions) {
      routing.set(spec, scenarioOptions);
    },
    geocodingScenario(spec, scenarioOptions) {
      geocoding.set(spec, scenarioOptions);
    },
    reset() {
      routing.reset();
      geocoding.reset();
      requests.length = 0;
    },
    close: () => server.close(),
  };
}
