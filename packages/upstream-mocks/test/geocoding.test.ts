import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDigitransitMock } from '../src/index.js';
import type { DigitransitMock } from '../src/index.js';
import { arr, FIXED_NOW, fixedClock, KEY, obj, postGraphQL } from './helpers.js';

let dt: DigitransitMock;

beforeEach(async () => {
  dt = await startDigitransitMock({ now: fixedClock });
});
afterEach(async () => {
  await dt.close();
});

async function search(query: string, endpoint = 'search', headers: Record<string, string> = {}) {
  const response = await fetch(`${dt.geocodingUrl}/${endpoint}?${query}`, {
    headers: { 'digitransit-subscription-key': KEY, ...headers },
  });
  return { status: response.status, body: obj(await response.json()) };
}

describe('geocoding mock', () => {
  it('requires the subscription key', async () => {
    const response = await fetch(`${dt.geocodingUrl}/search?text=kamppi`);
    expect(response.status).toBe(401);
    expect(obj(await response.json())['statusCode']).toBe(401);
  });

  it('answers a Pelias FeatureCollection with [lon, lat] points and a bbox', async () => {
    const { status, body } = await search('text=kamppi&size=5&lang=sv');
    expect(status).toBe(200);
    expect(body['type']).toBe('FeatureCollection');
    const geocoding = obj(body['geocoding']);
    expect(obj(geocoding['query'])).toMatchObject({ text: 'kamppi', size: 5, lang: 'sv' });
    expect(geocoding['timestamp']).toBe(FIXED_NOW.getTime());
    const features = arr(body['features']).map(obj);
    expect(features.length).toBeGreaterThan(1);
    for (const feature of features) {
      const geometry = obj(feature['geometry']);
      expect(geometry['type']).toBe('Point');
      const [lon, lat] = arr(geometry['coordinates']).map(Number);
      expect(lon).toBeGreaterThan(24);
      expect(lat).toBeGreaterThan(60);
      const properties = obj(feature['properties']);
      expect(properties['gid']).toBe(
        `${String(properties['source'])}:${String(properties['layer'])}:${String(properties['id'])}`,
      );
      expect(properties['label']).toEqual(expect.any(String));
    }
    const bbox = arr(body['bbox']).map(Number);
    expect(bbox).toHaveLength(4);
    expect(bbox[0]).toBeLessThanOrEqual(bbox[2] ?? 0);
  });

  it('stop features carry ids that the routing API resolves once GTFS: and #code are stripped', async () => {
    const { body } = await search('text=Latokaski&layers=stop');
    const [feature] = arr(body['features']).map(obj);
    const properties = obj(feature?.['properties']);
    expect(properties['id']).toBe('GTFS:HSL:2431252#E4314');
    expect(obj(properties['addendum'])).toEqual({ GTFS: { modes: ['BUS'], code: 'E4314' } });
    const routingId = String(properties['id'])
      .replace(/^GTFS:/, '')
      .replace(/#.*$/, '');
    const { body: routed } = await postGraphQL(dt, `{ stop(id: "${routingId}") { name code } }`);
    expect(routed.data).toEqual({ stop: { name: 'Latokaski', code: 'E4314' } });
  });

  it('filters by layers and supports autocomplete', async () => {
    const venues = await search('text=ooppera&layers=venue');
    expect(arr(venues.body['features']).map((f) => obj(obj(f)['properties'])['layer'])).toEqual(['venue']);
    const auto = await search('text=pasi', 'autocomplete');
    expect(arr(auto.body['features']).length).toBeGreaterThan(0);
    expect(obj(obj(auto.body['geocoding'])['query'])['parsed_text']).toEqual({ subject: 'pasi' });
  });

  it('flags a key sent as a query parameter the way Pelias does', async () => {
    const response = await fetch(`${dt.geocodingUrl}/search?text=pasila&digitransit-subscription-key=${KEY}`);
    const body = obj(await response.json());
    expect(obj(body['geocoding'])['warnings']).toEqual(['Invalid Parameter: digitransit-subscription-key']);
    expect(obj(obj(body['geocoding'])['query'])['text']).toBe('pasila');
  });

  it('400 without text; no bbox when nothing matches', async () => {
    const missing = await search('size=3');
    expect(missing.status).toBe(400);
    expect(obj(missing.body['geocoding'])['errors']).toEqual([
      "invalid param 'text': text length, must be >0",
    ]);
    const nothing = await search('text=zzzzzz');
    expect(nothing.body['features']).toEqual([]);
    expect('bbox' in nothing.body).toBe(false);
  });

  it('has its own scenarios: geocoding-empty and the transport ones', async () => {
    dt.geocodingScenario('geocoding-empty', { times: 1 });
    expect((await search('text=kamppi')).body['features']).toEqual([]);
    expect(arr((await search('text=kamppi')).body['features']).length).toBeGreaterThan(0);
    dt.geocodingScenario('rate-limited', { times: 1, retryAfterSeconds: 2 });
    const limited = await fetch(`${dt.geocodingUrl}/search?text=kamppi`, {
      headers: { 'digitransit-subscription-key': KEY },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    await limited.text();
    expect(dt.requests.map((r) => r.endpoint)).toEqual([
      'geocoding-search',
      'geocoding-search',
      'geocoding-search',
    ]);
  });
});
