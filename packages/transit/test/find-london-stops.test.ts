// find_london_stops through a real SDK client against the loopback TfL mock: by name and around a
// coordinate, with modes and lines, nearest first, limit and truncation, and ids that the other London tools
// take (get_london_arrivals answers for a stop found here).
import { FindLondonStopsOutputSchema, type FindLondonStopsOutput } from '@switchyard/contracts/transit';
import { reply } from '@switchyard/upstream-mocks';
import { describe, expect, it } from 'vitest';
import { useHarness } from './helpers.js';

const h = useHarness({
  env: { TRANSIT_RETRY_BUDGET_MS: '0', LONDON_STOPS_TPS: '1000', LONDON_ARRIVALS_TPS: '1000' },
});

async function find(args: Record<string, unknown>): Promise<FindLondonStopsOutput> {
  const answer = await h.call('find_london_stops', args);
  const output = FindLondonStopsOutputSchema.parse(answer.structured);
  expect(answer.isError).toBe(!output.success);
  return output;
}

const stopRequests = () => h.tfl.requests.filter((r) => r.endpoint === 'tfl-stops');

/** Oxford Circus station's coordinates in the mock's data. */
const OXFORD_CIRCUS = { lat: 51.515224, lon: -0.141903 };

describe('find_london_stops', () => {
  it('by name: TfL search matches, with their modes, as ids get_london_arrivals takes', async () => {
    const output = await find({ name: 'Oxford Circus' });
    expect(output).toMatchObject({ success: true, code: 'OK' });
    expect(output.stops).toEqual([
      expect.objectContaining({
        id: '940GZZLUOXC',
        name: 'Oxford Circus Underground Station',
        modes: ['tube'],
      }),
    ]);
    const [request] = stopRequests();
    expect(request!.path).toBe('/StopPoint/Search/Oxford%20Circus');
    expect(request!.query).toMatchObject({ maxResults: '50' });
    const arrivals = await h.call('get_london_arrivals', {
      stop: { type: 'id', value: output.stops![0]!.id },
    });
    expect(arrivals.structured).toMatchObject({ success: true, stopId: '940GZZLUOXC' });
  });

  it('near a coordinate: stops within the radius, nearest first, with lines and distances', async () => {
    const output = await find({ near: OXFORD_CIRCUS, radiusMeters: 1500 });
    const stops = output.stops!;
    expect(stops.length).toBeGreaterThan(1);
    expect(stops[0]).toMatchObject({ id: '940GZZLUOXC', distanceMeters: expect.any(Number) });
    expect(stops[0]!.lines).toEqual(expect.arrayContaining(['victoria', 'central', 'bakerloo']));
    const distances = stops.map((stop) => stop.distanceMeters!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(Math.max(...distances)).toBeLessThanOrEqual(1500);
    const request = stopRequests().at(-1)!;
    expect(request.path).toBe('/StopPoint');
    expect(request.query).toMatchObject({
      'location.lat': String(OXFORD_CIRCUS.lat),
      'location.lon': String(OXFORD_CIRCUS.lon),
      radius: '1500',
      returnLines: 'true',
      stopTypes: 'NaptanMetroStation,NaptanRailStation,NaptanPublicBusCoachTram,NaptanFerryPort',
    });
  });

  it('modes narrow the search; limit keeps the first and warns truncated-results', async () => {
    const buses = await find({ near: { lat: 51.51, lon: -0.12 }, radiusMeters: 2000, modes: ['bus'] });
    for (const stop of buses.stops!) expect(stop.modes).toEqual(['bus']);
    expect(buses.stops!.some((stop) => stop.stopLetter === 'W')).toBe(true);
    const one = await find({ name: 'Station', limit: 1 });
    expect(one.stops).toHaveLength(1);
    expect(one.warnings).toEqual([
      {
        code: 'truncated-results',
        message: expect.stringMatching(/^\d+ stops matched; the first 1 are shown/),
      },
    ]);
  });

  it('nothing found is a success with no stops', async () => {
    const output = await find({ name: 'Hogsmeade' });
    expect(output).toMatchObject({ success: true, stops: [] });
    expect(output.message).toBe('TfL knows no stop matching "Hogsmeade".');
  });

  it.each([
    [{}, 'give exactly one of name or near'],
    [{ name: 'Bank', near: OXFORD_CIRCUS }, 'give exactly one of name or near'],
    [{ near: OXFORD_CIRCUS, radiusMeters: 5000 }, 'radiusMeters must be between 1 and 2000'],
    [{ name: 'x' }, 'name must be at least 2 characters'],
    // An unpaired surrogate cannot be put in TfL's URL (encodeURIComponent throws): it once answered INTERNAL_ERROR.
    [{ name: '\udfff\ud800' }, 'name must be well-formed Unicode text'],
    [{ name: 'Bank', modes: ['teleport'] }, 'modes are tube'],
  ])('%j is VALIDATION_ERROR saying what to fix, without a request', async (args, message) => {
    const output = await find(args);
    expect(output).toMatchObject({ success: false, code: 'VALIDATION_ERROR', stops: null });
    expect(output.message).toContain(message);
    expect(stopRequests()).toHaveLength(0);
  });

  it('the same search within TfL max-age costs one request; TfL 429 is RATE_LIMIT_EXCEEDED', async () => {
    await Promise.all([find({ name: 'Waterloo' }), find({ name: 'Waterloo' })]);
    await find({ name: 'Waterloo' });
    expect(stopRequests()).toHaveLength(1);
    h.tfl.scenario('rate-limited');
    expect(await find({ name: 'Euston' })).toMatchObject({ success: false, code: 'RATE_LIMIT_EXCEEDED' });
  });
  it('truncated-results when TfL says more matched than are shown, by name (one more) or nearby (its total)', async () => {
    const stop = (id: string, name: string) => ({ id, name, lat: 51.5152, lon: -0.1419, modes: ['bus'] });
    h.tfl.scenario(() =>
      reply.json(200, {
        $type: 'Tfl.Api.Presentation.Entities.SearchResponse, Tfl.Api.Presentation.Entities',
        query: 'Oxford',
        total: 3,
        matches: [stop('490000173A', 'Oxford Circus'), stop('490000173B', 'Oxford Circus')],
      }),
    );
    const byName = await find({ name: 'Oxford', limit: 2 });
    expect(byName.stops).toHaveLength(2);
    expect(byName.warnings).toEqual([
      { code: 'truncated-results', message: expect.stringMatching(/^3 stops matched; the first 2/) },
    ]);

    h.tfl.scenario(() =>
      reply.json(200, {
        $type: 'Tfl.Api.Presentation.Entities.StopPointsResponse, Tfl.Api.Presentation.Entities',
        centrePoint: [51.515, -0.142],
        stopPoints: [
          {
            naptanId: '490000173A',
            id: '490000173A',
            commonName: 'Oxford Circus',
            distance: 12.5,
            lat: 51.5152,
            lon: -0.1419,
            modes: ['bus'],
          },
        ],
        pageSize: 1,
        total: 40,
        page: 1,
      }),
    );
    const nearby = await find({ near: OXFORD_CIRCUS, limit: 5 });
    expect(nearby.stops).toHaveLength(1);
    expect(nearby.warnings).toEqual([
      { code: 'truncated-results', message: expect.stringMatching(/^40 stops matched; the first 1/) },
    ]);
  });
});
