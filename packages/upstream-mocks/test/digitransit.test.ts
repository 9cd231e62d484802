import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otpReply, projectOntoQuery, reply, startDigitransitMock } from '../src/index.js';
import type { DigitransitMock } from '../src/index.js';
import {
  ALIASED_STOPS,
  LEGACY_PLAN,
  STATION,
  STOP_DEFAULT_ARGS,
  STOP_DEPARTURES,
  STOP_NON_PICKUPS,
  STOP_SEARCH,
} from './documents.js';
import { arr, FIXED_NOW, FIXED_SERVICE_DAY, fixedClock, KEY, obj, postGraphQL } from './helpers.js';

let dt: DigitransitMock;

beforeEach(async () => {
  dt = await startDigitransitMock({ now: fixedClock });
});
afterEach(async () => {
  await dt.close();
});

async function departures(variables: Record<string, unknown>) {
  const { body } = await postGraphQL(dt, STOP_DEPARTURES, { id: 'HSL:1040129', ...variables });
  expect(body.errors).toBeUndefined();
  return arr(obj(obj(body.data)['stop'])['stoptimes']).map(obj);
}

describe('Digitransit mock: gateway', () => {
  it('answers 401 like the API gateway without a subscription key', async () => {
    const response = await fetch(dt.routingUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ stop(id: "HSL:1040129") { name } }' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      statusCode: 401,
      message:
        'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
    });
  });

  it('accepts the key as a query parameter; rejects keys outside apiKeys', async () => {
    const viaQuery = await postGraphQL(
      dt,
      '{ stop(id: "HSL:1040129") { name } }',
      {},
      {
        headers: { 'digitransit-subscription-key': '' },
        url: `${dt.routingUrl}?digitransit-subscription-key=${KEY}`,
      },
    );
    expect(viaQuery.status).toBe(200);
    const strict = await startDigitransitMock({ apiKeys: ['only-this'] });
    try {
      const response = await fetch(strict.routingUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'digitransit-subscription-key': 'other' },
        body: JSON.stringify({ query: '{ stop(id: "HSL:1040129") { name } }' }),
      });
      expect(response.status).toBe(401);
      expect(obj(await response.json())['message']).toMatch(/invalid subscription key/);
    } finally {
      await strict.close();
    }
  });

  it('404 for other methods, paths and routers; finland and waltti routers work', async () => {
    const get = await fetch(dt.routingUrl, { headers: { 'digitransit-subscription-key': KEY } });
    expect(get.status).toBe(404);
    expect(await get.json()).toEqual({ statusCode: 404, message: 'Resource not found' });
    const unknownRouter = await postGraphQL(
      dt,
      '{ stop(id: "HSL:1040129") { name } }',
      {},
      {
        url: dt.routingUrlFor('tampere'),
      },
    );
    expect(unknownRouter.status).toBe(404);
    for (const router of ['finland', 'waltti']) {
      const ok = await postGraphQL(
        dt,
        '{ stop(id: "HSL:1040129") { name } }',
        {},
        { url: dt.routingUrlFor(router) },
      );
      expect(ok.body.data).toEqual({ stop: { name: 'Arkadian puisto' } });
    }
  });

  it('415 without a JSON content type; application/graphql bodies are accepted', async () => {
    const noType = await fetch(dt.routingUrl, {
      method: 'POST',
      headers: { 'digitransit-subscription-key': KEY, 'content-type': 'text/plain' },
      body: '{"query":"{ stop(id: \\"HSL:1040129\\") { name } }"}',
    });
    expect(noType.status).toBe(415);
    const graphqlBody = await fetch(dt.routingUrl, {
      method: 'POST',
      headers: { 'digitransit-subscription-key': KEY, 'content-type': 'application/graphql' },
      body: '{ stop(id: "HSL:1040129") { code } }',
    });
    expect(await graphqlBody.json()).toEqual({ data: { stop: { code: 'H1232' } } });
  });

  it('400 as OTP answers it: no query, variables not an object', async () => {
    const send = (body: string) =>
      fetch(dt.routingUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'digitransit-subscription-key': KEY },
        body,
      });
    const noQuery = await send('{"variables":{}}');
    expect(noQuery.status).toBe(400);
    expect(await noQuery.text()).toBe('No query found in body');
    const badVariables = await send('{"query":"{ stop(id: \\"HSL:1\\") { name } }","variables":"[1,2"}');
    expect(badVariables.status).toBe(400);
    expect(await badVariables.text()).toBe('Variables must be a valid json object');
  });
});

describe('Digitransit mock: GraphQL validation and execution', () => {
  it('rejects an invalid document as OTP does: HTTP 200, errors only, ValidationError', async () => {
    const { status, body } = await postGraphQL(
      dt,
      '{\n  stop(id: "HSL:1040129") {\n    name\n    platfromCode\n  }\n}',
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      errors: [
        {
          message:
            "Validation error (FieldUndefined@[stop/platfromCode]) : Field 'platfromCode' in type 'Stop' is undefined",
          locations: [{ line: 4, column: 5 }],
          extensions: { classification: 'ValidationError' },
        },
      ],
    });
  });

  it('reports missing arguments, syntax errors and bad variables in graphql-java style', async () => {
    const missing = await postGraphQL(dt, '{ stop { name } }');
    expect(missing.body.errors?.[0]?.message).toBe(
      "Validation error (MissingFieldArgument@[stop]) : Missing field argument 'id'",
    );
    const syntax = await postGraphQL(dt, '{ stop(id: "HSL:1040129") { name }');
    expect(syntax.body.errors?.[0]).toMatchObject({
      message: "Invalid syntax with offending token '<EOF>' at line 1 column 35",
      extensions: { classification: 'InvalidSyntax' },
    });
    const noVariable = await postGraphQL(dt, STOP_DEPARTURES, {});
    expect(noVariable.body.data).toBeUndefined();
    expect(noVariable.body.errors?.[0]?.extensions.classification).toBe('ValidationError');
  });

  it('executes valid documents: aliases, unknown ids are null', async () => {
    const { body } = await postGraphQL(dt, ALIASED_STOPS);
    expect(body).toEqual({
      data: { arkadia: { title: 'Arkadian puisto', id: 'HSL:1040129' }, missing: null },
    });
  });

  it('treats an id without a feed as OTP does: a DataFetchingException and a null field', async () => {
    const { body } = await postGraphQL(dt, '{ stop(id: "1040129") { name } }');
    expect(body).toEqual({
      errors: [
        {
          message: 'Exception while fetching data (/stop) : invalid feed-scoped-id: 1040129',
          locations: [{ line: 1, column: 3 }],
          path: ['stop'],
          extensions: { classification: 'DataFetchingException' },
        },
      ],
      data: { stop: null },
    });
  });

  it('honours operationName', async () => {
    const query = 'query A { stop(id: "HSL:1040129") { name } } query B { stop(id: "HSL:2431252") { name } }';
    const { body } = await postGraphQL(dt, query, {}, { operationName: 'B' });
    expect(body.data).toEqual({ stop: { name: 'Latokaski' } });
  });
});

describe('Digitransit mock: stop departures', () => {
  it('serves times relative to the clock: serviceDay is Helsinki midnight, times are seconds since it', async () => {
    const rows = await departures({ n: 20, omitCanceled: false });
    const nowSeconds = FIXED_NOW.getTime() / 1000;
    for (const row of rows) {
      expect(row['serviceDay']).toBe(FIXED_SERVICE_DAY);
      const departs = FIXED_SERVICE_DAY + Number(row['realtimeDeparture']);
      expect(departs).toBeGreaterThanOrEqual(nowSeconds);
      expect(Number(row['realtimeDeparture']) - Number(row['scheduledDeparture'])).toBe(
        row['departureDelay'],
      );
    }
    const sorted = rows.map((r) => Number(r['realtimeDeparture']));
    expect(sorted).toEqual([...sorted].sort((a, b) => a - b));
  });

  it('mixes SCHEDULED, late, early, on-time and CANCELED departures', async () => {
    const rows = await departures({ n: 20, omitCanceled: false });
    const states = rows.map((r) => r['realtimeState']);
    expect(states).toContain('SCHEDULED');
    expect(states).toContain('CANCELED');
    const updated = rows
      .filter((r) => r['realtimeState'] === 'UPDATED')
      .map((r) => Number(r['departureDelay']));
    expect(updated.some((d) => d > 60)).toBe(true);
    expect(updated.some((d) => d < -60)).toBe(true);
    expect(updated.some((d) => Math.abs(d) <= 60)).toBe(true);
    for (const row of rows) expect(row['realtime']).toBe(row['realtimeState'] !== 'SCHEDULED');
    expect(obj(obj(rows[0]?.['trip'])['route'])['mode']).toBe('BUS');
  });

  it('omits cancellations by default (omitCanceled defaults to true) and limits to numberOfDepartures', async () => {
    const { body } = await postGraphQL(dt, STOP_DEFAULT_ARGS, { id: 'HSL:1040129' });
    const rows = arr(obj(obj(body.data)['stop'])['stoptimesWithoutPatterns']).map(obj);
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => r['realtimeState'])).not.toContain('CANCELED');
    expect(await departures({ n: 3, omitCanceled: false })).toHaveLength(3);
    const all = await departures({ n: 50, omitCanceled: false });
    const withoutCancelled = await departures({ n: 50, omitCanceled: true });
    expect(all.length - withoutCancelled.length).toBe(1);
    expect(all.length).toBeGreaterThan(10);
  });

  it('honours the time window (startTime, timeRange) and omitNonPickups', async () => {
    const start = FIXED_SERVICE_DAY + 9 * 3600;
    const window = await departures({ n: 50, omitCanceled: false, startTime: start, timeRange: 600 });
    expect(window.length).toBeGreaterThan(0);
    for (const row of window) {
      const t = FIXED_SERVICE_DAY + Number(row['realtimeDeparture']);
      expect(t).toBeGreaterThanOrEqual(start);
      expect(t).toBeLessThanOrEqual(start + 600);
    }
    const soon = await departures({ n: 50, omitCanceled: false, timeRange: 1200 });
    const later = await departures({ n: 50, omitCanceled: false });
    expect(soon.length).toBeLessThan(later.length);
    const { body } = await postGraphQL(dt, STOP_NON_PICKUPS, { id: 'HSL:1040129' });
    const stop = obj(obj(body.data)['stop']);
    expect(arr(stop['all']).map((r) => obj(r)['pickupType'])).toContain('NONE');
    expect(arr(stop['boarding']).map((r) => obj(r)['pickupType'])).not.toContain('NONE');
  });

  it('departures-scheduled and departures-empty scenarios', async () => {
    dt.scenario('departures-scheduled');
    const scheduled = await departures({ n: 20, omitCanceled: false });
    expect(new Set(scheduled.map((r) => r['realtimeState']))).toEqual(new Set(['SCHEDULED']));
    dt.scenario('departures-empty');
    expect(await departures({ n: 20, omitCanceled: false })).toEqual([]);
  });
});

describe('Digitransit mock: stop search', () => {
  it('stops(name) matches name prefixes; stopsByRadius is a connection sorted by distance', async () => {
    const { body } = await postGraphQL(dt, STOP_SEARCH, {
      name: 'pasila',
      lat: 60.1719,
      lon: 24.9314,
      radius: 1500,
    });
    const data = obj(body.data);
    expect(arr(data['stops']).map((s) => obj(s)['gtfsId'])).toEqual(['HSL:1174403', 'HSL:1174502']);
    const connection = obj(data['stopsByRadius']);
    const edges = arr(connection['edges']).map(obj);
    expect(edges).toHaveLength(3);
    const distances = edges.map((e) => Number(obj(e['node'])['distance']));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(obj(obj(edges[0]?.['node'])['stop'])['gtfsId']).toBe('HSL:1040129');
    expect(obj(connection['pageInfo'])['hasNextPage']).toBe(true);
  });

  it('station(id) returns the parent station with its platforms', async () => {
    const { body } = await postGraphQL(dt, STATION, { id: 'HSL:1000202' });
    expect(body.data).toEqual({
      station: {
        gtfsId: 'HSL:1000202',
        name: 'Helsinki',
        locationType: 'STATION',
        stops: [{ gtfsId: 'HSL:1020502', platformCode: '9' }],
      },
    });
  });
});

describe('Digitransit mock: transport scenarios', () => {
  const ask = () => postGraphQL(dt, '{ stop(id: "HSL:1040129") { name } }');

  it('graphql-errors: HTTP 200, errors[] and data null', async () => {
    dt.scenario('graphql-errors');
    const { status, body } = await ask();
    expect(status).toBe(200);
    expect(body.data).toBeNull();
    expect(body.errors?.[0]).toMatchObject({
      path: ['stop'],
      extensions: { classification: 'DataFetchingException' },
    });
  });

  it('429 with and without Retry-After, 500, 502, 503, 401, 403', async () => {
    const expectations: [Parameters<DigitransitMock['scenario']>[0], number][] = [
      ['rate-limited', 429],
      ['rate-limited-no-retry-after', 429],
      ['server-error', 500],
      ['bad-gateway', 502],
      ['service-unavailable', 503],
      ['unauthorized', 401],
      ['forbidden', 403],
    ];
    for (const [scenario, status] of expectations) {
      dt.scenario(scenario, { times: 1, retryAfterSeconds: 3 });
      const response = await fetch(dt.routingUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'digitransit-subscription-key': KEY },
        body: JSON.stringify({ query: '{ stop(id: "HSL:1040129") { name } }' }),
      });
      expect(response.status).toBe(status);
      expect(response.headers.get('retry-after')).toBe(scenario === 'rate-limited' ? '3' : null);
      await response.text();
    }
    expect((await ask()).status).toBe(200);
  });

  it('malformed JSON, reset and hang', async () => {
    dt.scenario('malformed-json', { times: 1 });
    const malformed = await fetch(dt.routingUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'digitransit-subscription-key': KEY },
      body: JSON.stringify({ query: '{ stop(id: "HSL:1040129") { name code lat lon } }' }),
    });
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow();

    dt.scenario('reset', { times: 1 });
    await expect(ask()).rejects.toThrow();

    dt.scenario('hang');
    const pending = ask().then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await dt.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBe('failed');
  });

  it('custom handlers see the recorded GraphQL request', async () => {
    dt.scenario((request) =>
      request.graphql?.variables['id'] === 'HSL:2431252' ? reply.json(429, {}) : undefined,
    );
    expect((await postGraphQL(dt, STOP_DEPARTURES, { id: 'HSL:1040129', n: 1 })).status).toBe(200);
    expect((await postGraphQL(dt, STOP_DEPARTURES, { id: 'HSL:2431252', n: 1 })).status).toBe(429);
  });
});

describe('Digitransit mock: recording', () => {
  it('records the parsed GraphQL body, headers and router', async () => {
    await postGraphQL(dt, STOP_DEPARTURES, { id: 'HSL:1040129', n: 2 }, { operationName: 'StopDepartures' });
    await postGraphQL(dt, LEGACY_PLAN);
    expect(dt.requests).toHaveLength(2);
    expect(dt.requests[0]).toMatchObject({
      endpoint: 'routing',
      method: 'POST',
      params: { router: 'hsl' },
      graphql: {
        query: STOP_DEPARTURES,
        variables: { id: 'HSL:1040129', n: 2 },
        operationName: 'StopDepartures',
      },
    });
    expect(dt.requests[0]?.headers['digitransit-subscription-key']).toBe(KEY);
    dt.reset();
    expect(dt.requests).toHaveLength(0);
  });
});

describe('Digitransit mock: canned data projected onto the query (otpReply)', () => {
  const QUERY = `query Stop($id: String!, $withCode: Boolean!) {
    stop(id: $id) { name code @include(if: $withCode) platformCode routes { shortName } }
  }`;
  const CANNED = {
    stop: {
      gtfsId: 'HSL:1040129',
      name: 'Rautatientori',
      code: 'H2004',
      routes: [{ shortName: '55', mode: 'BUS' }],
    },
  };

  it('drops what the query does not select, honours @include, and sends null for what the data lacks', async () => {
    dt.scenario((request) => otpReply(request, { data: CANNED }));
    const { status, body } = await postGraphQL(dt, QUERY, { id: 'HSL:1040129', withCode: false });
    expect(status).toBe(200);
    expect(body).toEqual({
      data: { stop: { name: 'Rautatientori', platformCode: null, routes: [{ shortName: '55' }] } },
    });
    const withCode = await postGraphQL(dt, QUERY, { id: 'HSL:1040129', withCode: true });
    expect(obj(obj(withCode.body.data)['stop'])['code']).toBe('H2004');
  });

  it("answers a query OTP would refuse with OTP's validation errors, not the canned data", async () => {
    dt.scenario((request) => otpReply(request, { data: CANNED }));
    const { body } = await postGraphQL(dt, '{ stop(id: "HSL:1040129") { name platfromCode } }');
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/FieldUndefined@\[stop\/platfromCode\]/);
  });

  it('keeps the errors given beside the data', async () => {
    const errors = [
      {
        message: 'partial',
        path: ['stop', 'routes'],
        extensions: { classification: 'DataFetchingException' },
      },
    ];
    dt.scenario((request) => otpReply(request, { data: CANNED, errors }));
    const { body } = await postGraphQL(dt, QUERY, { id: 'HSL:1040129', withCode: false });
    expect(body.errors).toEqual(errors);
  });

  it('refuses data OTP could not send for the query (a non-null field missing, an unknown enum value)', () => {
    const graphql = { query: QUERY, variables: { id: 'x', withCode: false } };
    expect(() => projectOntoQuery(graphql, { stop: { code: 'H2004' } })).toThrow(
      /stop\.name: Cannot return null for non-nullable field Stop\.name/,
    );
    const modes = { query: '{ stop(id: "x") { vehicleMode } }', variables: {} };
    expect(() => projectOntoQuery(modes, { stop: { vehicleMode: 'HOVERCRAFT' } })).toThrow(
      /stop\.vehicleMode/,
    );
    expect(projectOntoQuery(modes, { stop: { vehicleMode: 'TRAM' } })).toEqual({
      data: { stop: { vehicleMode: 'TRAM' } },
    });
    expect(() => projectOntoQuery(undefined, {})).toThrow(/no GraphQL query/);
  });
});
