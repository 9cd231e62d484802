import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDigitransitMock, startTflMock } from '../src/index.js';
import type { DigitransitMock, TflMock } from '../src/index.js';
import { repeatedJson, repeatedJsonLength } from '../src/oversized.js';
import { arr, fixedClock, KEY, obj, postGraphQL } from './helpers.js';

const MIB = 1024 * 1024;
const STOP =
  '{ stop(id: "HSL:1040129") { name stoptimesWithoutPatterns(numberOfDepartures: 3) { headsign } } }';

let tfl: TflMock;
let dt: DigitransitMock;
beforeAll(async () => {
  [tfl, dt] = await Promise.all([
    startTflMock({ now: fixedClock }),
    startDigitransitMock({ now: fixedClock }),
  ]);
});
afterAll(async () => {
  await Promise.all([tfl.close(), dt.close()]);
});

const journeyUrl = (): string => `${tfl.url}/Journey/JourneyResults/1000129/to/1000254?app_key=k`;

/** Reads `bytes` of the body (or all of it), then goes away. */
async function readSome(response: Response, bytes: number): Promise<number> {
  const reader = response.body!.getReader();
  let read = 0;
  while (read < bytes) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
  }
  await reader.cancel();
  return read;
}

describe('repeatedJson', () => {
  it('grows the first list of a real body to the size asked for, as valid JSON', () => {
    const body = { meta: { n: 1 }, items: [{ id: 'a', tags: ['x'] }], tail: true };
    const json = repeatedJson(body, 10_000);
    const text = `${json.prefix}${Array.from({ length: json.count }, () => json.element).join(',')}${json.suffix}`;
    expect(Buffer.byteLength(text)).toBe(repeatedJsonLength(json));
    expect(repeatedJsonLength(json)).toBeGreaterThanOrEqual(10_000);
    const parsed = obj(JSON.parse(text));
    expect(parsed['meta']).toEqual({ n: 1 });
    expect(parsed['tail']).toBe(true);
    expect(arr(parsed['items']).length).toBe(json.count);
    expect(arr(parsed['items'])[0]).toEqual({ id: 'a', tags: ['x'] });
  });

  it('pads a body without a list', () => {
    const json = repeatedJson({ data: null }, 5000);
    const text = `${json.prefix}${Array.from({ length: json.count }, () => json.element).join(',')}${json.suffix}`;
    expect(obj(JSON.parse(text))['data']).toBeNull();
    expect(arr(obj(JSON.parse(text))['padding']).length).toBe(json.count);
  });
});

describe('oversized scenarios', () => {
  it('TfL oversized-body: an ItineraryResult of bodyBytes, chunked', async () => {
    tfl.scenario('oversized-body', { times: 1, bodyBytes: MIB });
    const response = await fetch(journeyUrl());
    expect(response.headers.get('content-length')).toBeNull();
    const text = await response.text();
    expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(MIB);
    const body = obj(JSON.parse(text));
    expect(body['$type']).toMatch(/ItineraryResult/);
    expect(arr(body['journeys']).length).toBeGreaterThan(7);
  });

  it('TfL oversized-content-length announces the true length', async () => {
    tfl.scenario('oversized-content-length', { times: 1, bodyBytes: MIB });
    const response = await fetch(journeyUrl());
    const text = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
  });

  it('the 200 MiB default: a client that leaves early costs little, and the mock keeps answering', async () => {
    tfl.scenario('oversized-content-length', { times: 1 });
    const response = await fetch(journeyUrl());
    expect(Number(response.headers.get('content-length'))).toBeGreaterThanOrEqual(200 * MIB);
    expect(await readSome(response, MIB)).toBeGreaterThanOrEqual(MIB);
    expect((await fetch(journeyUrl())).status).toBe(200);
  });

  it('Digitransit routing: the query’s own answer grown, for both oversized scenarios', async () => {
    for (const scenario of ['oversized-body', 'oversized-content-length'] as const) {
      dt.scenario(scenario, { times: 1, bodyBytes: MIB });
      const { status, body } = await postGraphQL(dt, STOP);
      expect(status).toBe(200);
      const stop = obj(obj(body.data)['stop']);
      expect(stop['name']).toBe('Arkadian puisto');
      expect(arr(stop['stoptimesWithoutPatterns']).length).toBeGreaterThan(1000);
    }
  });

  it('Digitransit geocoding: a FeatureCollection grown past the limit', async () => {
    dt.geocodingScenario('oversized-body', { times: 1, bodyBytes: MIB });
    const response = await fetch(`${dt.geocodingUrl}/search?text=kamppi`, {
      headers: { 'digitransit-subscription-key': KEY },
    });
    const text = await response.text();
    expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(MIB);
    expect(obj(JSON.parse(text))['type']).toBe('FeatureCollection');
  });

  it('bodyBytes Infinity is endless', async () => {
    dt.geocodingScenario('oversized-body', { times: 1, bodyBytes: Infinity });
    const response = await fetch(`${dt.geocodingUrl}/search?text=kamppi`, {
      headers: { 'digitransit-subscription-key': KEY },
    });
    expect(await readSome(response, 8 * MIB)).toBeGreaterThanOrEqual(8 * MIB);
  });
});
