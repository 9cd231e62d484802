// The seeds' business rules as plain functions, at their boundaries.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildBoard, StoptimeSchema, type Stoptime } from '../src/hsl/departures.js';
import {
  dedupe,
  fingerprintOf,
  scheduleTypeOf,
  toCandidate,
  OtpItinerarySchema,
  type OtpItinerary,
} from '../src/hsl/itineraries.js';
import { relaxConstraints, walkReluctanceFor } from '../src/hsl/plan-request.js';
import { dataFreshness, departureStatus, toTransitMode } from '../src/hsl/realtime.js';
import type { PlanConstraints } from '@switchyard/contracts/transit';

describe('departure status precedence (seed 001 rule 2)', () => {
  it.each([
    [{ cancelled: true, delaySeconds: 600 }, 'cancelled'],
    [{ cancelled: true, delaySeconds: undefined }, 'cancelled'],
    [{ cancelled: false, delaySeconds: 61 }, 'delayed'],
    [{ cancelled: false, delaySeconds: -61 }, 'delayed'],
    [{ cancelled: false, delaySeconds: 60 }, 'on_time'],
    [{ cancelled: false, delaySeconds: -60 }, 'on_time'],
    [{ cancelled: false, delaySeconds: 0 }, 'on_time'],
    [{ cancelled: false, delaySeconds: undefined }, 'scheduled_only'],
  ] as const)('%j -> %s', (facts, status) => {
    expect(departureStatus(facts)).toBe(status);
  });
});

describe('dataFreshness (seed 001 rule 6, seed 003)', () => {
  it('is the latest realtime update, or the request time when that is later', () => {
    const request = Date.parse('2025-09-15T10:00:00Z');
    expect(dataFreshness(request, [])).toBe('2025-09-15T10:00:00Z');
    expect(dataFreshness(request, ['2025-09-15T10:00:30Z', '2025-09-15T09:59:00Z', undefined])).toBe(
      '2025-09-15T10:00:30Z',
    );
    expect(dataFreshness(request, ['2025-09-15T09:00:00Z'])).toBe('2025-09-15T10:00:00Z');
  });
});

function stoptime(scheduled: number, options: { delay?: number; state?: string } = {}): Stoptime {
  return {
    serviceDay: 1_757_883_600,
    scheduledDeparture: scheduled,
    realtimeDeparture: scheduled + (options.delay ?? 0),
    realtime: options.state !== undefined && options.state !== 'SCHEDULED',
    realtimeState: options.state ?? 'SCHEDULED',
    headsign: 'Kamppi',
    trip: { alerts: [], route: { shortName: '20', mode: 'BUS' } },
  };
}

describe('departure board (seed 001 rules 3-5)', () => {
  const windowEndMs = (1_757_883_600 + 40_000) * 1000;

  it('sorts by realtime else scheduled time, then applies the limit and flags truncation', () => {
    const board = buildBoard(
      [
        stoptime(36_000, { delay: 600, state: 'UPDATED' }),
        stoptime(36_300),
        stoptime(36_100, { state: 'CANCELED' }),
      ],
      { limit: 2, windowEndMs, requestReceivedMs: 0 },
    );
    expect(board.departures.map((d) => d.status)).toEqual(['cancelled', 'scheduled_only']);
    expect(board.truncated).toBe(true);
    expect(board.realtimeUsed).toBe(true);
  });

  it('realtimeUsed is false without realtime times or cancellations; the window end is enforced, and in it', () => {
    const board = buildBoard([stoptime(36_000), stoptime(39_000), stoptime(40_000), stoptime(41_000)], {
      limit: 10,
      windowEndMs,
      requestReceivedMs: 0,
    });
    expect(board.departures).toHaveLength(3);
    expect(board).toMatchObject({ truncated: false, realtimeUsed: false });
  });
});

describe('schedule type (seed 003 rule 4)', () => {
  it('realtime when all transit legs have realtime, mixed when some, scheduled when none or no transit', () => {
    // (transit legs with realtime data, transit legs)
    expect(scheduleTypeOf(2, 2)).toBe('realtime');
    expect(scheduleTypeOf(1, 2)).toBe('mixed');
    expect(scheduleTypeOf(0, 2)).toBe('scheduled');
    expect(scheduleTypeOf(0, 0)).toBe('scheduled');
  });
});

function itinerary(delaySeconds: number | undefined, state = 'UPDATED'): OtpItinerary {
  const scheduled = Date.parse('2025-09-15T10:00:00Z');
  const iso = (ms: number) => new Date(ms).toISOString();
  const time = (ms: number) => ({
    scheduledTime: iso(ms),
    estimated: delaySeconds === undefined ? null : { time: iso(ms + delaySeconds * 1000) },
  });
  return OtpItinerarySchema.parse({
    start: iso(scheduled),
    end: iso(scheduled + 600_000),
    legs: [
      {
        mode: 'TRAM',
        transitLeg: true,
        realTime: delaySeconds !== undefined,
        realtimeState: delaySeconds === undefined ? 'SCHEDULED' : state,
        start: time(scheduled),
        end: time(scheduled + 600_000),
        from: { name: 'A', lat: 60.1, lon: 24.9, stop: { gtfsId: 'HSL:1' } },
        to: { name: 'B', lat: 60.2, lon: 24.9, stop: { gtfsId: 'HSL:2' } },
        route: { shortName: '4' },
      },
    ],
  });
}

describe('itinerary realtime mapping and disruption (seed 003)', () => {
  it.each([
    [300, false, 'delayed'],
    [301, true, 'delayed'],
    [60, false, 'on_time'],
    [-61, false, 'delayed'],
    [undefined, false, 'scheduled_only'],
  ])('delay %s s: disrupted %s, status %s', (delay, disrupted, status) => {
    const candidate = toCandidate(itinerary(delay));
    expect(candidate.disrupted).toBe(disrupted);
    expect(candidate.itinerary.legs[0]!.status).toBe(status);
  });

  it('a cancelled leg is cancelled and disrupted', () => {
    const candidate = toCandidate(itinerary(0, 'CANCELED'));
    expect(candidate.itinerary.legs[0]!.status).toBe('cancelled');
    expect(candidate.disrupted).toBe(true);
  });

  it('fingerprints ignore realtime estimates; dedupe keeps the first of each', () => {
    const a = toCandidate(itinerary(30));
    const b = toCandidate(itinerary(120));
    expect(a.itinerary.fingerprint).toBe(b.itinerary.fingerprint);
    expect(a.itinerary.fingerprint).toBe(fingerprintOf(b.itinerary.legs));
    const other = toCandidate({
      ...itinerary(30),
      legs: [{ ...itinerary(30).legs[0]!, route: { shortName: '7' } }],
    });
    expect(other.itinerary.fingerprint).not.toBe(a.itinerary.fingerprint);
    expect(dedupe([a, b, other])).toEqual([a, other]);
  });

  it('a fingerprint is the sha1 of the legs joined as before: fields by |, legs by newlines', () => {
    const leg = toCandidate(itinerary(30)).itinerary.legs[0]!;
    const legs = [
      leg,
      { ...leg, line: undefined, from: { ...leg.from, stopId: undefined, lat: 60.1, lon: 24.9 } },
    ];
    const joined = [
      [
        leg.mode,
        leg.line,
        leg.from.stopId ?? '',
        leg.to.stopId ?? '',
        leg.scheduledStartTime,
        leg.scheduledEndTime,
      ],
      [leg.mode, '', '60.10000,24.90000', leg.to.stopId ?? '', leg.scheduledStartTime, leg.scheduledEndTime],
    ]
      .map((fields) => fields.join('|'))
      .join('\n');
    expect(fingerprintOf(legs)).toBe(`sha1:${createHash('sha1').update(joined).digest('hex')}`);
  });

  it('a fingerprint hashes UTF-8 text and legs of any length as the joined form', () => {
    const leg = toCandidate(itinerary(30)).itinerary.legs[0]!;
    const longStop = `HSL:${'9'.repeat(5000)}`;
    const legs = [
      { ...leg, line: 'Ä1 → Töölö 🚋' },
      { ...leg, line: '\ud800', from: { ...leg.from, stopId: longStop } },
    ];
    const joined = legs
      .map((l) =>
        [l.mode, l.line, l.from.stopId, l.to.stopId, l.scheduledStartTime, l.scheduledEndTime].join('|'),
      )
      .join('\n');
    const expected = `sha1:${createHash('sha1').update(joined).digest('hex')}`;
    expect(fingerprintOf(legs)).toBe(expected);
    // The buffer it writes into is reused: a shorter fingerprint after a long one is still its own.
    expect(fingerprintOf([leg])).toBe(toCandidate(itinerary(30)).itinerary.fingerprint);
    expect(fingerprintOf(legs)).toBe(expected);
  });
});

describe('plan request mapping', () => {
  const base: PlanConstraints = {
    optimize: 'balanced',
    maxWalkingDistance: 1500,
    maxTransfers: 4,
    accessibility: { stepFree: false, lowWalkingDistance: false },
    language: 'en',
  };

  it('relaxes to balanced and +25% walking, capped at 3000 m (seed 003 rule 2)', () => {
    expect(relaxConstraints({ ...base, optimize: 'shortest_time', maxWalkingDistance: 1000 })).toMatchObject({
      optimize: 'balanced',
      maxWalkingDistance: 1250,
    });
    expect(relaxConstraints({ ...base, maxWalkingDistance: 2800 }).maxWalkingDistance).toBe(3000);
  });

  it('shorter walking limits mean higher walk reluctance', () => {
    expect(walkReluctanceFor(base)).toBe(2);
    expect(walkReluctanceFor({ ...base, maxWalkingDistance: 750 })).toBe(4);
    expect(walkReluctanceFor({ ...base, maxWalkingDistance: 100 })).toBe(8);
    expect(walkReluctanceFor({ ...base, maxWalkingDistance: 3000 })).toBe(2);
    expect(walkReluctanceFor({ ...base, optimize: 'shortest_time' })).toBe(1);
  });

  it('maps OTP modes, unknown ones to OTHER', () => {
    expect(toTransitMode('SUBWAY')).toBe('SUBWAY');
    expect(toTransitMode('FLEXIBLE')).toBe('FLEX');
    expect(toTransitMode('HOVERCRAFT')).toBe('OTHER');
    expect(toTransitMode(null)).toBe('OTHER');
  });
});

describe('unreadable upstream values are left out, not crashed on', () => {
  it('a stoptime with an absurd service day or offset is not a departure', () => {
    const base = { serviceDay: 1_757_883_600, scheduledDeparture: 36_000, realtimeState: 'SCHEDULED' };
    expect(StoptimeSchema.safeParse(base).success).toBe(true);
    expect(StoptimeSchema.safeParse({ ...base, serviceDay: 1e20 }).success).toBe(false);
    expect(StoptimeSchema.safeParse({ ...base, scheduledDeparture: 9e15 }).success).toBe(false);
    // An unreadable realtime value only loses the realtime part.
    expect(StoptimeSchema.parse({ ...base, realtimeDeparture: 9e15 }).realtimeDeparture).toBeUndefined();
  });

  it('an itinerary leg whose scheduled time is not a date-time makes the itinerary unreadable', () => {
    const leg = (scheduledTime: string) => ({
      mode: 'BUS',
      start: { scheduledTime },
      end: { scheduledTime: '2025-09-15T10:10:00Z' },
      from: { lat: 60.1, lon: 24.9 },
      to: { lat: 60.2, lon: 24.9 },
    });
    expect(OtpItinerarySchema.safeParse({ legs: [leg('2025-09-15T10:00:00Z')] }).success).toBe(true);
    expect(OtpItinerarySchema.safeParse({ legs: [leg('soon')] }).success).toBe(false);
  });
});
