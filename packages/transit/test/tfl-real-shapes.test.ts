// planJourney against TfL bodies in shapes that real captures show (see fixtures/tfl-real-shapes.ts for
// where each was seen), through a real MCP Client and the loopback TfL mock. Strict output validation is on:
// every success and error answer must match the contract.
import { PlanJourneyOutputSchema, type PlanJourneyOutput } from '@switchyard/contracts/transit';
import { reply } from '@switchyard/upstream-mocks';
import { describe, expect, it } from 'vitest';
import {
  apiErrorWith200,
  badRequestApiError,
  bothNotIdentified,
  disambiguationTypedAsItinerary,
  faresTiesAndOddNumbersResult,
  GATEWAY_429,
  listAndNotIdentified,
  mixedModesResult,
  noJourneysResult,
  withoutMatchStatus,
} from './fixtures/tfl-real-shapes.js';
import { useHarness } from './helpers.js';

const h = useHarness({ env: { TRANSIT_RETRY_BUDGET_MS: '0' } });

async function planWith(
  status: number,
  body: unknown,
): Promise<{ isError: boolean; output: PlanJourneyOutput }> {
  h.tfl.scenario(() => reply.json(status, body));
  const answer = await h.call('planJourney', { from: 'Cowcross Street', to: 'Hutton Road' });
  return { isError: answer.isError, output: PlanJourneyOutputSchema.parse(answer.structured) };
}

describe('planJourney: real ItineraryResult shapes', () => {
  it('national-rail, elizabeth-line, cycle and interchange legs; fares[]; numbers as strings; odd journeys left out', async () => {
    const { isError, output } = await planWith(200, mixedModesResult());
    expect(isError).toBe(false);
    expect(output).toMatchObject({ success: true, code: 'OK' });
    const journeys = output.topJourneys!;
    // Five journey entries: one without readable times and one that is not an object are left out.
    expect(journeys.map((j) => j.durationMinutes)).toEqual([31, 58, 64]);

    const mixed = journeys[1]!;
    expect(mixed.legs.map((leg) => leg.mode)).toEqual([
      'walking',
      'elizabeth-line',
      'interchange-keep-sitting',
      'national-rail',
      'cycle',
    ]);
    expect(mixed.legs.map((leg) => leg.line)).toEqual([
      undefined,
      'Elizabeth line',
      undefined,
      'Greater Anglia',
      undefined,
    ]);
    const [walk, elizabeth, , rail, cycle] = mixed.legs;
    expect(walk).toMatchObject({ distanceMeters: 412, durationMinutes: 6, from: 'Cowcross Street' });
    // Rail legs carry no distance; "24" and "2140.0" are read as numbers, "false" as false.
    expect(elizabeth!.distanceMeters).toBeUndefined();
    expect(rail).toMatchObject({ durationMinutes: 24, isDisrupted: true });
    expect(rail!.distanceMeters).toBeUndefined();
    expect(cycle).toMatchObject({ distanceMeters: 2140, isDisrupted: false, to: 'Hutton Road' });
    expect(mixed).toMatchObject({
      startDateTime: '2025-11-04T09:12:00+00:00',
      arrivalDateTime: '2025-11-04T10:10:00+00:00',
      farePence: 870,
      isDisrupted: true,
      legCount: 5,
    });

    // fares[] without totalCost: the sum of the single fares (one written as a string).
    expect(journeys[0]).toMatchObject({ farePence: 340, durationMinutes: 31, isDisrupted: false });
    // No fare and no duration: no farePence, and the duration from the times.
    expect(journeys[2]!.farePence).toBeUndefined();
    expect(journeys[2]!.legs[0]).toMatchObject({ mode: 'bus', line: '25', isDisrupted: false });
  });

  it('200 with journeys: [] plus lines and stopMessages is OK with no journeys', async () => {
    const { isError, output } = await planWith(200, noJourneysResult());
    expect(isError).toBe(false);
    expect(output).toMatchObject({ success: true, code: 'OK', topJourneys: [] });
    expect(output.message).toMatch(/no journey/i);
  });

  it('journeys whose times are all unreadable: UPSTREAM_ERROR, and the server keeps serving', async () => {
    const { output } = await planWith(200, { journeys: [{ startDateTime: 'tomorrow', legs: [] }] });
    expect(output).toMatchObject({ success: false, code: 'UPSTREAM_ERROR', topJourneys: null });
    h.tfl.reset();
    const after = await h.call('planJourney', { from: 'Bank', to: 'Mile End' });
    expect(after.structured.code).toBe('OK');
  });
});

describe('planJourney: real disambiguation shapes', () => {
  it('a list side and a notidentified side: suggestions for one, the message names the other', async () => {
    const { isError, output } = await planWith(300, listAndNotIdentified());
    expect(isError).toBe(true);
    expect(output).toMatchObject({
      success: false,
      code: 'DISAMBIGUATION_REQUIRED',
      toLocationDisambiguation: null,
    });
    expect(output.fromLocationDisambiguation).toEqual([
      // A numeric ICS code and a quality written as a string are read; coordinates as strings too.
      {
        parameterValue: '1000129',
        matchQuality: 998,
        name: "King's Cross St. Pancras",
        placeType: 'StopPoint',
        lat: 51.5312,
        lon: -0.1233,
      },
      expect.objectContaining({ parameterValue: '51.53120,-0.12330', matchQuality: 640 }),
      // No place and no quality: named by its value, sorted last.
      {
        parameterValue: 'lonlat:"-0.12401,51.53002"',
        matchQuality: null,
        name: 'lonlat:"-0.12401,51.53002"',
      },
    ]);
    expect(output.message).toContain('from "Cowcross Street"');
    expect(output.message).toMatch(/no place matching to "Hutton Road"/);
  });

  it('sides without matchStatus: options still make a list', async () => {
    const { output } = await planWith(300, withoutMatchStatus());
    expect(output.code).toBe('DISAMBIGUATION_REQUIRED');
    expect(output.fromLocationDisambiguation?.map((s) => s.parameterValue)).toEqual(['1001418', '1001419']);
    expect(output.toLocationDisambiguation).toBeNull();
  });

  it('both sides notidentified (any casing): VALIDATION_ERROR naming both', async () => {
    const { output } = await planWith(300, bothNotIdentified());
    expect(output).toMatchObject({ success: false, code: 'VALIDATION_ERROR', topJourneys: null });
    expect(output.message).toContain('from "Cowcross Street" and to "Hutton Road"');
  });

  it('a disambiguation sent with 200 under the ItineraryResult $type is still a disambiguation', async () => {
    const { output } = await planWith(200, disambiguationTypedAsItinerary());
    expect(output.code).toBe('DISAMBIGUATION_REQUIRED');
    expect(output.toLocationDisambiguation?.[0]).toMatchObject({
      parameterValue: '1000248',
      name: 'Victoria',
    });
  });
});

describe('planJourney: real error bodies', () => {
  it("the gateway's 429 without Retry-After: RATE_LIMIT_EXCEEDED with the wait from its message", async () => {
    const { output } = await planWith(429, GATEWAY_429);
    expect(output).toMatchObject({ success: false, code: 'RATE_LIMIT_EXCEEDED', topJourneys: null });
    expect(output.message).toMatch(/retry after 2 s/);
  });

  it('an ApiError 400 (httpStatusCode as a string) is UPSTREAM_ERROR', async () => {
    const { output } = await planWith(400, badRequestApiError());
    expect(output).toMatchObject({ success: false, code: 'UPSTREAM_ERROR', topJourneys: null });
  });

  it('an ApiError body with 200 is UPSTREAM_ERROR, not "no journeys"', async () => {
    const { output } = await planWith(200, apiErrorWith200());
    expect(output).toMatchObject({ success: false, code: 'UPSTREAM_ERROR', topJourneys: null });
    expect(output.message).toContain('An error occurred while planning.');
  });
});

describe('planJourney: fares, ties and odd numbers', () => {
  it('totalCost wins over fares[]; an unpriced fare gives none; ties by earlier arrival; odd numbers from the times', async () => {
    const { isError, output } = await planWith(200, faresTiesAndOddNumbersResult());
    expect(isError).toBe(false);
    const journeys = output.topJourneys!;
    expect(journeys.map((j) => [j.arrivalDateTime, j.durationMinutes, j.farePence])).toEqual([
      ['2025-11-04T09:35:00+00:00', 30, undefined],
      ['2025-11-04T09:40:00+00:00', 30, 280],
      ['2025-11-04T09:42:00+00:00', 42, undefined],
    ]);
    expect(journeys[2]!.legs[0]).toMatchObject({ durationMinutes: 42 });
    expect(journeys[2]!.legs[0]!.distanceMeters).toBeUndefined();
  });
});
