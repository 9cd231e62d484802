// Parsers accept the upstreams' real wire formats: the project's fixtures (derived from real captures) always,
// and the captures themselves in ../shared/upstream/samples when that folder exists
// (a clone has none: those checks are then skipped, and the fixtures still run).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { firstPlace } from '../src/hsl/geocoding.js';
import { buildBoard, StoptimeSchema, toDeparture } from '../src/hsl/departures.js';
import { serviceAlertWarnings } from '../src/hsl/alerts.js';
import { OtpItinerarySchema, toCandidate } from '../src/hsl/itineraries.js';
import { suggestionsFor, topJourneys } from '../src/tfl/plan-journey.js';
import { DisambiguationResultSchema, isDisambiguationBody, ItineraryResultSchema } from '../src/tfl/wire.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(here, 'fixtures', name), 'utf8'));
const SHARED = path.resolve(here, '../../../../shared/upstream/samples');
const shared = fs.existsSync(SHARED);
const sample = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(SHARED, name), 'utf8'));

function stoptimesOf(body: unknown): unknown[] {
  return ((body as { data: { stop: { stoptimes: unknown[] } } }).data.stop.stoptimes ?? []) as unknown[];
}

function planNodes(body: unknown): unknown[] {
  const edges = (body as { data: { planConnection: { edges: { node: unknown }[] } } }).data.planConnection
    .edges;
  return edges.map((edge) => edge.node);
}

describe('TfL', () => {
  it('an ItineraryResult with a walking leg: London local times become instants with the right offset', () => {
    const result = ItineraryResultSchema.parse(fixture('tfl-itinerary-walking-leg.json'));
    const [journey] = topJourneys(result.journeys);
    // 01:30 on the night clocks go back is ambiguous: the first (BST, +01:00) is chosen.
    expect(journey).toMatchObject({
      durationMinutes: 100,
      startDateTime: '2024-10-27T01:30:00+01:00',
      arrivalDateTime: '2024-10-27T02:10:00+00:00',
      legCount: 1,
    });
    expect(journey!.legs[0]).toMatchObject({
      mode: 'walking',
      summary: 'Walk to Stepney Green Underground Station',
      from: 'Bank Underground Station',
      to: 'Stepney Green Underground Station',
      distanceMeters: 5120,
      isDisrupted: false,
    });
    expect(journey!.legs[0]!.line).toBeUndefined();
  });

  it('a 300 DisambiguationResult: list suggestions by matchQuality, blank parameterValue dropped', () => {
    const body = fixture('tfl-disambiguation-300.json');
    expect(isDisambiguationBody(body)).toBe(true);
    const result = DisambiguationResultSchema.parse(body);
    expect(suggestionsFor(result.fromLocationDisambiguation)).toBeNull();
    expect(suggestionsFor(result.toLocationDisambiguation)).toEqual([
      expect.objectContaining({ parameterValue: 'lonlat:"-0.13410,51.56430"', matchQuality: 999 }),
      expect.objectContaining({
        parameterValue: '1000021',
        name: 'Archway, Archway',
        placeType: 'StopPoint',
      }),
    ]);
  });

  it.runIf(shared)('the real captures parse (shared samples)', () => {
    const itinerary = ItineraryResultSchema.parse(sample('tfl-itinerary-walking-leg-real-2015.trimmed.json'));
    expect(topJourneys(itinerary.journeys)[0]).toMatchObject({ startDateTime: '2015-10-21T16:30:00+01:00' });
    for (const name of [
      'tfl-disambiguation-300-apiportal-example.json',
      'tfl-disambiguation-300-fixture-highgate.json',
    ]) {
      expect(isDisambiguationBody(sample(name))).toBe(true);
      expect(DisambiguationResultSchema.safeParse(sample(name)).success).toBe(true);
    }
    const highgate = DisambiguationResultSchema.parse(sample('tfl-disambiguation-300-fixture-highgate.json'));
    expect(suggestionsFor(highgate.toLocationDisambiguation)?.[0]?.parameterValue).toBe('1000109');
  });
});

describe('Digitransit', () => {
  it('stoptimes: serviceDay + seconds, realtime delay and cancellation', () => {
    const stoptimes = stoptimesOf(fixture('hsl-stop-departures.json')).map((s) => StoptimeSchema.parse(s));
    const [updated, cancelled, scheduled] = stoptimes.map(toDeparture);
    // 2024-06-10 00:00 Helsinki (21:00Z the day before) + 36300 s = 07:05Z.
    expect(updated!.departure).toMatchObject({
      line: '159',
      mode: 'BUS',
      destination: 'Matinkylä (M)',
      scheduledTime: '2024-06-10T07:05:00Z',
      realtimeTime: '2024-06-10T07:06:15Z',
      delaySeconds: 75,
      status: 'delayed',
    });
    expect(cancelled!.departure.status).toBe('cancelled');
    expect(scheduled!.departure.status).toBe('scheduled_only');
    const board = buildBoard(stoptimes, { limit: 2, windowEndMs: Infinity, requestReceivedMs: 0 });
    expect(board).toMatchObject({ truncated: true, realtimeUsed: true });
  });

  it('planConnection: estimated times, delays and disruption from OTP durations', () => {
    const [node] = planNodes(fixture('otp-plan-connection.json'));
    const candidate = toCandidate(OtpItinerarySchema.parse(node));
    const bus = candidate.itinerary.legs.find((leg) => leg.mode === 'BUS')!;
    expect(bus).toMatchObject({ transit: true, delaySeconds: 600, status: 'delayed', headsign: 'Pasila' });
    expect(bus.startTime).not.toBe(bus.scheduledStartTime);
    expect(candidate.disrupted).toBe(true);
    expect(candidate.itinerary.fingerprint).toMatch(/^sha1:[0-9a-f]{40}$/);
  });

  it("planConnection: a leg's real-shaped alert (untranslated, epoch-second validity) as a service alert", () => {
    const [node] = planNodes(fixture('otp-plan-connection.json'));
    const { legAlerts, itinerary } = toCandidate(OtpItinerarySchema.parse(node));
    const index = legAlerts.findIndex((alerts) => alerts.length > 0);
    const alerts = legAlerts[index]!;
    const limits = { max: 5, textMaxChars: 600 };
    const during = { startMs: 1676459008_000, endMs: 1676459008_000 + 60_000 };
    const [warning] = serviceAlertWarnings(
      [{ alerts, affects: { leg: { itinerary: 0, leg: index } }, window: during }],
      { language: 'sv', limits },
    );
    expect(warning).toEqual({
      code: 'service-alert',
      message: 'A header',
      alert: {
        id: 'QWxlcnQ6Rjphbi1hbGVydA',
        header: 'A header',
        description: 'A description',
        severity: 'severe',
        effect: 'REDUCED_SERVICE',
        cause: 'MAINTENANCE',
        validFrom: '2023-02-15T11:03:28Z',
        validUntil: '2023-02-16T11:03:28Z',
        url: 'https://example.com',
        affects: { legs: [{ itinerary: 0, leg: index }] },
      },
    });
    // The leg itself ran in 2020, long before the alert: not shown with it.
    const leg = itinerary.legs[index]!;
    const legTime = { startMs: Date.parse(leg.startTime), endMs: Date.parse(leg.endTime) };
    expect(
      serviceAlertWarnings([{ alerts, affects: { leg: { itinerary: 0, leg: index } }, window: legTime }], {
        language: 'sv',
        limits,
      }),
    ).toEqual([]);
  });

  it('Pelias: coordinates are [lon, lat]; name and label', () => {
    expect(firstPlace(fixture('pelias-search.json'))).toEqual({
      coordinate: { lat: 60.1687, lon: 24.931 },
      name: 'Kamppi',
      address: 'Kamppi, Helsinki',
    });
  });

  it.runIf(shared)('the real captures parse (shared samples)', () => {
    for (const s of stoptimesOf(sample('hsl-stop-stoptimesWithoutPatterns-real-2022.trimmed.json'))) {
      const departure = toDeparture(StoptimeSchema.parse(s)).departure;
      expect(departure.status).toBe('scheduled_only');
      expect(departure.line).not.toBe('');
    }
    for (const node of planNodes(sample('otp-planConnection-extended.expected-response.json'))) {
      expect(toCandidate(OtpItinerarySchema.parse(node)).itinerary.legs.length).toBeGreaterThan(0);
    }
    expect(firstPlace(sample('digitransit-geocoding-search-airport-real.trimmed.json'))).toMatchObject({
      coordinate: { lat: 60.316841, lon: 24.966793 },
      name: 'Airport',
    });
  });
});
