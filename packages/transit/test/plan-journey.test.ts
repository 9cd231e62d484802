import { PlanJourneyOutputSchema, type JourneyOptionSummary } from '@switchyard/contracts/transit';
import { describe, expect, it } from 'vitest';
import { connectOverTfl, startHarness, unexpectedFailure, useHarness } from './helpers.js';

const h = useHarness();

const OFFSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

describe('planJourney through an MCP client', () => {
  it('is listed with its contract schemas', async () => {
    const { tools } = await h.client.listTools();
    const tool = tools.find((t) => t.name === 'planJourney');
    expect(tool?.inputSchema).toMatchObject({ required: ['from', 'to'] });
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  });

  it('returns the five fastest journeys, shortest first, ties broken by the earlier arrival', async () => {
    const answer = await h.call('planJourney', { from: "King's Cross", to: 'Waterloo' });
    expect(answer.isError).toBe(false);
    const output = PlanJourneyOutputSchema.parse(answer.structured);
    expect(output).toMatchObject({ success: true, code: 'OK' });
    const journeys = output.topJourneys as JourneyOptionSummary[];
    // The mock answers seven journeys of 34, 27, 41, 27, 52, 30, 38 minutes.
    expect(journeys.map((j) => j.durationMinutes)).toEqual([27, 27, 30, 34, 38]);
    expect(Date.parse(journeys[0]!.arrivalDateTime)).toBeLessThanOrEqual(
      Date.parse(journeys[1]!.arrivalDateTime),
    );
    for (const journey of journeys) {
      expect(journey.startDateTime).toMatch(OFFSET_TIME);
      expect(journey.legCount).toBe(journey.legs.length);
      expect(journey.isDisrupted).toBe(journey.legs.some((leg) => leg.isDisrupted));
    }
    expect(journeys.some((j) => j.farePence !== undefined)).toBe(true);
    expect(journeys.some((j) => j.farePence === undefined)).toBe(true);
    expect(JSON.parse(answer.text)).toEqual(answer.structured);
  });

  it('sends the app_key, URL-encodes the path segments and asks for step-free routes when needed', async () => {
    await h.call('planJourney', { from: 'Bank / Monument', to: 'Mile End', needAccessibleRoute: true });
    const request = h.tfl.requests.at(-1)!;
    expect(request.path).toBe('/Journey/JourneyResults/Bank%20%2F%20Monument/to/Mile%20End');
    expect(request.query.app_key).toBeDefined();
    expect(request.query.accessibilityPreference).toBe('StepFreeToPlatform');
    const answer = await h.call('planJourney', { from: 'Bank', to: 'Mile End', needAccessibleRoute: true });
    expect(answer.structured.message).toMatch(/step-free/i);
    await h.call('planJourney', { from: 'Bank', to: 'Mile End' });
    expect(h.tfl.requests.at(-1)!.query.accessibilityPreference).toBeUndefined();
  });

  it('300: DISAMBIGUATION_REQUIRED with list suggestions sorted by matchQuality, no parameterValue dropped, at most 5', async () => {
    h.tfl.scenario('disambiguation-both');
    const answer = await h.call('planJourney', { from: 'Victoria', to: 'Highgate' });
    expect(answer.isError).toBe(true);
    const output = PlanJourneyOutputSchema.parse(answer.structured);
    expect(output).toMatchObject({ success: false, code: 'DISAMBIGUATION_REQUIRED', topJourneys: null });
    expect(output.message).toMatch(/parameterValue/);
    for (const side of [output.fromLocationDisambiguation, output.toLocationDisambiguation]) {
      expect(side).not.toBeNull();
      expect(side!.length).toBeLessThanOrEqual(5);
      const qualities = side!.map((s) => s.matchQuality ?? -1);
      expect(qualities).toEqual([...qualities].sort((a, b) => b - a));
      for (const suggestion of side!) expect(suggestion.parameterValue).not.toBe('');
    }
    const from = output.fromLocationDisambiguation!;
    expect(from[0]).toMatchObject({ name: 'Victoria and Albert Museum', matchQuality: 1000 });
    expect(from.some((s) => s.name.startsWith('Victoria Embankment'))).toBe(false);
  });

  it('300 with one side identified: only the ambiguous side gets suggestions', async () => {
    h.tfl.scenario('disambiguation-to');
    const output = PlanJourneyOutputSchema.parse(
      (await h.call('planJourney', { from: 'SE19 2XE', to: 'Highgate' })).structured,
    );
    expect(output.code).toBe('DISAMBIGUATION_REQUIRED');
    expect(output.fromLocationDisambiguation).toBeNull();
    expect(output.toLocationDisambiguation?.[0]?.parameterValue).toBe('1000109');
  });

  it('a 200 whose body is a disambiguation result is treated like a 300', async () => {
    h.tfl.scenario('disambiguation-200');
    const output = PlanJourneyOutputSchema.parse(
      (await h.call('planJourney', { from: 'Victoria', to: 'Highgate' })).structured,
    );
    expect(output.code).toBe('DISAMBIGUATION_REQUIRED');
  });

  it('a side that matched nothing is a VALIDATION_ERROR naming it', async () => {
    h.tfl.scenario('disambiguation-no-match');
    const output = PlanJourneyOutputSchema.parse(
      (await h.call('planJourney', { from: 'Xyzzy', to: 'Bank' })).structured,
    );
    expect(output).toMatchObject({ success: false, code: 'VALIDATION_ERROR', topJourneys: null });
    expect(output.message).toContain('from "Xyzzy"');
  });

  it('404 from JourneyResults: success with no journeys and a message saying so', async () => {
    h.tfl.scenario('not-found');
    const answer = await h.call('planJourney', { from: 'Bank', to: 'Mile End' });
    expect(answer.isError).toBe(false);
    expect(answer.structured).toMatchObject({ success: true, code: 'OK', topJourneys: [] });
    expect(answer.structured.message).toMatch(/no journey/i);
  });

  it('validation: blank or missing from/to give VALIDATION_ERROR in the full envelope', async () => {
    for (const args of [
      { from: '   ', to: 'Bank' },
      { to: 'Bank' },
      { from: 'Bank', to: 'x', extra: true },
    ]) {
      const answer = await h.call('planJourney', args);
      expect(answer.isError).toBe(true);
      const output = PlanJourneyOutputSchema.parse(answer.structured);
      expect(output).toEqual({
        success: false,
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        topJourneys: null,
        fromLocationDisambiguation: null,
        toLocationDisambiguation: null,
      });
    }
    expect(h.tfl.requests).toHaveLength(0);
  });

  it.each([
    ['server-error', 'UPSTREAM_ERROR'],
    ['bad-gateway', 'UPSTREAM_ERROR'],
    ['service-unavailable', 'UPSTREAM_ERROR'],
    ['forbidden', 'UPSTREAM_ERROR'],
    ['reset', 'UPSTREAM_ERROR'],
    ['malformed-json', 'UPSTREAM_ERROR'],
  ] as const)('%s -> %s, and the server keeps serving', async (scenario, code) => {
    h.tfl.scenario(scenario);
    const answer = await h.call('planJourney', { from: 'Bank', to: 'Mile End' });
    expect(answer.isError).toBe(true);
    expect(PlanJourneyOutputSchema.parse(answer.structured)).toMatchObject({
      success: false,
      code,
      topJourneys: null,
    });
    h.tfl.reset();
    const after = await h.call('planJourney', { from: 'Bank', to: 'Mile End' });
    expect(after.structured.code).toBe('OK');
  });
});

describe('planJourney limits and timeouts', () => {
  it('429 beyond the retry budget: RATE_LIMIT_EXCEEDED at once with the wait in the message', async () => {
    h.tfl.scenario('rate-limited', { retryAfterSeconds: 30 });
    const answer = await h.call('planJourney', { from: 'Bank', to: 'Mile End' });
    expect(answer.structured).toMatchObject({ success: false, code: 'RATE_LIMIT_EXCEEDED' });
    expect(answer.structured.message).toMatch(/30 s/);
    expect(h.tfl.requests).toHaveLength(1);
  });

  it('429 without Retry-After still states a wait', async () => {
    const local = await startHarness({ env: { TRANSIT_RETRY_BUDGET_MS: '0' } });
    try {
      local.tfl.scenario('rate-limited-no-retry-after');
      const answer = await local.call('planJourney', { from: 'Bank', to: 'Mile End' });
      expect(answer.structured).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
      expect(answer.structured.message).toMatch(/wait at least 1 s/);
    } finally {
      await local.close();
    }
  });

  it('429 with Retry-After within the budget is retried and succeeds', async () => {
    h.tfl.scenario('rate-limited', { times: 1, retryAfterSeconds: 1 });
    const answer = await h.call('planJourney', { from: 'Bank', to: 'Mile End' });
    expect(answer.structured).toMatchObject({ success: true, code: 'OK' });
    expect(h.tfl.requests).toHaveLength(2);
  });

  it('the local PLAN_JOURNEY_TPS limiter answers RATE_LIMIT_EXCEEDED without calling TfL', async () => {
    const local = await startHarness({ env: { PLAN_JOURNEY_TPS: '2' } });
    try {
      const answers = await Promise.all(
        [1, 2, 3].map(() => local.call('planJourney', { from: 'Bank', to: 'Mile End' })),
      );
      const limited = answers.filter((a) => a.structured.code === 'RATE_LIMIT_EXCEEDED');
      expect(limited).toHaveLength(1);
      expect(limited[0]!.structured.message).toMatch(
        /planJourney is limited to 2 calls per second; retry after [\d.]+ s/,
      );
      expect(local.tfl.requests).toHaveLength(2);
    } finally {
      await local.close();
    }
  });

  it('a hanging TfL gives UPSTREAM_TIMEOUT', async () => {
    const local = await startHarness({ env: { TFL_TIMEOUT_MS: '200', TRANSIT_RETRY_BUDGET_MS: '100' } });
    try {
      local.tfl.scenario('hang');
      const answer = await local.call('planJourney', { from: 'Bank', to: 'Mile End' });
      expect(answer.structured).toMatchObject({
        success: false,
        code: 'UPSTREAM_TIMEOUT',
        topJourneys: null,
      });
    } finally {
      await local.close();
    }
  });
});

describe('planJourney internal failures', () => {
  it('an unexpected failure is INTERNAL_ERROR in the full envelope, without internals', async () => {
    const connection = await connectOverTfl({
      client: { journeyResults: unexpectedFailure },
      arrivals: { arrivals: () => Promise.reject(new Error('not used')) },
      lineStatus: { status: () => Promise.reject(new Error('not used')) },
      stops: { find: () => Promise.reject(new Error('not used')) },
    });
    try {
      const result = await connection.client.callTool({
        name: 'planJourney',
        arguments: { from: 'a', to: 'b' },
      });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({
        success: false,
        code: 'INTERNAL_ERROR',
        message: 'Unexpected internal failure',
        topJourneys: null,
        fromLocationDisambiguation: null,
        toLocationDisambiguation: null,
      });
    } finally {
      await connection.close();
    }
  });
});
