// wire.ts's leniency rules, each on the recorded TfL journey answer (the TfL stand-in's capture) with one
// field or item changed the way real answers vary: the journey planner's body is read from a table of
// field readers (wire-record.ts), so these pin that the table keeps every rule the zod blocks keep.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DisambiguationResultSchema, ItineraryResultSchema } from '../src/tfl/wire.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited captures

const CAPTURE = createRequire(import.meta.url).resolve(
  '@switchyard/upstream-mocks/fixtures/tfl/itinerary-result.json',
);
const DISAMBIGUATION = createRequire(import.meta.url).resolve(
  '@switchyard/upstream-mocks/fixtures/tfl/disambiguation-300.json',
);
const capture = (file = CAPTURE): Json => JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
const journeysOf = (body: Json) => ItineraryResultSchema.parse(body).journeys;

const LEG_FIELDS = [
  'duration',
  'instruction',
  'departureTime',
  'arrivalTime',
  'departurePoint',
  'arrivalPoint',
  'routeOptions',
  'mode',
  'distance',
  'isDisrupted',
];

describe('the TfL journey answer is read leniently', () => {
  it('extra fields are ignored, not copied', () => {
    const body = capture();
    body.journeys[0].legs[0].someFieldTflAddsLater = { nested: true };
    const [journey] = journeysOf(body);
    expect(Object.keys(body.journeys[0].legs[0])).toContain('path'); // the capture has fields nobody reads
    for (const leg of journey!.legs) {
      expect(Object.keys(leg).every((key) => LEG_FIELDS.includes(key))).toBe(true);
    }
    expect(journey).not.toHaveProperty('$type');
    expect(journey!.legs[0]!.departurePoint).not.toHaveProperty('$type');
  });

  it('null stands for absent: the field is undefined (a list empty) and its record stays', () => {
    const body = capture();
    const leg = body.journeys[0].legs[0];
    Object.assign(leg, {
      distance: null,
      instruction: null,
      routeOptions: null,
      mode: null,
      isDisrupted: null,
    });
    body.journeys[0].fare = null;
    const [journey] = journeysOf(body);
    const read = journey!.legs[0]!;
    expect(journey!.legs).toHaveLength(body.journeys[0].legs.length);
    expect([read.distance, read.instruction, read.mode, read.isDisrupted, journey!.fare]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(read.routeOptions).toEqual([]);
    expect(read.departureTime).toBe(leg.departureTime);
  });

  it('numbers written as strings are read as numbers', () => {
    const body = capture();
    Object.assign(body.journeys[0].legs[0], { duration: '12', distance: ' 850.5 ' });
    body.journeys[0].fare = { totalCost: '280', fares: [{ cost: '1.4e2' }] };
    body.journeys[0].legs[0].departurePoint.lat = '51.5';
    const [journey] = journeysOf(body);
    expect(journey!.legs[0]).toMatchObject({ duration: 12, distance: 850.5, departurePoint: { lat: 51.5 } });
    expect(journey!.fare).toEqual({ totalCost: 280, fares: [{ cost: 140 }] });
  });

  it('ids and names sent as numbers are read as text', () => {
    const body = capture(DISAMBIGUATION);
    const option = body.toLocationDisambiguation.disambiguationOptions[0];
    Object.assign(option, { parameterValue: 1000123, uri: 7 });
    const journeyBody = capture();
    journeyBody.journeys[0].legs[0].mode.id = 12;
    const read = DisambiguationResultSchema.parse(body).toLocationDisambiguation!.disambiguationOptions[0]!;
    expect([read.parameterValue, read.uri]).toEqual(['1000123', '7']);
    expect(journeysOf(journeyBody)[0]!.legs[0]!.mode!.id).toBe('12');
  });

  it('one odd item leaves out only that item, in every list', () => {
    const body = capture();
    const journeys = body.journeys.length;
    const legs = body.journeys[0].legs.length;
    body.journeys.splice(1, 0, 'a journey as text', null, 42, [body.journeys[0]]);
    body.journeys[0].legs.push(null, 'a leg as text');
    body.journeys[0].legs[0].routeOptions = [7, { name: 'Central' }, null];
    body.journeys[0].fare = { fares: [{ cost: 150 }, 'odd', { cost: 'n/a' }] };
    const read = journeysOf(body);
    expect(read).toHaveLength(journeys);
    expect(read[0]!.legs).toHaveLength(legs);
    expect(read[0]!.legs[0]!.routeOptions).toEqual([{ name: 'Central' }]);
    expect(read[0]!.fare!.fares).toEqual([{ cost: 150 }, {}]);
  });

  it('optional fields that cannot be read become undefined, the rest of their record is kept', () => {
    const body = capture();
    const leg = body.journeys[0].legs[0];
    Object.assign(leg, {
      duration: 'n/a',
      distance: { metres: 10 },
      isDisrupted: 'maybe',
      departurePoint: 'Bank',
      arrivalTime: ['2025-07-15T08:00:00'],
      instruction: { summary: { text: 'walk' } },
    });
    const read = journeysOf(body)[0]!.legs[0]!;
    expect(read.duration).toBeUndefined();
    expect(read.distance).toBeUndefined();
    expect(read.isDisrupted).toBeUndefined();
    expect(read.departurePoint).toBeUndefined();
    expect(read.arrivalTime).toBeUndefined();
    expect(read.instruction).toEqual({});
    expect(read.departureTime).toBe(leg.departureTime);
    expect(read.arrivalPoint!.commonName).toBe(leg.arrivalPoint.commonName);
  });

  it('flags are true/false or "true"/"false" in any case; anything else is no flag', () => {
    const body = capture();
    const flags = [' TRUE ', 'false', true, 1, 'yes'];
    flags.forEach((flag, index) => {
      if (body.journeys[0].legs[index] !== undefined) body.journeys[0].legs[index].isDisrupted = flag;
      else body.journeys[0].legs.push({ ...body.journeys[0].legs[0], isDisrupted: flag });
    });
    const read = journeysOf(body)[0]!
      .legs.slice(0, flags.length)
      .map((leg) => leg.isDisrupted);
    expect(read).toEqual([true, false, true, undefined, undefined]);
  });

  it('a body that is not a record does not fit; one without journeys has none', () => {
    for (const body of [null, [], 'journeys', 3]) {
      expect(ItineraryResultSchema.safeParse(body).success).toBe(false);
      expect(DisambiguationResultSchema.safeParse(body).success).toBe(false);
    }
    expect(journeysOf({ $type: 'ItineraryResult' })).toEqual([]);
  });
});
