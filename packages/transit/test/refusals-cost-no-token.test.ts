// A call refused before it reaches the upstream costs the caller no rate-limit token: with one call per second
// allowed, any number of refusals leave that call for the next well-formed request. Through a real SDK client,
// each test on a freshly opened domain (its own limiters).
import { errorOf } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

async function withHarness(env: Record<string, string>, test: (h: Harness) => Promise<void>): Promise<void> {
  const h = await startHarness({ env: { TRANSIT_RETRY_BUDGET_MS: '0', ...env } });
  try {
    await test(h);
  } finally {
    await h.close();
  }
}

describe('TfL: an argument refused before the request is built takes no token', () => {
  it('planJourney with "." or ".." as from or to', () =>
    withHarness({ PLAN_JOURNEY_TPS: '1' }, async (h) => {
      for (const args of [
        { from: '..', to: 'Bank' },
        { from: 'Bank', to: '.' },
      ]) {
        expect((await h.call('planJourney', args)).structured).toMatchObject({ code: 'VALIDATION_ERROR' });
      }
      const journey = { from: 'Bank', to: 'Mile End' };
      expect((await h.call('planJourney', journey)).structured).toMatchObject({ code: 'OK' });
      // The one call of this second is spent now.
      expect((await h.call('planJourney', journey)).structured).toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
      });
      expect(h.tfl.requests).toHaveLength(1);
    }));

  it('find_london_stops with ".." as the name', () =>
    withHarness({ LONDON_STOPS_TPS: '1' }, async (h) => {
      const refused = await h.call('find_london_stops', { name: '..' });
      expect(refused.structured).toMatchObject({ code: 'VALIDATION_ERROR' });
      const found = await h.call('find_london_stops', { name: 'Oxford Circus' });
      expect(found.structured).toMatchObject({ code: 'OK' });
      expect(h.tfl.requests).toHaveLength(1);
    }));
});

const KAMPPI = { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } } as const;
const PASILA = { type: 'coords', value: { lat: 60.1989, lon: 24.9325 } } as const;
const LONDON = { type: 'coords', value: { lat: 51.5, lon: -0.12 } } as const;

describe('Digitransit: a call refused before its first request takes no token', () => {
  it('plan_trip ends that are the same, outside the region or a saved stop; get_departures without its stop', () =>
    withHarness({ DIGITRANSIT_CALLS_PER_SECOND: '1' }, async (h) => {
      await h.call('save_user_variable', { key: 'my stop', value: { type: 'stop', stopId: 'HSL:1040129' } });
      const refusals: [string, Record<string, unknown>, string][] = [
        ['plan_trip', { origin: KAMPPI, destination: KAMPPI }, 'validation-error'],
        ['plan_trip', { origin: KAMPPI, destination: LONDON }, 'unsupported-region'],
        [
          'plan_trip',
          { origin: { type: 'label', value: 'my stop' }, destination: PASILA },
          'validation-error',
        ],
        ['get_departures', { stop: { type: 'label', value: 'not saved' } }, 'validation-error'],
        ['get_departures', { stop: { type: 'id', value: 'no-feed' } }, 'validation-error'],
      ];
      for (const [tool, args, code] of refusals) expect(errorOf(await h.call(tool, args)).code).toBe(code);
      expect(h.digitransit.requests).toEqual([]);

      expect((await h.call('plan_trip', { origin: KAMPPI, destination: PASILA })).isError).toBe(false);
      // The one call of this second is spent now.
      const departures = await h.call('get_departures', { stop: { type: 'id', value: 'HSL:1040129' } });
      expect(errorOf(departures).code).toBe('rate-limited');
    }));

  it('a plan_trip that geocodes and searches twice takes one token for the whole call', () =>
    withHarness({ DIGITRANSIT_CALLS_PER_SECOND: '1' }, async (h) => {
      h.digitransit.scenario('plan-disrupted-then-clear');
      const answer = await h.call('plan_trip', {
        origin: { type: 'label', value: 'Kiasma' },
        destination: PASILA,
        includeDisruptionAlt: true,
      });
      expect(answer.isError).toBe(false);
      const endpoints = h.digitransit.requests.map((request) => request.endpoint);
      expect(endpoints).toEqual(['geocoding-search', 'routing', 'routing']);
    }));
});
