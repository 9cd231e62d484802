// The OTP itinerary, OTP alert and TfL arrival, line status and stop answers are read from field tables
// (wire-record.ts) rather than zod blocks per field: these pin that the tables keep what the zod schemas
// required (a record without a required field is left out, an itinerary with one unreadable leg is left out
// whole) and what they let through (extra fields dropped, null and unreadable optional fields left out).
import { describe, expect, it } from 'vitest';
import { OtpAlertsSchema } from '../src/hsl/alerts.js';
import { itineraryNodes, OtpItinerarySchema } from '../src/hsl/itineraries.js';
import { PredictionListSchema } from '../src/tfl/arrivals-wire.js';
import { LineListSchema } from '../src/tfl/line-status-wire.js';
import { SearchResponseSchema, StopPointsResponseSchema } from '../src/tfl/stops-wire.js';

const place = (name: string) => ({ name, lat: 60.17, lon: '24.94', stop: null, extra: 1 });
const leg = (overrides: Record<string, unknown> = {}) => ({
  mode: 'BUS',
  transitLeg: 'true',
  start: { scheduledTime: '2025-09-15T10:00:00Z', estimated: null },
  end: { scheduledTime: '2025-09-15T10:10:00Z', estimated: { time: '2025-09-15T10:12:00Z' } },
  from: place('A'),
  to: place('B'),
  route: { shortName: 55 },
  trip: null,
  alerts: null,
  ...overrides,
});

describe('OTP itineraries from field tables', () => {
  it('reads leniently: numbers and flags as strings, null blocks left out, extra fields dropped', () => {
    const read = OtpItinerarySchema.parse({ duration: '600', legs: [leg()], $extra: true });
    expect(read).not.toHaveProperty('$extra');
    expect(read.duration).toBe(600);
    const [first] = read.legs;
    expect(first).toMatchObject({ transitLeg: true, route: { shortName: '55' }, alerts: [] });
    expect(first!.from).toEqual({ name: 'A', lat: 60.17, lon: 24.94 });
    // Instants are read as epoch milliseconds (parsed once).
    expect(first!.start).toEqual({ scheduledTime: Date.parse('2025-09-15T10:00:00Z') });
    expect(first!.end.estimated).toEqual({ time: Date.parse('2025-09-15T10:12:00Z') });
    expect(first).not.toHaveProperty('trip');
    const unreadableEstimate = OtpItinerarySchema.parse({
      legs: [leg({ end: { scheduledTime: '2025-09-15T10:10:00Z', estimated: { time: 'soon' } } })],
    });
    expect(unreadableEstimate.legs[0]!.end).toEqual({
      scheduledTime: Date.parse('2025-09-15T10:10:00Z'),
      estimated: {},
    });
  });

  it('an itinerary is left out whole when one leg lacks a required field, or when it has no legs', () => {
    const unreadable = [
      { legs: [leg(), leg({ from: { name: 'A', lat: null, lon: 24.9 } })] },
      { legs: [leg({ start: { estimated: { time: '2025-09-15T10:00:00Z' } } })] },
      { legs: [leg({ end: null })] },
      { legs: [leg(), 'not a leg'] },
      { legs: [] },
      { legs: null },
    ];
    for (const node of unreadable) expect(OtpItinerarySchema.safeParse(node).success).toBe(false);
    const edges = [{ node: { legs: [leg()] } }, ...unreadable.map((node) => ({ node })), { node: null }, 7];
    const { nodes, received } = itineraryNodes(edges);
    expect(received).toBe(edges.length);
    expect(nodes).toHaveLength(1);
  });
});

describe('OTP alerts from a field table', () => {
  it('keeps alerts that are records, epoch seconds only within 1970..2100, translations that are records', () => {
    const alerts = OtpAlertsSchema.parse([
      {
        id: 'a1',
        alertHash: '12',
        effectiveStartDate: '1757930400',
        effectiveEndDate: 99_999_999_999,
        alertHeaderTextTranslations: [{ text: 'Hei', language: 'fi' }, null, 'x'],
      },
      null,
      'not an alert',
    ]);
    expect(alerts).toEqual([
      {
        id: 'a1',
        alertHash: 12,
        effectiveStartDate: 1_757_930_400,
        alertHeaderTextTranslations: [{ text: 'Hei', language: 'fi' }],
        alertDescriptionTextTranslations: [],
        alertUrlTranslations: [],
      },
    ]);
    expect(OtpAlertsSchema.parse(undefined)).toEqual([]);
  });
});

describe('TfL London answers from field tables', () => {
  it('arrivals: the body must be a list; items that are not records are left out', () => {
    expect(PredictionListSchema.safeParse({ items: [] }).success).toBe(false);
    const predictions = PredictionListSchema.parse([
      { lineId: 'victoria', timeToStation: '120', operationType: 1, platformName: null, $type: 'x' },
      null,
      ['a list'],
    ]);
    expect(predictions).toEqual([{ lineId: 'victoria', timeToStation: 120, operationType: 1 }]);
  });

  it('line status: a line without an id, or a status without a severity, is left out', () => {
    expect(LineListSchema.safeParse({}).success).toBe(false);
    const lines = LineListSchema.parse([
      {
        id: 'central',
        name: 'Central',
        lineStatuses: [
          { statusSeverity: '10', validityPeriods: [{ isNow: 'TRUE' }], disruption: null },
          { statusSeverityDescription: 'no severity' },
        ],
      },
      { id: '', name: 'empty id' },
      { name: 'no id' },
    ]);
    expect(lines).toEqual([
      {
        id: 'central',
        name: 'Central',
        lineStatuses: [{ statusSeverity: 10, validityPeriods: [{ isNow: true }] }],
      },
    ]);
  });

  it('stops: a stop without an id, a name or a position is left out; lines without ids too', () => {
    const stop = { id: '940GZZLUOXC', name: 'Oxford Circus', lat: 51.515, lon: -0.142 };
    const { matches } = SearchResponseSchema.parse({
      total: '3',
      matches: [
        { ...stop, modes: ['tube', 7], lines: [{ id: 'victoria' }, { id: '' }, {}] },
        { ...stop, name: '' },
        { ...stop, lat: 'north' },
      ],
    });
    expect(matches).toEqual([{ ...stop, modes: ['tube'], lines: [{ id: 'victoria' }] }]);
    const { stopPoints } = StopPointsResponseSchema.parse({
      stopPoints: [
        { commonName: 'Oxford Circus', naptanId: 940, lat: '51.5', lon: -0.14, distance: 'far' },
        { naptanId: 'x', lat: 51.5, lon: -0.14 },
      ],
    });
    expect(stopPoints).toEqual([
      { commonName: 'Oxford Circus', naptanId: '940', lat: 51.5, lon: -0.14, modes: [], lines: [] },
    ]);
    expect(StopPointsResponseSchema.safeParse([]).success).toBe(false);
  });
});
