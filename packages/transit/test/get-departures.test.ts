import {
  GetDeparturesOutputSchema,
  HslErrorPayloadSchema,
  type Departure,
} from '@switchyard/contracts/transit';
import { errorOf } from '@switchyard/server-kit/testing';
import { reply } from '@switchyard/upstream-mocks';
import { describe, expect, it } from 'vitest';
import { startHarness, useHarness } from './helpers.js';

const h = useHarness();

const STOP = { type: 'id', value: 'HSL:1040129' } as const;

async function departures(args: Record<string, unknown>) {
  const answer = await h.call('get_departures', args);
  expect(answer.isError).toBe(false);
  return GetDeparturesOutputSchema.parse(answer.structured);
}

function effective(d: Departure): number {
  return Date.parse(d.realtimeTime ?? d.scheduledTime);
}

describe('get_departures (seed 001 tests)', () => {
  it('basic departure list: absolute times, sorted by realtime-else-scheduled, stop name, correlation id', async () => {
    const before = Date.now();
    const output = await departures({ stop: STOP, limit: 50 });
    expect(output.stopId).toBe('HSL:1040129');
    expect(output.stopName).toBe('Arkadian puisto');
    expect(output.departures.length).toBeGreaterThan(5);
    const times = output.departures.map(effective);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const d of output.departures) {
      expect(d.line).not.toBe('');
      expect(d.destination).not.toBe('');
      expect(d.mode).toBe('BUS');
      if (d.realtimeTime !== undefined) {
        expect(d.delaySeconds).toBe((Date.parse(d.realtimeTime) - Date.parse(d.scheduledTime)) / 1000);
      }
    }
    expect(output.realtimeUsed).toBe(true);
    expect(Date.parse(output.dataFreshness)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(output.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    // One GraphQL query, with the seed's arguments.
    const requests = h.digitransit.requests.filter((r) => r.endpoint === 'routing');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.graphql?.query).toMatch(/omitCanceled: false/);
    expect(requests[0]!.graphql?.query).toMatch(/omitNonPickups: true/);
    expect(requests[0]!.graphql?.variables).toMatchObject({
      id: 'HSL:1040129',
      timeRange: 1800,
      numberOfDepartures: 51,
    });
    expect(requests[0]!.headers['accept-language']).toBe('en');
  });

  it('cancellation mapping: CANCELED is cancelled, without a realtime time, and counts as realtime', async () => {
    const output = await departures({ stop: STOP, limit: 50 });
    const cancelled = output.departures.filter((d) => d.status === 'cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.realtimeTime).toBeUndefined();
    expect(cancelled[0]!.delaySeconds).toBeUndefined();
  });

  it('delay > 0 maps to delayed; within 60 s either way is on_time; no realtime is scheduled_only', async () => {
    const output = await departures({ stop: STOP, limit: 50 });
    const byDelay = new Map(
      output.departures.filter((d) => d.delaySeconds !== undefined).map((d) => [d.delaySeconds, d.status]),
    );
    expect(byDelay.get(180)).toBe('delayed');
    expect(byDelay.get(240)).toBe('delayed');
    expect(byDelay.get(20)).toBe('on_time');
    expect(byDelay.get(45)).toBe('on_time');
    expect(byDelay.get(0)).toBe('on_time');
    const scheduled = output.departures.filter(
      (d) => d.realtimeTime === undefined && d.status !== 'cancelled',
    );
    expect(scheduled.length).toBeGreaterThan(0);
    for (const d of scheduled) expect(d.status).toBe('scheduled_only');
  });

  it('early departure (negative delay) maps to delayed when earlier than -60 s', async () => {
    const output = await departures({ stop: STOP, limit: 50 });
    const early = output.departures.find((d) => d.delaySeconds === -90);
    expect(early?.status).toBe('delayed');
  });

  it('window limit enforcement: nothing later than windowMinutes ahead', async () => {
    const before = Date.now();
    const output = await departures({ stop: STOP, windowMinutes: 5, limit: 50 });
    const after = Date.now();
    expect(output.departures.length).toBeGreaterThan(0);
    for (const d of output.departures) expect(effective(d)).toBeLessThanOrEqual(after + 5 * 60_000);
    const wide = await departures({ stop: STOP, windowMinutes: 120, limit: 50 });
    expect(wide.departures.length).toBeGreaterThan(output.departures.length);
    expect(wide.departures.some((d) => effective(d) > before + 60 * 60_000)).toBe(true);
    const variables = h.digitransit.requests.map((r) => r.graphql?.variables.timeRange);
    expect(variables).toEqual([300, 7200]);
  });

  it('truncation warning when more departures exist than limit; limit applied after sorting', async () => {
    const all = await departures({ stop: STOP, limit: 50 });
    const output = await departures({ stop: STOP, limit: 3 });
    expect(output.departures).toHaveLength(3);
    expect(output.departures).toEqual(all.departures.slice(0, 3));
    expect(output.warnings).toEqual([
      { code: 'truncated-results', message: expect.stringContaining('limit=3') },
    ]);
    expect(all.warnings).toBeUndefined();
  });

  it('realtimeUsed is false when no departure has realtime data', async () => {
    h.digitransit.scenario('departures-scheduled');
    const output = await departures({ stop: STOP, limit: 50 });
    expect(output.realtimeUsed).toBe(false);
    for (const d of output.departures) expect(d.status).toBe('scheduled_only');
  });

  it('passes the language as Accept-Language', async () => {
    await departures({ stop: STOP, language: 'fi' });
    expect(h.digitransit.requests[0]!.headers['accept-language']).toBe('fi');
  });
});

describe('get_departures stop references and errors', () => {
  it('a saved stop label resolves to its stop id; unknown labels and locations are validation errors with hints', async () => {
    await h.call('save_user_variable', { key: 'my stop', value: { type: 'stop', stopId: 'HSL:1040129' } });
    await h.call('save_user_variable', { key: 'home', value: { type: 'location', lat: 60.17, lon: 24.94 } });
    const output = await departures({ stop: { type: 'label', value: 'my stop' } });
    expect(output.stopId).toBe('HSL:1040129');
    for (const value of ['nowhere', 'home']) {
      const answer = await h.call('get_departures', { stop: { type: 'label', value } });
      expect(answer.isError).toBe(true);
      const error = errorOf(answer);
      expect(error.code).toBe('validation-error');
      expect(error.hint).toBeTruthy();
    }
  });

  it('a malformed id is a validation error with a hint, sent nowhere', async () => {
    const answer = await h.call('get_departures', { stop: { type: 'id', value: '1040129' } });
    expect(errorOf(answer)).toMatchObject({
      code: 'validation-error',
      hint: expect.stringMatching(/find_stops/),
    });
    expect(h.digitransit.requests).toHaveLength(0);
  });

  it('an unknown stop (null from OTP) is a validation error "stop not found"', async () => {
    const answer = await h.call('get_departures', { stop: { type: 'id', value: 'HSL:9999999' } });
    expect(errorOf(answer)).toMatchObject({
      code: 'validation-error',
      message: expect.stringMatching(/stop not found/),
    });
  });

  it('schema violations are validation errors that name the field, with a hint', async () => {
    for (const [args, field] of [
      [{ stop: STOP, limit: 51 }, 'limit'],
      [{ stop: STOP, windowMinutes: 0 }, 'windowMinutes'],
      [{ stop: STOP, language: 'de' }, 'language'],
      [{}, 'stop'],
    ] as const) {
      const answer = await h.call('get_departures', args);
      const payload = HslErrorPayloadSchema.parse(answer.structured);
      expect(payload.error.code).toBe('validation-error');
      expect(payload.error.message).toContain(field);
      expect(payload.error.hint).toBeTruthy();
    }
  });

  it.each([
    ['graphql-errors', 'upstream-error'],
    ['server-error', 'upstream-error'],
    ['bad-gateway', 'upstream-error'],
    ['unauthorized', 'upstream-error'],
    ['malformed-json', 'upstream-error'],
    ['reset', 'upstream-error'],
  ] as const)('%s -> %s, and the server keeps serving', async (scenario, code) => {
    h.digitransit.scenario(scenario);
    const answer = await h.call('get_departures', { stop: STOP });
    expect(answer.isError).toBe(true);
    const payload = HslErrorPayloadSchema.parse(answer.structured);
    expect(payload.error.code).toBe(code);
    h.digitransit.reset();
    expect((await h.call('get_departures', { stop: STOP })).isError).toBe(false);
  });

  it('data of another shape is upstream-error saying so, asked once (not retried)', async () => {
    h.digitransit.scenario(() => reply.json(200, { data: { stop: 'HSL:1040129' } }));
    const error = errorOf(await h.call('get_departures', { stop: STOP }));
    expect(error).toMatchObject({ code: 'upstream-error', message: expect.stringMatching(/malformed/) });
    expect(h.digitransit.requests.filter((r) => r.endpoint === 'routing')).toHaveLength(1);
  });

  it('429 beyond the retry budget: rate-limited with retryAfter in seconds', async () => {
    h.digitransit.scenario('rate-limited', { retryAfterSeconds: 20 });
    const error = errorOf(await h.call('get_departures', { stop: STOP }));
    expect(error).toMatchObject({ code: 'rate-limited', retryAfter: 20 });
  });

  it('429 with Retry-After within the budget is retried and succeeds', async () => {
    h.digitransit.scenario('rate-limited', { times: 1, retryAfterSeconds: 1 });
    const answer = await h.call('get_departures', { stop: STOP });
    expect(answer.isError).toBe(false);
    expect(h.digitransit.requests.filter((r) => r.endpoint === 'routing')).toHaveLength(2);
  });

  it("the gateway's 403 'Out of call volume quota' is rate-limited, with the wait it names", async () => {
    h.digitransit.scenario('forbidden');
    const error = errorOf(await h.call('get_departures', { stop: STOP }));
    expect(error).toMatchObject({ code: 'rate-limited', retryAfter: 42 });
    expect(error.message).toMatch(/quota is used up/);
    expect(h.digitransit.requests.filter((r) => r.endpoint === 'routing')).toHaveLength(1);
  });

  it('without a limit set, Digitransit calls are limited only on api.digitransit.fi, not on other hosts', async () => {
    const local = await startHarness({ env: { DIGITRANSIT_CALLS_PER_SECOND: '' } });
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => local.call('get_departures', { stop: STOP })),
      );
      expect(answers.filter((a) => a.isError)).toHaveLength(0);
    } finally {
      await local.close();
    }
  });

  it('the local DIGITRANSIT_CALLS_PER_SECOND limiter answers rate-limited with retryAfter', async () => {
    const local = await startHarness({ env: { DIGITRANSIT_CALLS_PER_SECOND: '1' } });
    try {
      const answers = await Promise.all([1, 2].map(() => local.call('get_departures', { stop: STOP })));
      const limited = answers.filter((a) => a.isError);
      expect(limited).toHaveLength(1);
      expect(errorOf(limited[0]!)).toMatchObject({ code: 'rate-limited', retryAfter: 1 });
    } finally {
      await local.close();
    }
  });

  it('a hanging upstream is upstream-timeout', async () => {
    const local = await startHarness({
      env: { DIGITRANSIT_TIMEOUT_MS: '200', TRANSIT_RETRY_BUDGET_MS: '100' },
    });
    try {
      local.digitransit.scenario('hang');
      expect(errorOf(await local.call('get_departures', { stop: STOP })).code).toBe('upstream-timeout');
    } finally {
      await local.close();
    }
  });
});
