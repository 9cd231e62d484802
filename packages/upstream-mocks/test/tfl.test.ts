import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startTflMock } from '../src/index.js';
import type { TflMock, TflScenarioName } from '../src/index.js';
import { arr, fixedClock, obj } from './helpers.js';

const LOCAL_NO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

let tfl: TflMock;
const journeyUrl = (from = '1000129', to = '1000254', query = 'app_key=secret-key-123'): string =>
  `${tfl.url}/Journey/JourneyResults/${from}/to/${to}${query ? `?${query}` : ''}`;

async function getJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json(), headers: response.headers };
}

beforeEach(async () => {
  tfl = await startTflMock({ now: fixedClock });
});
afterEach(async () => {
  await tfl.close();
});

describe('TfL mock: keys', () => {
  it('answers 403 with an ApiError body without app_key', async () => {
    const { status, body } = await getJson(journeyUrl('1000129', '1000254', ''));
    expect(status).toBe(403);
    expect(obj(body)['$type']).toBe('Tfl.Api.Presentation.Entities.ApiError, Tfl.Api.Presentation.Entities');
    expect(obj(body)['httpStatusCode']).toBe(403);
  });

  it('accepts the key as a header too', async () => {
    const { status } = await getJson(journeyUrl('1000129', '1000254', ''), { headers: { app_key: 'k' } });
    expect(status).toBe(200);
  });

  it('rejects keys outside apiKeys when given', async () => {
    const strict = await startTflMock({ apiKeys: ['good'] });
    try {
      const bad = await fetch(`${strict.url}/Journey/JourneyResults/a/to/b?app_key=bad`);
      const good = await fetch(`${strict.url}/Journey/JourneyResults/a/to/b?app_key=good`);
      expect(bad.status).toBe(403);
      expect(good.status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    expect((await fetch(`${tfl.url}/Line/victoria/Route?app_key=k`)).status).toBe(404);
    expect((await fetch(journeyUrl(), { method: 'POST' })).status).toBe(405);
  });
});

describe('TfL mock: itineraries (default)', () => {
  it('returns a realistic ItineraryResult', async () => {
    const { status, body, headers } = await getJson(journeyUrl());
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    const result = obj(body);
    expect(result['$type']).toContain('JourneyPlanner.ItineraryResult');
    const journeys = arr(result['journeys']).map(obj);
    expect(journeys.length).toBeGreaterThan(5);
    const durations = journeys.map((j) => j['duration']);
    expect(durations).toEqual([34, 27, 41, 27, 52, 30, 38]);
    for (const journey of journeys) {
      expect(journey['startDateTime']).toMatch(LOCAL_NO_OFFSET);
      expect(journey['arrivalDateTime']).toMatch(LOCAL_NO_OFFSET);
      const legs = arr(journey['legs']).map(obj);
      expect(legs.reduce((sum, leg) => sum + Number(leg['duration']), 0)).toBe(journey['duration']);
      for (const leg of legs) {
        expect(obj(leg['instruction'])['summary']).toEqual(expect.any(String));
        expect(obj(leg['mode'])['id']).toEqual(expect.any(String));
        expect(arr(leg['routeOptions']).length).toBeGreaterThan(0);
        expect(obj(leg['departurePoint'])['commonName']).toEqual(expect.any(String));
        expect(typeof leg['isDisrupted']).toBe('boolean');
        if (obj(leg['mode'])['id'] === 'walking') expect(leg['distance']).toEqual(expect.any(Number));
      }
    }
    const withFare = journeys.filter((j) => 'fare' in j);
    expect(withFare.length).toBeGreaterThan(0);
    expect(withFare.length).toBeLessThan(journeys.length);
    expect(obj(withFare[0]?.['fare'])['totalCost']).toBe(280);
    const disrupted = journeys
      .flatMap((j) => arr(j['legs']).map(obj))
      .filter((leg) => leg['isDisrupted'] === true);
    expect(disrupted).toHaveLength(1);
    expect(arr(disrupted[0]?.['disruptions']).length).toBe(1);
  });

  it('uses London local time from the injected clock, and honours date/time/timeIs', async () => {
    const now = obj((await getJson(journeyUrl())).body);
    expect(obj(now['searchCriteria'])['dateTime']).toBe('2025-06-02T06:16:00');
    const later = obj(
      (await getJson(journeyUrl('1000129', '1000254', 'app_key=k&date=20250603&time=0830'))).body,
    );
    expect(obj(later['searchCriteria'])['dateTime']).toBe('2025-06-03T08:30:00');
    expect(obj(arr(later['journeys'])[0])['startDateTime']).toBe('2025-06-03T08:34:00');
    const arriving = obj(
      (await getJson(journeyUrl('1000129', '1000254', 'app_key=k&date=20250603&time=0830&timeIs=Arriving')))
        .body,
    );
    for (const journey of arr(arriving['journeys']).map(obj)) {
      expect(String(journey['arrivalDateTime']) <= '2025-06-03T08:30:00').toBe(true);
    }
  });

  it('names the end points after known stations and coordinates', async () => {
    const body = obj((await getJson(journeyUrl('940GZZLUBNK', '51.5246,-0.0345'))).body);
    const legs = arr(obj(arr(body['journeys'])[0])['legs']).map(obj);
    expect(obj(legs[0]?.['departurePoint'])['commonName']).toBe('Bank Underground Station');
    const last = obj(legs[legs.length - 1]?.['arrivalPoint']);
    expect(last['commonName']).toBe('51.5246,-0.0345');
    expect(last['naptanId']).toBeUndefined();
  });
});

describe('TfL mock: disambiguation', () => {
  it('lists options for from, identifies to (300)', async () => {
    tfl.scenario('disambiguation-from');
    const { status, body } = await getJson(journeyUrl('Victoria', '1000254'));
    expect(status).toBe(300);
    const from = obj(obj(body)['fromLocationDisambiguation']);
    expect(from['matchStatus']).toBe('list');
    const options = arr(from['disambiguationOptions']).map(obj);
    expect(options.length).toBeGreaterThan(5);
    const qualities = options.map((o) => Number(o['matchQuality']));
    expect(qualities).not.toEqual([...qualities].sort((a, b) => b - a));
    expect(options.filter((o) => !('parameterValue' in o))).toHaveLength(1);
    const best = options.reduce((a, b) => (Number(a['matchQuality']) >= Number(b['matchQuality']) ? a : b));
    expect(obj(best['place'])['placeType']).toBe('PointOfInterest');
    expect(obj(obj(body)['toLocationDisambiguation'])).toEqual({
      $type: 'Tfl.Api.Presentation.Entities.JourneyPlanner.Disambiguation, Tfl.Api.Presentation.Entities',
      matchStatus: 'identified',
    });
  });

  it('covers to-side, both sides, no match and the HTTP 200 variant', async () => {
    tfl.scenario('disambiguation-to');
    let { status, body } = await getJson(journeyUrl('1000129', 'Highgate'));
    expect(status).toBe(300);
    expect(obj(obj(body)['toLocationDisambiguation'])['matchStatus']).toBe('list');
    expect(obj(obj(body)['fromLocationDisambiguation'])['matchStatus']).toBe('identified');

    tfl.scenario('disambiguation-both');
    ({ status, body } = await getJson(journeyUrl('Victoria', 'Highgate')));
    expect(status).toBe(300);
    expect(obj(obj(body)['fromLocationDisambiguation'])['matchStatus']).toBe('list');
    expect(obj(obj(body)['toLocationDisambiguation'])['matchStatus']).toBe('list');

    tfl.scenario('disambiguation-no-match');
    ({ status, body } = await getJson(journeyUrl('Xyzzy', '1000254')));
    expect(status).toBe(300);
    expect(obj(obj(body)['fromLocationDisambiguation'])['matchStatus']).toBe('empty');

    tfl.scenario('disambiguation-200');
    ({ status, body } = await getJson(journeyUrl('Victoria', 'Highgate')));
    expect(status).toBe(200);
    expect(obj(body)['$type']).toContain('DisambiguationResult');
  });
});

describe('TfL mock: errors and failures', () => {
  it('404: no journey found', async () => {
    tfl.scenario('not-found');
    const { status, body } = await getJson(journeyUrl());
    expect(status).toBe(404);
    expect(obj(body)['message']).toBe('No journey found for your inputs.');
  });

  it('500 echoes the full path and query, app_key included', async () => {
    tfl.scenario('server-error');
    const { status, body } = await getJson(journeyUrl('940GZZLUMHL', '940GZZLUWRR'));
    expect(status).toBe(500);
    expect(obj(body)['relativeUri']).toBe(
      '/Journey/JourneyResults/940GZZLUMHL/to/940GZZLUWRR?app_key=secret-key-123',
    );
    expect(obj(body)['httpStatus']).toBe('InternalServerError');
  });

  it('429 with and without Retry-After', async () => {
    tfl.scenario('rate-limited', { retryAfterSeconds: 7 });
    const limited = await fetch(journeyUrl());
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    await limited.text();
    tfl.scenario('rate-limited-no-retry-after');
    const bare = await fetch(journeyUrl());
    expect(bare.status).toBe(429);
    expect(bare.headers.get('retry-after')).toBeNull();
    await bare.text();
  });

  it('502 is HTML from the gateway, 503 is an ApiError', async () => {
    tfl.scenario('bad-gateway');
    const gateway = await fetch(journeyUrl());
    expect(gateway.status).toBe(502);
    expect(gateway.headers.get('content-type')).toMatch(/text\/html/);
    await gateway.text();
    tfl.scenario('service-unavailable');
    const { status, body } = await getJson(journeyUrl());
    expect(status).toBe(503);
    expect(obj(body)['httpStatusCode']).toBe(503);
  });

  it('malformed JSON: 200 with a body that does not parse', async () => {
    tfl.scenario('malformed-json');
    const response = await fetch(journeyUrl());
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.startsWith('{"$type"')).toBe(true);
    expect(() => JSON.parse(text) as unknown).toThrow();
  });

  it('reset: headers arrive, then the connection drops mid-body', async () => {
    tfl.scenario('reset');
    const response = await fetch(journeyUrl());
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('hang: never answers, and close() ends the hung request promptly', async () => {
    tfl.scenario('hang');
    const pending = fetch(journeyUrl()).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(tfl.requests).toHaveLength(1);
    const started = Date.now();
    await tfl.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBe('failed');
  });
});

describe('TfL mock: scenario control and recording', () => {
  it('answers the next N requests with a scenario, then falls back', async () => {
    tfl.scenario('rate-limited', { times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(journeyUrl());
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toEqual([429, 429, 200]);
  });

  it('runs custom handlers with the call index, and lets them delegate to named scenarios', async () => {
    tfl.scenario((request, context) =>
      context.callIndex === 0 ? reply.json(418, { teapot: request.params['from'] }) : 'not-found',
    );
    const first = await getJson(journeyUrl('Kew Gardens', '1000254'));
    expect(first).toMatchObject({ status: 418, body: { teapot: 'Kew Gardens' } });
    expect((await getJson(journeyUrl())).status).toBe(404);
  });

  it('rejects names that are not scenarios', () => {
    expect(() => tfl.scenario('plan-delayed' as TflScenarioName)).toThrow(RangeError);
  });

  it('delays answers when asked', async () => {
    tfl.scenario('default', { delayMs: 150 });
    const started = Date.now();
    await (await fetch(journeyUrl())).text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('records method, path, decoded params, query and headers; reset() clears them', async () => {
    await (
      await fetch(
        journeyUrl("King's%20Cross", 'SE19%202XE', 'app_key=k&mode=tube,bus&journeyPreference=LeastTime'),
        {
          headers: { 'x-correlation-id': 'abc' },
        },
      )
    ).text();
    const [request] = tfl.requests;
    expect(request).toMatchObject({
      endpoint: 'tfl-journey',
      method: 'GET',
      path: "/Journey/JourneyResults/King's%20Cross/to/SE19%202XE",
      params: { from: "King's Cross", to: 'SE19 2XE' },
      query: { app_key: 'k', mode: 'tube,bus', journeyPreference: 'LeastTime' },
    });
    expect(request?.headers['x-correlation-id']).toBe('abc');
    tfl.reset();
    expect(tfl.requests).toHaveLength(0);
  });
});
