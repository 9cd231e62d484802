import {
  HslErrorPayloadSchema,
  PlanTripOutputSchema,
  type PlanTripOutput,
} from '@switchyard/contracts/transit';
import { otpReply } from '@switchyard/upstream-mocks';
import { errorOf } from '@switchyard/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { NO_ITINERARY_HINT } from '../src/hsl/routing-errors.js';
import { routingErrorPlan } from './fixtures/hsl-real-shapes.js';
import { startHarness, useHarness } from './helpers.js';

const h = useHarness();

const KAMPPI = { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } } as const;
const PASILA = { type: 'coords', value: { lat: 60.1989, lon: 24.9325 } } as const;

async function plan(args: Record<string, unknown>): Promise<PlanTripOutput> {
  const answer = await h.call('plan_trip', { origin: KAMPPI, destination: PASILA, ...args });
  if (answer.isError) throw new Error(`plan_trip failed: ${answer.text}`);
  return PlanTripOutputSchema.parse(answer.structured);
}

function routingRequests() {
  return h.digitransit.requests.filter((r) => r.endpoint === 'routing');
}

describe('plan_trip validation (seed 003 rules 1-6)', () => {
  it('missing destination is a validation-error naming it, and nothing is sent upstream', async () => {
    const error = errorOf(await h.call('plan_trip', { origin: KAMPPI }));
    expect(error).toMatchObject({
      code: 'validation-error',
      message: expect.stringContaining('destination'),
    });
    expect(error.hint).toBeTruthy();
    expect(routingRequests()).toHaveLength(0);
  });

  it('the same coordinate as origin and destination is a validation-error', async () => {
    const error = errorOf(await h.call('plan_trip', { origin: KAMPPI, destination: KAMPPI }));
    expect(error).toMatchObject({ code: 'validation-error', message: expect.stringMatching(/must differ/) });
  });

  it('labels resolving to the same place are rejected too', async () => {
    await h.call('save_user_variable', {
      key: 'here',
      value: { type: 'location', lat: 60.1699, lon: 24.9384 },
    });
    const error = errorOf(
      await h.call('plan_trip', { origin: KAMPPI, destination: { type: 'label', value: 'here' } }),
    );
    expect(error).toMatchObject({ code: 'validation-error', message: expect.stringMatching(/must differ/) });
  });

  it('arrive without a time is a validation-error at when.time with a hint', async () => {
    const error = errorOf(
      await h.call('plan_trip', { origin: KAMPPI, destination: PASILA, when: { type: 'arrive' } }),
    );
    expect(error).toMatchObject({ code: 'validation-error', message: expect.stringContaining('when.time') });
    expect(error.hint).toMatch(/ISO 8601/);
  });

  it.each([
    [{ limit: 4 }, 'limit'],
    [{ limit: 0 }, 'limit'],
    [{ constraints: { maxWalkingDistance: 3001 } }, 'maxWalkingDistance'],
    [{ constraints: { maxTransfers: 9 } }, 'maxTransfers'],
    [{ origin: { type: 'coords', value: { lat: 91, lon: 24 } } }, 'lat'],
  ])('%j is rejected naming %s', async (args, field) => {
    const answer = await h.call('plan_trip', { origin: KAMPPI, destination: PASILA, ...args });
    const payload = HslErrorPayloadSchema.parse(answer.structured);
    expect(payload.error.code).toBe('validation-error');
    expect(payload.error.message).toContain(field);
  });
});

describe('plan_trip itineraries', () => {
  it('sends one planConnection with the mapped constraints and echoes them with defaults', async () => {
    const output = await plan({ constraints: { maxTransfers: 2, accessibility: { stepFree: true } } });
    const [request] = routingRequests();
    expect(request!.graphql?.query).toMatch(/planConnection\(/);
    expect(request!.graphql?.query).toMatch(/includeRealTimeCancellations: true/);
    expect(request!.graphql?.variables).toMatchObject({
      maximumTransfers: 2,
      wheelchair: true,
      origin: { location: { coordinate: { latitude: 60.1699, longitude: 24.9384 } } },
      dateTime: { earliestDeparture: output.requested.time },
    });
    expect(output.constraints).toEqual({
      optimize: 'balanced',
      maxWalkingDistance: 1500,
      maxTransfers: 2,
      accessibility: { stepFree: true, lowWalkingDistance: false },
      language: 'en',
    });
    expect(output.origin).toEqual({ coordinate: KAMPPI.value, rawSource: 'input' });
    expect(output.requested.type).toBe('depart');
    for (const it of output.itineraries) expect(it.transfers).toBeLessThanOrEqual(2);
  });

  it('arrive searches by latestArrival', async () => {
    const time = new Date(Date.now() + 3_600_000).toISOString();
    const output = await plan({ when: { type: 'arrive', time } });
    expect(routingRequests()[0]!.graphql?.variables.dateTime).toEqual({
      latestArrival: output.requested.time,
    });
    for (const it of output.itineraries) expect(Date.parse(it.endTime)).toBeLessThanOrEqual(Date.parse(time));
  });

  it('realtime: all transit legs realtime is "realtime"', async () => {
    h.digitransit.scenario('plan-realtime');
    const output = await plan({ limit: 3 });
    expect(output.realtimeUsed).toBe('realtime');
    for (const it of output.itineraries) {
      expect(it.scheduleType).toBe('realtime');
      for (const leg of it.legs.filter((l) => l.transit)) {
        expect(leg.delaySeconds).toBeDefined();
        expect(leg.status).toBe(Math.abs(leg.delaySeconds!) > 60 ? 'delayed' : 'on_time');
      }
    }
  });

  it('realtime: some legs realtime is "mixed"; none is "scheduled"', async () => {
    h.digitransit.scenario('plan-mixed');
    const mixed = await plan({ limit: 3 });
    expect(mixed.realtimeUsed).toBe('mixed');
    expect(mixed.itineraries.some((it) => it.scheduleType !== 'realtime')).toBe(true);
    h.digitransit.scenario('plan-scheduled');
    const scheduled = await plan({ limit: 3 });
    expect(scheduled.realtimeUsed).toBe('scheduled');
    for (const it of scheduled.itineraries) {
      expect(it.scheduleType).toBe('scheduled');
      for (const leg of it.legs) expect(leg.status).toBe('scheduled_only');
    }
  });

  it('walk legs are not transit legs and never carry a delay', async () => {
    const output = await plan({});
    const walks = output.itineraries.flatMap((it) => it.legs).filter((leg) => leg.mode === 'WALK');
    expect(walks.length).toBeGreaterThan(0);
    for (const leg of walks) {
      expect(leg.transit).toBe(false);
      expect(leg.delaySeconds).toBeUndefined();
    }
  });

  it('deduplication removes duplicate fingerprints and reports meta.deduplicatedFrom', async () => {
    h.digitransit.scenario('plan-duplicates');
    const output = await plan({ limit: 3 });
    const fingerprints = output.itineraries.map((it) => it.fingerprint);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
    expect(output.meta?.deduplicatedFrom).toBe(5);
    expect(output.itineraries).toHaveLength(3);
    expect(output.warnings ?? []).not.toContainEqual(expect.objectContaining({ code: 'truncated-results' }));
  });

  it('limit applies after dedupe, with truncated-results when more existed', async () => {
    const output = await plan({ limit: 1 });
    expect(output.itineraries).toHaveLength(1);
    expect(output.warnings).toContainEqual(expect.objectContaining({ code: 'truncated-results' }));
    expect(output.meta).toBeUndefined();
  });

  it('disruption (delay > 300 s) triggers one relaxed alternative search; new itineraries are flagged', async () => {
    h.digitransit.scenario('plan-disrupted-then-clear');
    const output = await plan({ constraints: { optimize: 'few_transfers', maxWalkingDistance: 1000 } });
    const requests = routingRequests();
    expect(requests).toHaveLength(2);
    const [first, second] = requests.map((r) => r.graphql!.variables);
    // The relaxed query: optimize=balanced (no transfer cost), walking +25% (lower walk reluctance).
    expect(first!.transferCost).toBe(600);
    expect(second!.transferCost).toBe(0);
    expect(Number(second!.walkReluctance)).toBeLessThan(Number(first!.walkReluctance));
    const flagged = output.itineraries.filter((it) => it.disruptionFlag);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]!.disrupted).toBe(false);
    // The alternative takes the first disrupted itinerary's place.
    expect(output.itineraries[0]!.disruptionFlag).toBe(true);
    expect(output.itineraries.slice(1).every((it) => it.disrupted)).toBe(true);
  });

  it('a cancelled leg also triggers the alternative search, and maps to status cancelled', async () => {
    h.digitransit.scenario('plan-cancelled-leg');
    const output = await plan({ limit: 3 });
    expect(routingRequests()).toHaveLength(2);
    const withCancellation = output.itineraries.find((it) =>
      it.legs.some((leg) => leg.status === 'cancelled'),
    );
    expect(withCancellation?.disrupted).toBe(true);
    const leg = withCancellation!.legs.find((l) => l.status === 'cancelled')!;
    expect(leg.delaySeconds).toBeUndefined();
    expect(withCancellation!.scheduleType).not.toBe('scheduled');
  });

  it('includeDisruptionAlt=false: no second search', async () => {
    h.digitransit.scenario('plan-delayed');
    const output = await plan({ includeDisruptionAlt: false, limit: 3 });
    expect(routingRequests()).toHaveLength(1);
    expect(output.itineraries.some((it) => it.disrupted)).toBe(true);
    expect(output.itineraries.some((it) => it.disruptionFlag)).toBe(false);
  });

  it('a delay of more than 300 s triggers the search; the delayed itinerary is marked disrupted', async () => {
    h.digitransit.scenario('plan-delayed');
    const output = await plan({ limit: 3 });
    expect(routingRequests()).toHaveLength(2);
    const delayed = output.itineraries.find((it) => it.legs.some((leg) => (leg.delaySeconds ?? 0) > 300));
    expect(delayed?.disrupted).toBe(true);
    expect(delayed?.legs.find((leg) => (leg.delaySeconds ?? 0) > 300)?.status).toBe('delayed');
  });

  it('maxWalkingDistance filters itineraries by walking distance', async () => {
    h.digitransit.scenario('plan-long-walks');
    const output = await plan({ limit: 3 });
    expect(output.itineraries.length).toBeGreaterThan(0);
    for (const it of output.itineraries) expect(it.walkDistanceMeters).toBeLessThanOrEqual(1500);
    expect(output.warnings ?? []).not.toContainEqual(expect.objectContaining({ code: 'preference-unmet' }));
  });

  it('when no itinerary meets maxWalkingDistance the best are returned with preference-unmet', async () => {
    h.digitransit.scenario('plan-long-walks');
    const output = await plan({ limit: 3, constraints: { maxWalkingDistance: 300 } });
    expect(output.itineraries.length).toBeGreaterThan(0);
    expect(output.itineraries.every((it) => it.walkDistanceMeters > 300)).toBe(true);
    expect(output.warnings).toContainEqual(expect.objectContaining({ code: 'preference-unmet' }));
  });

  it('lowWalkingDistance annotates each itinerary and raises walk reluctance', async () => {
    h.digitransit.scenario('plan-long-walks');
    const output = await plan({ limit: 3, constraints: { accessibility: { lowWalkingDistance: true } } });
    for (const it of output.itineraries) expect(it.lowWalkingDistance).toBe(it.walkDistanceMeters <= 500);
    const plain = await plan({ limit: 3 });
    expect(plain.itineraries[0]!.lowWalkingDistance).toBeUndefined();
    const [annotated, normal] = routingRequests().map((r) => Number(r.graphql!.variables.walkReluctance));
    expect(annotated).toBeGreaterThan(normal!);
  });

  it('no itinerary after one relax attempt: no-itinerary-found with the seed hint', async () => {
    h.digitransit.scenario('plan-no-transit-connection');
    const error = errorOf(await h.call('plan_trip', { origin: KAMPPI, destination: PASILA }));
    expect(error).toMatchObject({ code: 'no-itinerary-found', hint: NO_ITINERARY_HINT });
    expect(routingRequests()).toHaveLength(2);
  });

  it('an empty first search that the relaxed one answers returns its itineraries with preference-unmet', async () => {
    h.digitransit.scenario('plan-no-transit-connection', { times: 1 });
    const output = await plan({});
    expect(output.itineraries.length).toBeGreaterThan(0);
    expect(output.warnings).toContainEqual(expect.objectContaining({ code: 'preference-unmet' }));
  });

  it('stepFree: no warning when trips and stops are confirmed accessible', async () => {
    const output = await plan({ constraints: { accessibility: { stepFree: true } } });
    expect(output.warnings ?? []).not.toContainEqual(
      expect.objectContaining({ code: 'unsupported-accessibility-flag' }),
    );
  });

  it('stepFree: unsupported-accessibility-flag when the data cannot confirm accessibility', async () => {
    // Real OTP data often has no wheelchair information for a trip.
    answerWith([{ line: '2', startMinutes: 1, wheelchairAccessible: 'NO_INFORMATION' }]);
    const output = await plan({ constraints: { accessibility: { stepFree: true } } });
    expect(output.itineraries).toHaveLength(1);
    expect(output.warnings).toContainEqual(
      expect.objectContaining({ code: 'unsupported-accessibility-flag' }),
    );
  });
});

describe('plan_trip rules at their boundaries', () => {
  it('points on the edge of TRANSIT_REGION_BOUNDS are inside it', async () => {
    answerWith([{ line: '2', startMinutes: 1 }]);
    const output = await plan({
      origin: { type: 'coords', value: { lat: 59.9, lon: 24.0 } },
      destination: { type: 'coords', value: { lat: 60.45, lon: 25.5 } },
    });
    expect(output.itineraries).toHaveLength(1);
  });

  it('an itinerary walking exactly maxWalkingDistance meets it', async () => {
    answerWith([{ line: '2', startMinutes: 1, walk: 700 }]);
    const output = await plan({ constraints: { maxWalkingDistance: 700 } });
    expect(output.itineraries.map((it) => it.walkDistanceMeters)).toEqual([700]);
    expect(output.warnings).toBeUndefined();
  });

  it('one itinerary more than limit is truncated-results', async () => {
    answerWith([
      { line: '2', startMinutes: 1 },
      { line: '3', startMinutes: 2 },
    ]);
    const output = await plan({ limit: 1 });
    expect(output.itineraries.map((it) => it.legs[0]!.line)).toEqual(['2']);
    expect(output.warnings).toEqual([expect.objectContaining({ code: 'truncated-results' })]);
  });

  it('lowWalkingDistance counts up to maxWalkingDistance when that is below 500 m', async () => {
    answerWith([{ line: '2', startMinutes: 1, walk: 400 }]);
    const output = await plan({
      constraints: { maxWalkingDistance: 300, accessibility: { lowWalkingDistance: true } },
    });
    expect(output.itineraries[0]).toMatchObject({ walkDistanceMeters: 400, lowWalkingDistance: false });
    expect(output.warnings).toContainEqual(
      expect.objectContaining({
        code: 'preference-unmet',
        message: expect.stringMatching(/more than 300 m/),
      }),
    );
  });

  it('no relaxed search when relaxing changes nothing (balanced, 3000 m); one when only optimize changes', async () => {
    h.digitransit.scenario('plan-no-transit-connection');
    const unchanged = errorOf(
      await h.call('plan_trip', {
        origin: KAMPPI,
        destination: PASILA,
        constraints: { maxWalkingDistance: 3000 },
      }),
    );
    expect(unchanged.code).toBe('no-itinerary-found');
    expect(routingRequests()).toHaveLength(1);
    const fewTransfers = errorOf(
      await h.call('plan_trip', {
        origin: KAMPPI,
        destination: PASILA,
        constraints: { optimize: 'few_transfers', maxWalkingDistance: 3000 },
      }),
    );
    expect(fewTransfers.code).toBe('no-itinerary-found');
    expect(routingRequests()).toHaveLength(3);
  });

  it('alternatives: a disrupted one replaces nothing; spare ones come before the replaced itineraries', async () => {
    const primary = [
      { line: '2', startMinutes: 1, delaySeconds: 400 },
      { line: '3', startMinutes: 2 },
    ];
    answerWith(primary, [
      { line: '4', startMinutes: 3 },
      { line: '5', startMinutes: 4 },
    ]);
    const output = await plan({ limit: 3 });
    expect(output.itineraries.map((it) => [it.legs[0]!.line, it.disruptionFlag])).toEqual([
      ['4', true],
      ['3', false],
      ['5', true],
    ]);

    answerWith(primary, [{ line: '6', startMinutes: 3, delaySeconds: 600 }]);
    const disruptedAlternative = await plan({ limit: 3 });
    expect(disruptedAlternative.itineraries.map((it) => [it.legs[0]!.line, it.disruptionFlag])).toEqual([
      ['2', false],
      ['3', false],
    ]);
  });

  it('a given when.time is the instant searched and echoed in UTC; six itineraries are asked for', async () => {
    const output = await plan({ when: { type: 'depart', time: '2030-01-15T12:00:00+02:00' } });
    expect(output.requested).toEqual({ type: 'depart', time: '2030-01-15T10:00:00Z' });
    expect(routingRequests()[0]!.graphql!.variables).toMatchObject({
      dateTime: { earliestDeparture: '2030-01-15T10:00:00Z' },
      first: 6,
    });
  });

  it('stepFree: one returned itinerary without confirmed accessibility is enough for the warning', async () => {
    answerWith([
      { line: '2', startMinutes: 1 },
      { line: '3', startMinutes: 2, wheelchairAccessible: 'NO_INFORMATION' },
    ]);
    const output = await plan({ constraints: { accessibility: { stepFree: true } } });
    expect(output.itineraries).toHaveLength(2);
    expect(output.warnings).toContainEqual(
      expect.objectContaining({ code: 'unsupported-accessibility-flag' }),
    );
  });

  it("a late leg's alerts cover it from its scheduled start to its expected end", async () => {
    // Scheduled 1 to 15 minutes from now, 10 minutes late: expected 11 to 25 minutes from now.
    const nowSeconds = Math.floor(Date.now() / 1000);
    const alert = (id: string, header: string, from: number, to: number) => ({
      id,
      alertHeaderText: header,
      alertDescriptionText: `${header}; see hsl.fi for the details`,
      alertHeaderTextTranslations: [{ text: header, language: 'en' }],
      alertDescriptionTextTranslations: [],
      alertUrlTranslations: [],
      alertSeverityLevel: 'WARNING',
      effectiveStartDate: nowSeconds + from,
      effectiveEndDate: nowSeconds + to,
    });
    const alerts = [
      alert('before-expected-start', 'Tram 2: detour in Kamppi until the scheduled start', -600, 300),
      alert('after-scheduled-end', 'Tram 2: stop Pasila closed after the scheduled end', 1200, 3600),
    ];
    answerWith([{ line: '2', startMinutes: 1, delaySeconds: 600, alerts }]);
    const output = await plan({ includeDisruptionAlt: false });
    expect(output.itineraries[0]!.legs[0]!.delaySeconds).toBe(600);
    expect((output.warnings ?? []).filter((w) => w.code === 'service-alert').map((w) => w.alert!.id)).toEqual(
      ['before-expected-start', 'after-scheduled-end'],
    );
  });

  it('no itinerary: the hint comes from the routing errors of both searches', async () => {
    h.digitransit.scenario((request, { callIndex }) =>
      otpReply(
        request,
        routingErrorPlan(
          callIndex === 0 ? 'NO_STOPS_IN_RANGE' : 'NO_TRANSIT_CONNECTION',
          callIndex === 0 ? 'FROM' : null,
        ),
      ),
    );
    const error = errorOf(await h.call('plan_trip', { origin: KAMPPI, destination: PASILA }));
    expect(error).toMatchObject({
      code: 'no-itinerary-found',
      hint: expect.stringMatching(/No stop is within walking distance/),
    });
    expect(routingRequests()).toHaveLength(2);
  });
});

describe('plan_trip places and regions', () => {
  it('a saved location resolves with rawSource variable, label, name and address', async () => {
    await h.call('save_user_variable', {
      key: 'office',
      value: { type: 'location', lat: 60.1989, lon: 24.9325, name: 'Office', address: 'Ratapihantie 1' },
    });
    const output = await plan({ destination: { type: 'label', value: 'office' } });
    expect(output.destination).toEqual({
      coordinate: { lat: 60.1989, lon: 24.9325 },
      rawSource: 'variable',
      label: 'office',
      name: 'Office',
      address: 'Ratapihantie 1',
    });
  });

  it('a label that is not saved is geocoded: rawSource geocoder, name and address from Pelias', async () => {
    const output = await plan({ destination: { type: 'label', value: 'Kiasma' } });
    expect(output.destination).toMatchObject({ rawSource: 'geocoder', label: 'Kiasma' });
    expect(output.destination.name).toMatch(/Kiasma/);
    expect(output.destination.address).toBeTruthy();
    const geocoding = h.digitransit.requests.find((r) => r.endpoint === 'geocoding-search');
    expect(geocoding?.query).toMatchObject({
      text: 'Kiasma',
      size: '1',
      'boundary.rect.min_lat': '59.9',
      'boundary.rect.min_lon': '24',
      'boundary.rect.max_lat': '60.45',
      'boundary.rect.max_lon': '25.5',
    });
  });

  it('a label nobody knows is a validation-error with a hint', async () => {
    h.digitransit.geocodingScenario('geocoding-empty');
    const error = errorOf(
      await h.call('plan_trip', { origin: KAMPPI, destination: { type: 'label', value: 'Atlantis' } }),
    );
    expect(error).toMatchObject({
      code: 'validation-error',
      hint: expect.stringMatching(/save_user_variable/),
    });
  });

  it('geocodes origin and destination at once; when both are unknown the origin is the one named', async () => {
    // Atlantis is unknown. Resolved in series, the origin's failure would end the call before the destination
    // was asked for; at once, both requests have left before either answer.
    h.digitransit.geocodingScenario((request) =>
      request.query.text === 'Atlantis' ? 'geocoding-empty' : undefined,
    );
    const error = errorOf(
      await h.call('plan_trip', {
        origin: { type: 'label', value: 'Atlantis' },
        destination: { type: 'label', value: 'Kiasma' },
      }),
    );
    expect(error.message).toMatch(/"Atlantis"/);
    const asked = h.digitransit.requests
      .filter((r) => r.endpoint === 'geocoding-search')
      .map((r) => r.query.text);
    expect(asked).toEqual(expect.arrayContaining(['Atlantis', 'Kiasma']));

    h.digitransit.geocodingScenario('geocoding-empty');
    const both = errorOf(
      await h.call('plan_trip', {
        origin: { type: 'label', value: 'Atlantis' },
        destination: { type: 'label', value: 'El Dorado' },
      }),
    );
    expect(both.message).toMatch(/"Atlantis"/);
  });

  it('coordinates outside TRANSIT_REGION_BOUNDS are unsupported-region, without asking OTP', async () => {
    const error = errorOf(
      await h.call('plan_trip', {
        origin: KAMPPI,
        destination: { type: 'coords', value: { lat: 51.5, lon: -0.12 } },
      }),
    );
    expect(error).toMatchObject({
      code: 'unsupported-region',
      message: expect.stringMatching(/destination/),
    });
    expect(routingRequests()).toHaveLength(0);
  });

  it('OTP OUTSIDE_BOUNDS is unsupported-region naming the end', async () => {
    h.digitransit.scenario('plan-outside-bounds');
    const error = errorOf(await h.call('plan_trip', { origin: KAMPPI, destination: PASILA }));
    expect(error).toMatchObject({
      code: 'unsupported-region',
      message: expect.stringContaining('the origin'),
    });
  });

  it('OTP LOCATION_NOT_FOUND is no-itinerary-found at once, naming the end, with a hint to move it', async () => {
    h.digitransit.scenario('plan-location-not-found');
    const error = errorOf(await h.call('plan_trip', { origin: KAMPPI, destination: PASILA }));
    expect(error).toMatchObject({
      code: 'no-itinerary-found',
      message: expect.stringMatching(/could not place the origin .*Origin is unknown/),
      hint: expect.stringMatching(/Move the point/),
    });
    expect(routingRequests()).toHaveLength(1);
  });

  it('a saved stop is not a place to plan from: validation-error with a hint, and OTP is not asked', async () => {
    await h.call('save_user_variable', { key: 'my stop', value: { type: 'stop', stopId: 'HSL:1040129' } });
    const error = errorOf(
      await h.call('plan_trip', { origin: { type: 'label', value: 'my stop' }, destination: PASILA }),
    );
    expect(error).toMatchObject({
      code: 'validation-error',
      message: expect.stringMatching(/is a stop, not a location/),
      hint: expect.stringMatching(/saved location/),
    });
    expect(routingRequests()).toHaveLength(0);
  });
});

describe('plan_trip upstream failures', () => {
  it('rate limit path: a 429 within the retry budget is retried and then succeeds', async () => {
    h.digitransit.scenario('rate-limited', { times: 1, retryAfterSeconds: 1 });
    const output = await plan({});
    expect(output.itineraries.length).toBeGreaterThan(0);
    expect(routingRequests()).toHaveLength(2);
  });

  it('a 429 beyond the budget is rate-limited with retryAfter', async () => {
    h.digitransit.scenario('rate-limited', { retryAfterSeconds: 60 });
    expect(errorOf(await h.call('plan_trip', { origin: KAMPPI, destination: PASILA }))).toMatchObject({
      code: 'rate-limited',
      retryAfter: 60,
    });
  });

  it.each([
    ['graphql-errors', 'upstream-error'],
    ['service-unavailable', 'upstream-error'],
  ] as const)('%s -> %s', async (scenario, code) => {
    h.digitransit.scenario(scenario);
    expect(errorOf(await h.call('plan_trip', { origin: KAMPPI, destination: PASILA })).code).toBe(code);
  });

  it('an unreachable routing URL is network-error; a hanging one is upstream-timeout', async () => {
    const closed = await startHarness({
      env: {
        DIGITRANSIT_ROUTING_URL: 'http://127.0.0.1:9/routing/v2/hsl/gtfs/v1',
        TRANSIT_RETRY_BUDGET_MS: '0',
      },
    });
    const slow = await startHarness({ env: { DIGITRANSIT_TIMEOUT_MS: '200', TRANSIT_RETRY_BUDGET_MS: '0' } });
    try {
      expect(errorOf(await closed.call('plan_trip', { origin: KAMPPI, destination: PASILA })).code).toBe(
        'network-error',
      );
      slow.digitransit.scenario('hang');
      expect(errorOf(await slow.call('plan_trip', { origin: KAMPPI, destination: PASILA })).code).toBe(
        'upstream-timeout',
      );
    } finally {
      await closed.close();
      await slow.close();
    }
  });
});

interface TramItinerary {
  line: string;
  /** Minutes from now to the scheduled start (each itinerary its own, so each its own fingerprint). */
  startMinutes: number;
  walk?: number;
  /** A realtime estimate this many seconds after the schedule; none: scheduled only. */
  delaySeconds?: number;
  /** The trip's wheelchairAccessible (default POSSIBLE). */
  wheelchairAccessible?: string;
  /** The leg's service alerts (OTP `Alert`s). */
  alerts?: unknown[];
}

/**
 * OTP answers the nth planConnection with the nth list of itineraries (the last list for any later one), cut
 * to the fields the query selects.
 */
function answerWith(...searches: (readonly TramItinerary[])[]): void {
  h.digitransit.scenario((request, { callIndex }) =>
    otpReply(request, tramPlan(searches[Math.min(callIndex, searches.length - 1)]!)),
  );
}

/** A planConnection answer of one-leg tram itineraries from Ooppera to Pasila, in OTP's wire format. */
function tramPlan(itineraries: readonly TramItinerary[]) {
  const t = (ms: number) => new Date(Date.now() + ms).toISOString();
  const place = (name: string, lat: number, lon: number, stop: string) => ({
    name,
    lat,
    lon,
    stop: { gtfsId: stop, wheelchairBoarding: 'POSSIBLE' },
  });
  const time = (ms: number, delaySeconds?: number) => ({
    scheduledTime: t(ms),
    estimated: delaySeconds === undefined ? null : { time: t(ms + delaySeconds * 1000) },
  });
  const node = (it: TramItinerary) => {
    const start = it.startMinutes * 60_000;
    const end = start + 840_000;
    return {
      start: t(start + (it.delaySeconds ?? 0) * 1000),
      end: t(end + (it.delaySeconds ?? 0) * 1000),
      duration: 840,
      walkDistance: it.walk ?? 200,
      numberOfTransfers: 0,
      legs: [
        {
          mode: 'TRAM',
          transitLeg: true,
          realTime: it.delaySeconds !== undefined,
          realtimeState: it.delaySeconds === undefined ? 'SCHEDULED' : 'UPDATED',
          distance: 2400,
          duration: 840,
          headsign: 'Pasila',
          start: time(start, it.delaySeconds),
          end: time(end, it.delaySeconds),
          from: place('Ooppera', 60.181, 24.926, 'HSL:1130446'),
          to: place('Pasilan asema', 60.198, 24.933, 'HSL:1174403'),
          route: { shortName: it.line },
          trip: { gtfsId: `HSL:${it.line}_x`, wheelchairAccessible: it.wheelchairAccessible ?? 'POSSIBLE' },
          alerts: it.alerts ?? [],
        },
      ],
    };
  };
  return {
    data: { planConnection: { routingErrors: [], edges: itineraries.map((it) => ({ node: node(it) })) } },
  };
}
