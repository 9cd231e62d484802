import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDigitransitMock } from '../src/index.js';
import type { DigitransitMock, DigitransitScenarioName } from '../src/index.js';
import { FROM, LEGACY_PLAN, PLAN, TO } from './documents.js';
import { arr, fixedClock, obj, postGraphQL } from './helpers.js';
import type { Json } from './helpers.js';

const OFFSET_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[23]:00$/;

let dt: DigitransitMock;

beforeEach(async () => {
  dt = await startDigitransitMock({ now: fixedClock });
});
afterEach(async () => {
  await dt.close();
});

interface Plan {
  readonly connection: Record<string, Json>;
  readonly itineraries: Record<string, Json>[];
}

async function plan(variables: Record<string, unknown> = {}): Promise<Plan> {
  const { status, body } = await postGraphQL(dt, PLAN, { origin: FROM, destination: TO, ...variables });
  expect(status).toBe(200);
  expect(body.errors).toBeUndefined();
  const connection = obj(obj(body.data)['planConnection']);
  return { connection, itineraries: arr(connection['edges']).map((e) => obj(obj(e)['node'])) };
}

const legsOf = (itinerary: Record<string, Json>) => arr(itinerary['legs']).map(obj);
const transitLegs = (itinerary: Record<string, Json>) =>
  legsOf(itinerary).filter((leg) => leg['mode'] !== 'WALK');
const delaySeconds = (iso: Json | undefined): number => {
  const m = /^(-)?PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(String(iso));
  if (!m) throw new Error(`not an OTP duration: ${String(iso)}`);
  return (m[1] ? -1 : 1) * (Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0));
};

describe('planConnection: shape', () => {
  it('returns edges with itineraries, pageInfo and searchDateTime as OTP does', async () => {
    const { connection, itineraries } = await plan();
    expect(connection['searchDateTime']).toBe('2025-06-02T08:15:30+03:00');
    expect(connection['routingErrors']).toEqual([]);
    expect(obj(connection['pageInfo'])).toMatchObject({ hasNextPage: true, searchWindowUsed: 'PT1H' });
    expect(arr(connection['edges']).map((e) => obj(e)['cursor'])).toEqual(itineraries.map(() => 'NoCursor'));
    expect(itineraries.length).toBeGreaterThanOrEqual(3);
    for (const itinerary of itineraries) {
      expect(itinerary['start']).toMatch(OFFSET_DATE_TIME);
      expect(itinerary['end']).toMatch(OFFSET_DATE_TIME);
      expect(itinerary['duration']).toBe(
        (Date.parse(String(itinerary['end'])) - Date.parse(String(itinerary['start']))) / 1000,
      );
      expect(itinerary['accessibilityScore']).toBeNull();
      const legs = legsOf(itinerary);
      expect(obj(legs[0]?.['from'])['name']).toBe('Arkadiankatu 7');
      expect(obj(legs[legs.length - 1]?.['to'])['name']).toBe('Destination');
      expect(itinerary['numberOfTransfers']).toBe(Math.max(0, transitLegs(itinerary).length - 1));
      for (const leg of legs) {
        expect(obj(leg['start'])['scheduledTime']).toMatch(OFFSET_DATE_TIME);
        if (leg['mode'] === 'WALK') {
          expect(leg).toMatchObject({ realtimeState: null, realTime: false, route: null, trip: null });
          expect(obj(leg['start'])['estimated']).toBeNull();
        } else {
          expect(obj(obj(leg['from'])['stop'])['gtfsId']).toMatch(/^HSL:/);
          expect(obj(leg['route'])['shortName']).toEqual(expect.any(String));
          expect(obj(leg['trip'])['gtfsId']).toMatch(/^HSL:\w+_20250602_Ma_[12]_\d{4}$/);
        }
      }
    }
  });

  it('starts at the requested time and sorts by arrival', async () => {
    const { itineraries } = await plan({ dateTime: { earliestDeparture: '2025-06-03T12:00+03:00' } });
    for (const it of itineraries) expect(String(it['start']) >= '2025-06-03T12:00:00+03:00').toBe(true);
    const ends = itineraries.map((it) => Date.parse(String(it['end'])));
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    const arriving = await plan({ dateTime: { latestArrival: '2025-06-03T18:00+03:00' } });
    for (const it of arriving.itineraries)
      expect(Date.parse(String(it['end']))).toBeLessThanOrEqual(Date.parse('2025-06-03T18:00+03:00'));
  });

  it('honours first, maximumTransfers, transit modes and wheelchair', async () => {
    expect((await plan({ first: 2 })).itineraries).toHaveLength(2);
    const direct = await plan({ maxTransfers: 0 });
    expect(direct.itineraries.every((it) => it['numberOfTransfers'] === 0)).toBe(true);
    const trams = await plan({ modes: { transit: { transit: [{ mode: 'TRAM' }] } } });
    expect(trams.itineraries.length).toBeGreaterThan(0);
    expect(trams.itineraries.flatMap(transitLegs).every((leg) => leg['mode'] === 'TRAM')).toBe(true);
    const wheelchair = await plan({ wheelchair: true });
    expect(wheelchair.itineraries.every((it) => typeof it['accessibilityScore'] === 'number')).toBe(true);
  });

  it('answers routing errors for unknown stops and coordinates outside the router bounds', async () => {
    const unknown = await plan({ origin: { location: { stopLocation: { stopLocationId: 'HSL:404' } } } });
    expect(unknown.connection['routingErrors']).toEqual([
      {
        code: 'LOCATION_NOT_FOUND',
        description: 'Origin is unknown. Can you be a bit more descriptive?',
        inputField: 'FROM',
      },
    ]);
    expect(unknown.itineraries).toEqual([]);
    const london = await plan({
      destination: { location: { coordinate: { latitude: 51.5, longitude: -0.12 } } },
    });
    expect(arr(london.connection['routingErrors']).map((e) => obj(e)['code'])).toEqual(['OUTSIDE_BOUNDS']);
    expect(obj(london.connection['pageInfo'])['endCursor']).toBeNull();
  });

  it('also answers the deprecated plan query', async () => {
    const { body } = await postGraphQL(dt, LEGACY_PLAN);
    const itineraries = arr(obj(obj(body.data)['plan'])['itineraries']);
    expect(itineraries).toHaveLength(2);
  });
});

describe('planConnection: scenarios', () => {
  it('plan-realtime: every transit leg is UPDATED with an estimate', async () => {
    dt.scenario('plan-realtime');
    const legs = (await plan()).itineraries.flatMap(transitLegs);
    expect(legs.length).toBeGreaterThan(0);
    for (const leg of legs) {
      expect(leg).toMatchObject({ realtimeState: 'UPDATED', realTime: true });
      const estimated = obj(obj(leg['start'])['estimated']);
      expect(estimated['time']).toMatch(OFFSET_DATE_TIME);
      const delay = delaySeconds(estimated['delay']);
      expect(
        Date.parse(String(estimated['time'])) - Date.parse(String(obj(leg['start'])['scheduledTime'])),
      ).toBe(delay * 1000);
    }
  });

  it('plan-scheduled: no realtime at all', async () => {
    dt.scenario('plan-scheduled');
    for (const leg of (await plan()).itineraries.flatMap(transitLegs)) {
      expect(leg).toMatchObject({ realtimeState: 'SCHEDULED', realTime: false });
      expect(obj(leg['start'])['estimated']).toBeNull();
    }
  });

  it('plan-mixed (the default): realtime and scheduled itineraries side by side', async () => {
    const { itineraries } = await plan();
    const kinds = itineraries.map((it) => new Set(transitLegs(it).map((leg) => leg['realTime'])));
    expect(kinds.some((k) => k.has(true) && !k.has(false))).toBe(true);
    expect(kinds.some((k) => k.has(false) && !k.has(true))).toBe(true);
    expect(kinds.some((k) => k.has(true) && k.has(false))).toBe(true);
  });

  it('plan-cancelled-leg: the cancelled itinerary appears only with includeRealTimeCancellations', async () => {
    dt.scenario('plan-cancelled-leg');
    const without = await plan();
    expect(without.itineraries.flatMap(transitLegs).map((l) => l['realtimeState'])).not.toContain('CANCELED');
    const withCancellations = await plan({ cancellations: true });
    expect(withCancellations.itineraries.length).toBe(without.itineraries.length + 1);
    expect(withCancellations.itineraries.flatMap(transitLegs).map((l) => l['realtimeState'])).toContain(
      'CANCELED',
    );
  });

  it('plan-delayed: one leg is more than 300 s late', async () => {
    dt.scenario('plan-delayed');
    const delays = (await plan()).itineraries
      .flatMap(transitLegs)
      .map((leg) => obj(leg['start'])['estimated'])
      .filter((e) => e !== null)
      .map((e) => delaySeconds(obj(e)['delay']));
    expect(Math.max(...delays)).toBe(420);
    expect(delays.filter((d) => d > 300)).toHaveLength(1);
  });

  it('plan-duplicates: exact duplicates', async () => {
    dt.scenario('plan-duplicates');
    const serialized = (await plan()).itineraries.map((it) => JSON.stringify(it));
    expect(new Set(serialized).size).toBeLessThan(serialized.length);
  });

  it('plan-long-walks: long walking distances and a walk-only itinerary', async () => {
    dt.scenario('plan-long-walks');
    const { itineraries } = await plan();
    const walks = itineraries.map((it) => Number(it['walkDistance']));
    expect(Math.max(...walks)).toBeGreaterThan(2000);
    expect(Math.min(...walks)).toBeLessThan(1000);
    expect(itineraries.some((it) => transitLegs(it).length === 0)).toBe(true);
  });

  it.each([
    ['plan-no-transit-connection', 'NO_TRANSIT_CONNECTION', null],
    ['plan-outside-bounds', 'OUTSIDE_BOUNDS', 'FROM'],
    ['plan-location-not-found', 'LOCATION_NOT_FOUND', 'FROM'],
  ] as const)(
    '%s: routingErrors with empty edges',
    async (scenario: DigitransitScenarioName, code, inputField) => {
      dt.scenario(scenario);
      const { connection, itineraries } = await plan();
      expect(itineraries).toEqual([]);
      expect(arr(connection['routingErrors']).map(obj)).toEqual([
        { code, description: expect.any(String), inputField },
      ]);
    },
  );

  it('plan-disrupted-then-clear: the first request is disrupted, the relaxed retry is not', async () => {
    dt.scenario('plan-disrupted-then-clear');
    const first = await plan({ cancellations: true });
    const firstLegs = first.itineraries.flatMap(transitLegs);
    expect(firstLegs.map((l) => l['realtimeState'])).toContain('CANCELED');
    expect(
      firstLegs.filter((l) => {
        const e = obj(l['start'])['estimated'];
        return e !== null && delaySeconds(obj(e)['delay']) > 300;
      }).length,
    ).toBeGreaterThan(0);
    const second = await plan();
    expect(second.itineraries).toHaveLength(1);
    for (const leg of second.itineraries.flatMap(transitLegs)) {
      expect(leg['realtimeState']).toBe('UPDATED');
      expect(delaySeconds(obj(obj(leg['start'])['estimated'])['delay'])).toBe(0);
    }
    expect(JSON.stringify(second.itineraries)).not.toBe(JSON.stringify(first.itineraries.slice(0, 1)));
  });

  it('per-request variation is counted per scenario selection', async () => {
    dt.scenario('plan-disrupted-then-clear');
    await plan();
    dt.scenario('plan-disrupted-then-clear');
    expect((await plan()).itineraries.length).toBeGreaterThan(1);
  });
});
