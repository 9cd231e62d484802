import { errorOf } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { useHarness } from './helpers.js';

/**
 * TFL_MAX_RESPONSE_BYTES and DIGITRANSIT_MAX_RESPONSE_BYTES reach every upstream read path (TfL,
 * Digitransit routing as GraphQL over HTTP, geocoding): a body past the setting is the
 * contract's upstream error naming the limit, the request is not repeated, and the next call succeeds.
 * (packages/hardening/test/upstream-bounds.test.ts drives 200 MiB bodies through the spawned server.)
 */
const LIMIT = 256 * 1024;
const h = useHarness({
  env: { TFL_MAX_RESPONSE_BYTES: String(LIMIT), DIGITRANSIT_MAX_RESPONSE_BYTES: String(LIMIT) },
});
const MESSAGE = /sent a response too large: its body passed the limit of 262144 bytes$/;
const ANNOUNCED = /sent a response too large: it announced \d+ bytes, over the limit of 262144 bytes$/;

const CALLS = {
  get_departures: { stop: { type: 'id', value: 'HSL:1040129' } },
  find_stops: { name: 'Kamppi' },
  plan_trip: {
    origin: { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } },
    destination: { type: 'coords', value: { lat: 60.2055, lon: 24.6559 } },
  },
} as const;

describe('upstream response size', () => {
  it.each([
    ['oversized-body', MESSAGE],
    ['oversized-content-length', ANNOUNCED],
  ] as const)('planJourney, %s: UPSTREAM_ERROR naming the limit, asked once', async (scenario, message) => {
    h.tfl.scenario(scenario, { times: 1, bodyBytes: 1024 * 1024 });
    const answer = await h.call('planJourney', { from: "King's Cross", to: 'Waterloo' });
    expect(answer.structured).toMatchObject({ success: false, code: 'UPSTREAM_ERROR', topJourneys: null });
    expect(answer.structured.message).toMatch(new RegExp(`^TfL ${message.source}`));
    expect(h.tfl.requests).toHaveLength(1);
    expect((await h.call('planJourney', { from: "King's Cross", to: 'Waterloo' })).structured.success).toBe(
      true,
    );
  });

  it.each(Object.keys(CALLS))('%s: upstream-error naming the limit, asked once', async (tool) => {
    h.digitransit.scenario('oversized-body', { times: 1, bodyBytes: 1024 * 1024 });
    const args = CALLS[tool as keyof typeof CALLS];
    expect(errorOf(await h.call(tool, args))).toMatchObject({
      code: 'upstream-error',
      message: expect.stringMatching(new RegExp(`^Digitransit ${MESSAGE.source}`)),
    });
    expect(h.digitransit.requests).toHaveLength(1);
    expect((await h.call(tool, args)).isError).toBe(false);
  });

  it('plan_trip geocoding a label: upstream-error naming the limit', async () => {
    h.digitransit.geocodingScenario('oversized-content-length', { times: 1, bodyBytes: 1024 * 1024 });
    const answer = await h.call('plan_trip', {
      origin: { type: 'label', value: 'Kamppi' },
      destination: { type: 'coords', value: { lat: 60.2055, lon: 24.6559 } },
    });
    expect(errorOf(answer)).toMatchObject({
      code: 'upstream-error',
      message: expect.stringMatching(new RegExp(`^Digitransit geocoding ${ANNOUNCED.source}`)),
    });
  });
});
