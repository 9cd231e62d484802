import { FindStopsOutputSchema } from '@switchyard/contracts/transit';
import { errorOf } from '@switchyard/server-kit/testing';
import { otpReply } from '@switchyard/upstream-mocks';
import { describe, expect, it } from 'vitest';
import { useHarness } from './helpers.js';

const h = useHarness();

describe('find_stops', () => {
  it('finds stops by name, exact matches first, with ids get_departures accepts', async () => {
    const output = FindStopsOutputSchema.parse(
      (await h.call('find_stops', { name: 'Rautatientori' })).structured,
    );
    expect(output.stops[0]).toMatchObject({
      stopId: 'HSL:1020453',
      name: 'Rautatientori',
      code: 'H2004',
      mode: 'BUS',
    });
    const departures = await h.call('get_departures', {
      stop: { type: 'id', value: output.stops[0]!.stopId },
    });
    expect(departures.isError).toBe(false);
  });

  it('a stop whose short code is the query comes first, whatever order OTP gave', async () => {
    const stop = (gtfsId: string, name: string, code: string) => ({
      gtfsId,
      name,
      code,
      platformCode: null,
      lat: 60.17,
      lon: 24.94,
      vehicleMode: 'BUS',
    });
    h.digitransit.scenario((request) =>
      otpReply(request, {
        data: {
          stops: [stop('HSL:1020201', 'Kaivokatu', 'H2007'), stop('HSL:1020453', 'Rautatientori', 'H2004')],
        },
      }),
    );
    const output = FindStopsOutputSchema.parse((await h.call('find_stops', { name: 'h2004' })).structured);
    expect(output.stops.map((s) => s.code)).toEqual(['H2004', 'H2007']);
  });

  it('finds stops near a coordinate, nearest first, with distances', async () => {
    const output = FindStopsOutputSchema.parse(
      (await h.call('find_stops', { near: { lat: 60.17192, lon: 24.93194 }, radiusMeters: 1500 })).structured,
    );
    expect(output.stops[0]).toMatchObject({ stopId: 'HSL:1040129', distanceMeters: 0 });
    const distances = output.stops.map((s) => s.distanceMeters ?? -1);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const d of distances) expect(d).toBeLessThanOrEqual(1500);
  });

  it('limits results with truncated-results', async () => {
    const output = FindStopsOutputSchema.parse(
      (await h.call('find_stops', { near: { lat: 60.17192, lon: 24.93194 }, radiusMeters: 5000, limit: 1 }))
        .structured,
    );
    expect(output.stops).toHaveLength(1);
    expect(output.warnings).toContainEqual(expect.objectContaining({ code: 'truncated-results' }));
  });

  it('a name with an unpaired surrogate is a validation-error saying so, without a request', async () => {
    const before = h.digitransit.requests.length;
    expect(errorOf(await h.call('find_stops', { name: 'Kamppi\ud800' }))).toMatchObject({
      code: 'validation-error',
      message: expect.stringContaining('name must be well-formed Unicode text'),
    });
    expect(h.digitransit.requests).toHaveLength(before);
  });

  it('needs exactly one of name or near', async () => {
    expect(errorOf(await h.call('find_stops', {}))).toMatchObject({
      code: 'validation-error',
      hint: expect.any(String),
    });
  });

  it('upstream failures use the contract codes', async () => {
    h.digitransit.scenario('graphql-errors');
    expect(errorOf(await h.call('find_stops', { name: 'Kamppi' })).code).toBe('upstream-error');
  });
});
