// The TfL arrivals routes: real-shaped Prediction[] (the swagger definition copied in fixtures/tfl), unsorted,
// relative to the clock; 404 ApiError for an unknown stop or line; the request log; the fault scenarios.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTflMock, TFL_SCENARIOS } from '../src/index.js';
import type { TflMock } from '../src/index.js';
import { arr, FIXED_NOW, fixedClock, obj, PACKAGE_DIR } from './helpers.js';

interface SwaggerProperty {
  type: string;
  format?: string;
  $ref?: string;
}
const swagger = JSON.parse(
  readFileSync(resolve(PACKAGE_DIR, 'fixtures/tfl/arrivals-swagger.json'), 'utf8'),
) as {
  definitions: Record<string, { properties: Record<string, SwaggerProperty> }>;
};
const PREDICTION = swagger.definitions['Tfl.Api.Presentation.Entities.Prediction']!.properties;
const TIMING = swagger.definitions['Tfl.Api.Presentation.Entities.PredictionTiming']!.properties;
const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?Z$/;

let tfl: TflMock;
beforeEach(async () => {
  tfl = await startTflMock({ now: fixedClock });
});
afterEach(async () => {
  await tfl.close();
});

async function get(path: string): Promise<{ status: number; body: unknown; headers: Headers }> {
  const separator = path.includes('?') ? '&' : '?';
  const response = await fetch(`${tfl.url}${path}${separator}app_key=k`);
  return { status: response.status, body: await response.json(), headers: response.headers };
}

function checkAgainstSwagger(value: Record<string, unknown>, properties: Record<string, SwaggerProperty>) {
  for (const [key, field] of Object.entries(value)) {
    if (key === '$type') continue;
    const spec = properties[key];
    expect(spec, `${key} is not in the swagger definition`).toBeDefined();
    if (spec?.type === 'integer') expect(Number.isInteger(field), key).toBe(true);
    if (spec?.type === 'string') expect(typeof field, key).toBe('string');
  }
}

describe('TfL mock: GET /StopPoint/{id}/Arrivals', () => {
  it('answers Prediction[] with the swagger fields, TfL formats and a caching hint', async () => {
    const { status, body, headers } = await get('/StopPoint/940GZZLUOXC/Arrivals');
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toMatch(/max-age=\d+/);
    const predictions = arr(body).map(obj);
    expect(predictions.length).toBeGreaterThan(10);
    for (const prediction of predictions) {
      expect(prediction['$type']).toBe(
        'Tfl.Api.Presentation.Entities.Prediction, Tfl.Api.Presentation.Entities',
      );
      checkAgainstSwagger(prediction, PREDICTION);
      checkAgainstSwagger(obj(prediction['timing']), TIMING);
      for (const field of ['timestamp', 'expectedArrival', 'timeToLive']) {
        expect(prediction[field], field).toMatch(UTC);
      }
      const expected = Date.parse(prediction['expectedArrival'] as string);
      expect(expected - FIXED_NOW.getTime()).toBe((prediction['timeToStation'] as number) * 1000);
      expect(Date.parse(prediction['timeToLive'] as string)).toBeGreaterThan(expected);
    }
    expect(new Set(predictions.map((p) => p['lineId']))).toEqual(
      new Set(['victoria', 'central', 'bakerloo']),
    );
    expect(new Set(predictions.map((p) => p['direction']))).toEqual(new Set(['inbound', 'outbound', '']));
    const times = predictions.map((p) => p['timeToStation'] as number);
    expect(times).not.toEqual([...times].sort((a, b) => a - b));
  });

  it('answers [] for a known station where nothing is due', async () => {
    const { status, body } = await get('/StopPoint/940GZZLUKSX/Arrivals');
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });

  it('answers 404 with an ApiError naming an unknown stop', async () => {
    const { status, body } = await get('/StopPoint/940GZZLUNOPE/Arrivals');
    expect(status).toBe(404);
    expect(obj(body)['exceptionType']).toBe('EntityNotFoundException');
    expect(obj(body)['message']).toBe('The following stop point is not recognised: 940GZZLUNOPE');
  });

  it('records each request as tfl-arrivals with its stop', async () => {
    await get('/StopPoint/490000254W/Arrivals');
    expect(tfl.requests.map((r) => [r.endpoint, r.params['stopPointId']])).toEqual([
      ['tfl-arrivals', '490000254W'],
    ]);
  });
});

describe('TfL mock: GET /Line/{ids}/Arrivals/{stopPointId}', () => {
  it('keeps only the lines asked for, and the direction when given', async () => {
    const lines = arr((await get('/Line/victoria,central/Arrivals/940GZZLUOXC')).body).map(obj);
    expect(new Set(lines.map((p) => p['lineId']))).toEqual(new Set(['victoria', 'central']));
    const inbound = arr((await get('/Line/victoria/Arrivals/940GZZLUOXC?direction=inbound')).body).map(obj);
    expect(inbound.length).toBeGreaterThan(0);
    expect(inbound.every((p) => p['lineId'] === 'victoria' && p['direction'] === 'inbound')).toBe(true);
  });

  it('answers 404 for a line it does not know', async () => {
    const { status, body } = await get('/Line/nope/Arrivals/940GZZLUOXC');
    expect(status).toBe(404);
    expect(obj(body)['message']).toBe('The following line id is not recognised: nope');
  });
});

describe('TfL mock: the scenarios apply to the arrivals routes', () => {
  it.each([
    ['rate-limited', 429],
    ['server-error', 500],
    ['bad-gateway', 502],
    ['service-unavailable', 503],
    ['not-found', 404],
    ['forbidden', 403],
  ] as const)('%s answers %i', async (scenario, status) => {
    tfl.scenario(scenario, { times: 1 });
    const response = await fetch(`${tfl.url}/StopPoint/940GZZLUOXC/Arrivals?app_key=k`);
    await response.body?.cancel();
    expect(response.status).toBe(status);
  });

  it('malformed-json cuts the arrivals body short', async () => {
    tfl.scenario('malformed-json', { times: 1 });
    const text = await (await fetch(`${tfl.url}/StopPoint/940GZZLUOXC/Arrivals?app_key=k`)).text();
    expect(text.startsWith('[{')).toBe(true);
    expect(() => JSON.parse(text) as unknown).toThrow();
  });

  it('disambiguation scenarios leave the arrivals route answering normally; short-max-age shortens the hint', async () => {
    expect(TFL_SCENARIOS).toContain('short-max-age');
    tfl.scenario('disambiguation-both', { times: 1 });
    expect((await get('/StopPoint/940GZZLUOXC/Arrivals')).status).toBe(200);
    tfl.scenario('short-max-age', { times: 1 });
    const { status, headers } = await get('/StopPoint/940GZZLUOXC/Arrivals');
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('public, max-age=1');
  });
});
