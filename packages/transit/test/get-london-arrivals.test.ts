// get_london_arrivals through a real SDK client against the loopback TfL mock, the answer cache off (each
// call reaches the mock; london-arrivals-cache.test.ts tests the cache): sorting, minutes, platforms,
// directions, lines, limit and truncation, freshness, saved tfl-stop labels, and the planJourney envelope.
import {
  GetLondonArrivalsOutputSchema,
  type GetLondonArrivalsOutput,
  type LondonArrival,
} from '@switchyard/contracts/transit';
import { reply } from '@switchyard/upstream-mocks';
import { describe, expect, it } from 'vitest';
import { connectOverTfl, unexpectedFailure, useHarness } from './helpers.js';

const h = useHarness({
  env: { TFL_CACHE_MAX_ENTRIES: '0', TRANSIT_RETRY_BUDGET_MS: '0', LONDON_ARRIVALS_TPS: '1000' },
});

const OXFORD_CIRCUS = { type: 'id', value: '940GZZLUOXC' } as const;

async function arrivals(args: Record<string, unknown>): Promise<GetLondonArrivalsOutput> {
  const answer = await h.call('get_london_arrivals', args);
  const output = GetLondonArrivalsOutputSchema.parse(answer.structured);
  expect(answer.isError).toBe(!output.success);
  return output;
}

const arrivalRequests = () => h.tfl.requests.filter((r) => r.endpoint === 'tfl-arrivals');

describe('get_london_arrivals: the answer', () => {
  it('soonest first, minutes to arrival, platform, destination, direction, freshness from TfL', async () => {
    const before = Date.now();
    const output = await arrivals({ stop: OXFORD_CIRCUS, limit: 50 });
    const after = Date.now();
    expect(output).toMatchObject({ success: true, code: 'OK', stopId: '940GZZLUOXC' });
    expect(output.stopName).toBe('Oxford Circus Underground Station');
    const list = output.arrivals!;
    expect(list).toHaveLength(21);
    const times = list.map((a) => Date.parse(a.expectedArrival));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const arrival of list) {
      const expected = Date.parse(arrival.expectedArrival);
      expect(arrival.minutesToArrival).toBeLessThanOrEqual(Math.floor((expected - before) / 60_000));
      expect(arrival.minutesToArrival).toBeGreaterThanOrEqual(Math.floor((expected - after) / 60_000));
      expect(arrival.platform).toMatch(/Platform \d/);
      expect(arrival.mode).toBe('tube');
    }
    expect(list[0]).toMatchObject({
      lineId: 'central',
      lineName: 'Central',
      destination: 'Epping Underground Station',
      towards: 'Epping',
      platform: 'Eastbound - Platform 3',
      direction: 'inbound',
      minutesToArrival: 0,
      currentLocation: 'Approaching Oxford Circus',
    });
    // Bakerloo predictions come without a direction or destination: kept, without them.
    const bakerloo = list.find((a) => a.lineId === 'bakerloo')!;
    expect(bakerloo.direction).toBeUndefined();
    expect(bakerloo.destination).toBe('');
    // Freshness: TfL's latest `timestamp` (4 s before the mock's now); valid until max-age (30 s) at most.
    expect(Date.parse(output.dataFreshness!)).toBeLessThanOrEqual(after - 4_000);
    expect(Date.parse(output.dataFreshness!)).toBeGreaterThanOrEqual(before - 5_000);
    expect(Date.parse(output.validUntil!)).toBeLessThanOrEqual(after + 30_000);
    expect(Date.parse(output.validUntil!)).toBeGreaterThanOrEqual(before + 29_000);
    expect(output.warnings).toBeUndefined();
    const [request] = arrivalRequests();
    expect(request!.path).toBe('/StopPoint/940GZZLUOXC/Arrivals');
    expect(request!.query).toEqual({ app_key: expect.any(String) });
  });

  it('limit keeps the soonest and warns truncated-results', async () => {
    const output = await arrivals({ stop: OXFORD_CIRCUS, limit: 3 });
    expect(output.arrivals).toHaveLength(3);
    expect(output.warnings).toEqual([
      { code: 'truncated-results', message: expect.stringMatching(/^21 arrivals .* 3 soonest/) },
    ]);
    const all = await arrivals({ stop: OXFORD_CIRCUS, limit: 50 });
    // The stand-in times arrivals from now: the two calls may fall in different seconds.
    const vehicle = ({ expectedArrival: _at, minutesToArrival: _in, ...rest }: LondonArrival) => rest;
    expect(output.arrivals!.map(vehicle)).toEqual(all.arrivals!.slice(0, 3).map(vehicle));
    output.arrivals!.forEach((arrival, n) => {
      const gap = Date.parse(arrival.expectedArrival) - Date.parse(all.arrivals![n]!.expectedArrival);
      expect(Math.abs(gap)).toBeLessThanOrEqual(1000);
    });
  });

  it('lines ask TfL by line (with its direction); a direction alone is filtered here', async () => {
    const byLine = await arrivals({ stop: OXFORD_CIRCUS, lines: ['Victoria'], direction: 'inbound' });
    expect(new Set(byLine.arrivals!.map((a) => `${a.lineId} ${a.direction}`))).toEqual(
      new Set(['victoria inbound']),
    );
    expect(arrivalRequests()[0]!.path).toBe('/Line/victoria/Arrivals/940GZZLUOXC');
    expect(arrivalRequests()[0]!.query['direction']).toBe('inbound');

    const outbound = await arrivals({ stop: OXFORD_CIRCUS, direction: 'outbound', limit: 50 });
    expect(outbound.arrivals!.length).toBeGreaterThan(0);
    expect(outbound.arrivals!.every((a) => a.direction === 'outbound')).toBe(true);
    expect(arrivalRequests()[1]!.path).toBe('/StopPoint/940GZZLUOXC/Arrivals');

    await arrivals({ stop: OXFORD_CIRCUS, lines: ['victoria', 'central', 'victoria'] });
    expect(arrivalRequests()[2]!.path).toBe('/Line/central,victoria/Arrivals/940GZZLUOXC');
  });

  it('a bus stop: the stop letter as platform; a lower-case id is TfL upper case', async () => {
    const output = await arrivals({ stop: { type: 'id', value: '490000254w' } });
    expect(output.stopId).toBe('490000254W');
    expect(output.arrivals!.every((a) => a.platform === 'W' && a.mode === 'bus')).toBe(true);
    expect(output.arrivals![0]!.lineId).toBe('176');
  });

  it('nothing due: success with an empty list and no stop name', async () => {
    const output = await arrivals({ stop: { type: 'id', value: '940GZZLUKSX' } });
    expect(output).toMatchObject({ success: true, code: 'OK', arrivals: [], stopName: null });
    expect(output.message).toMatch(/No arrivals/);
  });

  it('leaves out what TfL marks for deletion, what has expired, and items it cannot read', async () => {
    const now = Date.now();
    const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
    const base = { lineId: 'victoria', lineName: 'Victoria', modeName: 'tube', stationName: 'X' };
    h.tfl.scenario(() =>
      reply.json(200, [
        { ...base, id: 'a', expectedArrival: at(120), timeToLive: at(150), timeToStation: '120' },
        { ...base, id: 'gone', operationType: 2, expectedArrival: at(60), timeToLive: at(90) },
        { ...base, id: 'old', expectedArrival: at(-90), timeToLive: at(-60) },
        { ...base, id: 'no-time', expectedArrival: 'soon' },
        { id: 'no-line', expectedArrival: at(30) },
        'not an object',
      ]),
    );
    const output = await arrivals({ stop: OXFORD_CIRCUS });
    expect(output.arrivals).toHaveLength(1);
    expect(output.arrivals![0]).toMatchObject({ lineId: 'victoria', minutesToArrival: 1 });
    expect(output.arrivals![0]!.platform).toBeUndefined();
  });
  it('ties by line id; one more than limit is truncated; freshness the latest timestamp; valid until the earliest timeToLive', async () => {
    const now = Date.now();
    const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
    const prediction = (lineId: string, arriveIn: number, stamp: number, ttl: number) => ({
      lineId,
      lineName: lineId,
      modeName: 'tube',
      stationName: 'Oxford Circus Underground Station',
      expectedArrival: at(arriveIn),
      timestamp: at(stamp),
      timeToLive: at(ttl),
    });
    h.tfl.scenario(() =>
      reply.json(
        200,
        [
          prediction('victoria', 120, -30, 240),
          prediction('central', 120, -4, 150),
          prediction('bakerloo', 300, -60, 330),
        ],
        { 'cache-control': 'public, must-revalidate, max-age=600' },
      ),
    );
    const output = await arrivals({ stop: OXFORD_CIRCUS, limit: 2 });
    expect(output.arrivals!.map((a) => a.lineId)).toEqual(['central', 'victoria']);
    expect(output.warnings).toEqual([
      { code: 'truncated-results', message: expect.stringMatching(/^3 arrivals .* 2 soonest/) },
    ]);
    expect(output.dataFreshness).toBe(at(-4));
    // TfL's max-age (600 s) is later than the first prediction's timeToLive (150 s): that one ends the answer.
    const validUntil = Date.parse(output.validUntil!);
    expect(validUntil).toBeGreaterThanOrEqual(now + 150_000);
    expect(validUntil).toBeLessThan(now + 240_000);
  });
});

describe('get_london_arrivals: stops by saved label', () => {
  it('a saved tfl-stop resolves to its NaPTAN id; other kinds and unknown labels are VALIDATION_ERROR', async () => {
    const saved = await h.call('save_user_variable', {
      key: 'oxford',
      value: { type: 'tfl-stop', naptanId: '940GZZLUOXC', name: 'Oxford Circus' },
    });
    expect(saved.isError).toBe(false);
    await h.call('save_user_variable', { key: 'helsinki', value: { type: 'stop', stopId: 'HSL:1040129' } });
    const listed = await h.call('get_user_variables', { type: 'tfl-stop' });
    expect((listed.structured.variables as { key: string }[]).map((v) => v.key)).toEqual(['oxford']);

    expect((await arrivals({ stop: { type: 'label', value: 'oxford' } })).stopId).toBe('940GZZLUOXC');
    const wrongKind = await arrivals({ stop: { type: 'label', value: 'helsinki' } });
    expect(wrongKind).toMatchObject({ success: false, code: 'VALIDATION_ERROR', arrivals: null });
    expect(wrongKind.message).toMatch(/an HSL stop, not a London \(TfL\) stop/);
    const unknown = await arrivals({ stop: { type: 'label', value: 'nowhere' } });
    expect(unknown).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(arrivalRequests()).toHaveLength(1);
  });

  it('a saved tfl-stop needs a NaPTAN id', async () => {
    const answer = await h.call('save_user_variable', {
      key: 'bad',
      value: { type: 'tfl-stop', naptanId: '940/../Journey' },
    });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.structured)).toMatch(/NaPTAN/);
  });
});

describe('get_london_arrivals: errors in the planJourney envelope', () => {
  it.each([
    [{ stop: { type: 'id', value: '940/GZZ' } }, /NaPTAN/],
    [{ stop: OXFORD_CIRCUS, limit: 0 }, /limit/],
    [{ stop: OXFORD_CIRCUS, lines: ['Victoria Line!'] }, /line id/],
    [{ stop: OXFORD_CIRCUS, direction: 'north' }, /direction/],
  ])('invalid input %j is VALIDATION_ERROR, sent nowhere', async (args, message) => {
    const output = await arrivals(args);
    expect(output).toMatchObject({
      success: false,
      code: 'VALIDATION_ERROR',
      stopId: null,
      arrivals: null,
      dataFreshness: null,
      validUntil: null,
    });
    expect(output.message).toMatch(message);
    expect(h.tfl.requests).toHaveLength(0);
  });

  it('an unknown stop or line (TfL 404) is VALIDATION_ERROR naming it', async () => {
    const stop = await arrivals({ stop: { type: 'id', value: '940GZZLUNOPE' } });
    expect(stop).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(stop.message).toMatch(/940GZZLUNOPE/);
    const line = await arrivals({ stop: OXFORD_CIRCUS, lines: ['nope'] });
    expect(line).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(line.message).toMatch(/nope/);
  });

  it.each([
    ['rate-limited-no-retry-after', 'RATE_LIMIT_EXCEEDED', /wait at least 1 s/],
    ['server-error', 'UPSTREAM_ERROR', /500/],
    ['malformed-json', 'UPSTREAM_ERROR', /malformed/],
  ] as const)('TfL %s is %s', async (scenario, code, message) => {
    h.tfl.scenario(scenario);
    const output = await arrivals({ stop: OXFORD_CIRCUS });
    expect(output).toMatchObject({ success: false, code, arrivals: null });
    expect(output.message).toMatch(message);
  });

  it('a body that is not a list is UPSTREAM_ERROR', async () => {
    h.tfl.scenario(() => reply.json(200, { $type: 'Tfl.Api.Presentation.Entities.Prediction' }));
    expect(await arrivals({ stop: OXFORD_CIRCUS })).toMatchObject({ success: false, code: 'UPSTREAM_ERROR' });
  });
});

describe('get_london_arrivals internal failures', () => {
  it('an unexpected failure is INTERNAL_ERROR in the full envelope, without internals', async () => {
    const connection = await connectOverTfl({
      client: { journeyResults: () => Promise.reject(new Error('not used')) },
      arrivals: { arrivals: unexpectedFailure },
      lineStatus: { status: () => Promise.reject(new Error('not used')) },
      stops: { find: () => Promise.reject(new Error('not used')) },
    });
    try {
      const result = await connection.client.callTool({
        name: 'get_london_arrivals',
        arguments: { stop: OXFORD_CIRCUS },
      });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({
        success: false,
        code: 'INTERNAL_ERROR',
        message: 'Unexpected internal failure',
        stopId: null,
        stopName: null,
        arrivals: null,
        dataFreshness: null,
        validUntil: null,
      });
    } finally {
      await connection.close();
    }
  });
});
