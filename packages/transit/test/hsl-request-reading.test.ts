// What the Helsinki clients send and read, below the tools: the GraphQL request body (the package's documents
// are encoded once, any other per call; both must reach OpenTripPlanner as the same JSON) and the Pelias answer
// read for its first usable feature.
import { createUpstreamPolicy } from '@switchyard/resilience';
import { startDigitransitMock, type DigitransitMock } from '@switchyard/upstream-mocks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../src/config.js';
import { createRoutingClient } from '../src/hsl/client.js';
import { firstPlace } from '../src/hsl/geocoding.js';
import { GRAPHQL_DOCUMENTS, STOPS_BY_NAME_QUERY } from '../src/hsl/queries.js';

let digitransit: DigitransitMock;
beforeAll(async () => {
  digitransit = await startDigitransitMock();
});
afterAll(async () => {
  await digitransit.close();
});

function routingClient() {
  const config = loadConfig({
    TRANSIT_PROVIDERS: 'hsl',
    DIGITRANSIT_SUBSCRIPTION_KEY: 'read-test-dt-key-0003',
    DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
    DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
  }).hsl!;
  const policy = createUpstreamPolicy({ upstream: 'Digitransit', timeoutMs: 5000, retryBudgetMs: 0 });
  return createRoutingClient({ config, policy });
}

describe('the GraphQL request body', () => {
  it('carries a package document and the variables as JSON.stringify would write them', async () => {
    expect(Object.values(GRAPHQL_DOCUMENTS)).toContain(STOPS_BY_NAME_QUERY);
    const variables = { name: 'Kamppi "keskus"\n\\ Kampen' };
    await routingClient().query({ document: STOPS_BY_NAME_QUERY, variables, language: 'fi' }, z.unknown());
    const sent = digitransit.requests.at(-1)!;
    expect(sent.graphql).toEqual({ query: STOPS_BY_NAME_QUERY, variables });
  });

  it('carries any other document too, encoded for the call', async () => {
    const document = `${STOPS_BY_NAME_QUERY}\n# "another" document`;
    const variables = { name: 'Kiasma' };
    await routingClient().query({ document, variables, language: 'en' }, z.unknown());
    expect(digitransit.requests.at(-1)!.graphql).toEqual({ query: document, variables });
  });
});

describe("Pelias' answer: the first usable feature", () => {
  const feature = (coordinates: unknown, properties?: unknown) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates },
    properties,
  });

  it('skips features without a point in range, and reads numbers written as strings', () => {
    const body = {
      features: [
        feature([24.93]),
        feature([24.93, 91]),
        feature([-181, 60.17]),
        feature(['24.931', ' 60.1687 ', 12], { name: 'Kamppi', label: 'Kamppi, Helsinki' }),
        feature([25, 60], { name: 'Later' }),
      ],
    };
    expect(firstPlace(body)).toEqual({
      coordinate: { lat: 60.1687, lon: 24.931 },
      name: 'Kamppi',
      address: 'Kamppi, Helsinki',
    });
  });

  it('reads unreadable properties as none: the label names the place, or nothing does', () => {
    expect(firstPlace({ features: [feature([24.9, 60.2], 'odd')] })).toEqual({
      coordinate: { lat: 60.2, lon: 24.9 },
      name: undefined,
      address: undefined,
    });
    expect(
      firstPlace({ features: [feature([24.9, 60.2], { name: null, label: 'Kiasma, Helsinki' })] }),
    ).toEqual({ coordinate: { lat: 60.2, lon: 24.9 }, name: 'Kiasma', address: 'Kiasma, Helsinki' });
  });

  it('has no place when no feature is usable, and refuses a body that is not a FeatureCollection', () => {
    expect(firstPlace({ features: [] })).toBeUndefined();
    expect(firstPlace({ features: [null, 'x', feature(null)] })).toBeUndefined();
    for (const body of [null, [], 'features', {}, { features: {} }]) {
      expect(() => firstPlace(body)).toThrow('Digitransit geocoding sent a malformed geocoding result');
    }
  });
});
