// get_departures, plan_trip and find_stops against Digitransit and Pelias bodies in shapes real upstreams
// produce (see fixtures/hsl-real-shapes.ts for where each comes from), through a real MCP Client and the
// loopback Digitransit mock. Strict output validation is on.
import {
  FindStopsOutputSchema,
  GetDeparturesOutputSchema,
  HslErrorPayloadSchema,
  PlanTripOutputSchema,
} from '@switchyard/contracts/transit';
import { contractErrorOf } from '@switchyard/server-kit/testing';
import { otpReply, reply } from '@switchyard/upstream-mocks';
import { describe, expect, it } from 'vitest';
import { NO_ITINERARY_HINT } from '../src/hsl/routing-errors.js';
import {
  dataFetchingErrors,
  featureWithoutLabel,
  featureWithoutName,
  nearbyStops,
  realShapesPlan,
  realtimeStatesBoard,
  routingErrorPlan,
  unreadablePlan,
  VALIDATION_ERRORS,
} from './fixtures/hsl-real-shapes.js';
import { useHarness } from './helpers.js';

const h = useHarness();

const KAMPPI = { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } } as const;
const PASILA = { type: 'coords', value: { lat: 60.1989, lon: 24.9325 } } as const;

/** Routing answers with `body` as it is: shapes of other OTP versions and forks that the schema would refuse. */
function routingAnswers(body: (nowMs: number) => unknown): void {
  h.digitransit.scenario((_request, { now }) => reply.json(200, body(now.getTime())));
}

/**
 * Routing answers as this OTP would: `body`'s data cut to the fields transit's query selects (otpReply), so a
 * field transit reads but does not ask for is missing here as it would be upstream.
 */
function otpAnswers(body: (nowMs: number) => { data: Record<string, unknown> }): void {
  h.digitransit.scenario((request, { now }) => otpReply(request, body(now.getTime())));
}

describe('get_departures: realtime states and nullable fields', () => {
  it('ADDED, MODIFIED, UPDATED, CANCELED, SCHEDULED, after-midnight, no trip; unreadable stoptimes left out', async () => {
    routingAnswers(realtimeStatesBoard);
    const answer = await h.call('get_departures', { stop: { type: 'id', value: 'HSL:1030701' } });
    expect(answer.isError).toBe(false);
    const output = GetDeparturesOutputSchema.parse(answer.structured);
    expect(output).toMatchObject({ stopId: 'HSL:1030701', stopName: 'Kauppatori', realtimeUsed: true });
    expect(
      output.departures.map((d) => [d.line, d.mode, d.destination, d.status, d.delaySeconds ?? null]),
    ).toEqual([
      ['19', 'FERRY', 'Suomenlinna', 'on_time', 0],
      ['K', 'RAIL', 'Kerava', 'delayed', 90],
      ['M2', 'SUBWAY', 'Vuosaari', 'on_time', -20],
      ['2', 'TRAM', 'Kamppi', 'cancelled', null],
      ['K1', 'OTHER', 'Korkeasaari', 'scheduled_only', null],
      ['N73', 'BUS', 'Tapanila', 'scheduled_only', null],
      ['', 'OTHER', 'Lauttasaari', 'delayed', 200],
    ]);
    const [added, modified, , cancelled, other, overnight] = output.departures;
    expect(added!.realtimeTime).toBe(added!.scheduledTime);
    expect(modified!.platform).toBe('4');
    expect(cancelled!.realtimeTime).toBeUndefined();
    expect(other!.platform).toBeUndefined();
    // Counted from the previous service day, it still lands 13 minutes from now.
    const minutesAhead = (Date.parse(overnight!.scheduledTime) - Date.now()) / 60_000;
    expect(minutesAhead).toBeGreaterThan(11);
    expect(minutesAhead).toBeLessThan(14);
  });

  it('the realtime flag wins over the state; without it MODIFIED counts; the stop headsign names the destination; exactly limit is not truncated', async () => {
    otpAnswers((nowMs) => {
      const serviceDay = Math.floor(nowMs / 1000) - 3600;
      const at = (offset: number) => 3600 + offset;
      const route = (shortName: string) => ({ gtfsId: `HSL:${shortName}`, shortName, mode: 'BUS' });
      return {
        data: {
          stop: {
            gtfsId: 'HSL:1040129',
            name: 'Rautatientori',
            stoptimesWithoutPatterns: [
              // Flagged not realtime: an UPDATED state and a realtime time do not make it realtime.
              {
                serviceDay,
                scheduledDeparture: at(120),
                realtimeDeparture: at(240),
                realtime: false,
                realtimeState: 'UPDATED',
                headsign: 'Kamppi',
                trip: { tripHeadsign: 'Kamppi', route: route('55') },
              },
              // No flag: MODIFIED counts as realtime (90 s late).
              {
                serviceDay,
                scheduledDeparture: at(300),
                realtimeDeparture: at(390),
                realtimeState: 'MODIFIED',
                headsign: 'Pasila',
                trip: { tripHeadsign: 'Pasila', route: route('56') },
              },
              // The stop headsign (where it goes from here) wins over the trip's.
              {
                serviceDay,
                scheduledDeparture: at(420),
                realtimeDeparture: at(420),
                realtime: false,
                realtimeState: 'SCHEDULED',
                headsign: 'Pasila via Kallio',
                trip: { tripHeadsign: 'Kallio', route: route('57') },
              },
            ],
          },
        },
      };
    });
    const answer = await h.call('get_departures', { stop: { type: 'id', value: 'HSL:1040129' }, limit: 3 });
    const output = GetDeparturesOutputSchema.parse(answer.structured);
    expect(output.departures.map((d) => [d.line, d.destination, d.status, d.delaySeconds ?? null])).toEqual([
      ['55', 'Kamppi', 'scheduled_only', null],
      ['56', 'Pasila', 'delayed', 90],
      ['57', 'Pasila via Kallio', 'scheduled_only', null],
    ]);
    expect(output.departures[0]!.realtimeTime).toBeUndefined();
    expect(output.warnings).toBeUndefined();
  });

  it('GraphQL errors with path, locations and extensions (partial data): upstream-error', async () => {
    h.digitransit.scenario(() => reply.json(200, dataFetchingErrors('stop')));
    const error = contractErrorOf(
      await h.call('get_departures', { stop: { type: 'id', value: 'HSL:1030701' } }),
      HslErrorPayloadSchema,
    );
    expect(error.code).toBe('upstream-error');
    expect(error.message).toContain('Timetable service temporarily unavailable');
  });

  it('a GraphQL validation error (200, errors, no data): upstream-error, and the server keeps serving', async () => {
    h.digitransit.scenario(() => reply.json(200, VALIDATION_ERRORS), { times: 1 });
    const error = contractErrorOf(
      await h.call('get_departures', { stop: { type: 'id', value: 'HSL:1040129' } }),
      HslErrorPayloadSchema,
    );
    expect(error.code).toBe('upstream-error');
    const after = await h.call('get_departures', { stop: { type: 'id', value: 'HSL:1040129' } });
    expect(after.isError).toBe(false);
  });
});

describe('plan_trip: real planConnection shapes', () => {
  it('FERRY realTime without estimate, MODIFIED RAIL, ADDED CARPOOL with null route and trip, AIRPLANE, extra fields', async () => {
    routingAnswers(realShapesPlan);
    const answer = await h.call('plan_trip', { origin: KAMPPI, destination: PASILA, limit: 3 });
    expect(answer.isError).toBe(false);
    const output = PlanTripOutputSchema.parse(answer.structured);
    // The itinerary with a leg lacking coordinates is left out; WALKING_BETTER_THAN_TRANSIT does not stop
    // the itineraries OTP found anyway.
    expect(output.itineraries).toHaveLength(3);
    const [ferry, rail, flight] = output.itineraries;
    expect(ferry!.legs.map((leg) => [leg.mode, leg.transit, leg.line ?? null, leg.status])).toEqual([
      ['WALK', false, null, 'scheduled_only'],
      ['FERRY', true, '19', 'on_time'],
      ['WALK', false, null, 'scheduled_only'],
    ]);
    expect(ferry!.legs[1]).toMatchObject({
      delaySeconds: 0,
      headsign: 'Suomenlinna',
      from: { stopId: 'HSL:1030701' },
    });
    expect(ferry).toMatchObject({
      scheduleType: 'realtime',
      startTime: '2025-11-04T08:00:00Z',
      walkDistanceMeters: 410.2,
    });

    expect(rail!.legs.map((leg) => [leg.mode, leg.line ?? null, leg.status, leg.delaySeconds])).toEqual([
      ['RAIL', 'K', 'delayed', 150],
      ['CARPOOL', null, 'on_time', 0],
    ]);
    expect(rail!.legs[0]).toMatchObject({
      startTime: '2025-11-04T08:04:30Z',
      scheduledStartTime: '2025-11-04T08:02:00Z',
    });
    expect(rail!.legs[1]!.from.stopId).toBeUndefined();
    expect(rail).toMatchObject({ scheduleType: 'realtime', transfers: 1, disrupted: false });
    expect(flight!.legs[0]).toMatchObject({ mode: 'AIRPLANE', line: 'AY431', status: 'scheduled_only' });
    expect(flight).toMatchObject({ scheduleType: 'scheduled', durationSeconds: 3900, transfers: 0 });
    expect(output.realtimeUsed).toBe('mixed');
  });

  it.each([
    ['NO_STOPS_IN_RANGE', 'FROM', /No stop is within walking distance/],
    ['OUTSIDE_SERVICE_PERIOD', null, /validity period/],
    ['SOMETHING_NEWER_OTP_ADDS', null, new RegExp(NO_ITINERARY_HINT)],
  ])(
    'routing error %s (inputField %s): no-itinerary-found with a fitting hint',
    async (code, field, hint) => {
      // A code this OTP's schema does not have yet cannot be projected onto the query: sent as it is.
      const known = code !== 'SOMETHING_NEWER_OTP_ADDS';
      if (known) otpAnswers(() => routingErrorPlan(code, field));
      else routingAnswers(() => routingErrorPlan(code, field));
      const error = contractErrorOf(
        await h.call('plan_trip', { origin: KAMPPI, destination: PASILA }),
        HslErrorPayloadSchema,
      );
      expect(error).toMatchObject({
        code: 'no-itinerary-found',
        message: 'No itineraries for given constraints',
      });
      expect(error.hint).toMatch(hint);
    },
  );

  it('OUTSIDE_BOUNDS on the destination: unsupported-region naming it', async () => {
    otpAnswers(() => routingErrorPlan('OUTSIDE_BOUNDS', 'TO'));
    const error = contractErrorOf(
      await h.call('plan_trip', { origin: KAMPPI, destination: PASILA }),
      HslErrorPayloadSchema,
    );
    expect(error.code).toBe('unsupported-region');
    expect(error.message).toContain('the destination');
  });

  it('edges that cannot be read at all: upstream-error, not no-itinerary-found', async () => {
    h.digitransit.scenario(() => reply.json(200, unreadablePlan()));
    const error = contractErrorOf(
      await h.call('plan_trip', { origin: KAMPPI, destination: PASILA }),
      HslErrorPayloadSchema,
    );
    expect(error.code).toBe('upstream-error');
  });

  it('GraphQL errors on planConnection: upstream-error', async () => {
    h.digitransit.scenario(() => reply.json(200, dataFetchingErrors('planConnection')));
    const error = contractErrorOf(
      await h.call('plan_trip', { origin: KAMPPI, destination: PASILA }),
      HslErrorPayloadSchema,
    );
    expect(error.code).toBe('upstream-error');
  });
});

describe('plan_trip labels: Pelias features without label or name', () => {
  it('no point on the first feature, no label on the next: its name, no address', async () => {
    h.digitransit.geocodingScenario(() => reply.json(200, featureWithoutLabel()));
    const answer = await h.call('plan_trip', {
      origin: { type: 'label', value: 'kamppi' },
      destination: PASILA,
    });
    expect(answer.isError).toBe(false);
    const output = PlanTripOutputSchema.parse(answer.structured);
    expect(output.origin).toEqual({
      coordinate: { lat: 60.1688, lon: 24.9316 },
      rawSource: 'geocoder',
      label: 'kamppi',
      name: 'Kampin keskus',
    });
  });

  it('no name: named by the first part of its label', async () => {
    h.digitransit.geocodingScenario(() => reply.json(200, featureWithoutName()));
    const answer = await h.call('plan_trip', {
      origin: { type: 'label', value: 'asema' },
      destination: PASILA,
    });
    const output = PlanTripOutputSchema.parse(answer.structured);
    expect(output.origin).toMatchObject({ name: 'Rautatientori', address: 'Rautatientori, Helsinki' });
  });
});

describe('find_stops: nullable stop fields', () => {
  it('null edges and stops, and stops without coordinates are left out; nameless stops are named by code', async () => {
    routingAnswers(nearbyStops);
    const answer = await h.call('find_stops', { near: { lat: 60.1675, lon: 24.9525 } });
    expect(answer.isError).toBe(false);
    const output = FindStopsOutputSchema.parse(answer.structured);
    expect(output.stops).toEqual([
      {
        stopId: 'HSL:1030703',
        name: 'H0302',
        code: 'H0302',
        lat: 60.1675,
        lon: 24.9525,
        mode: 'TROLLEYBUS',
        distanceMeters: 60,
      },
      {
        stopId: 'HSL:1030701',
        name: 'Kauppatori',
        lat: 60.1675,
        lon: 24.9525,
        mode: 'FERRY',
        distanceMeters: 85,
      },
    ]);
  });
});
