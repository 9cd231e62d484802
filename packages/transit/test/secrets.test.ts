// The keys never appear in a tool result (structured or text) or a log line, whatever the upstream does:
// TfL echoes request URIs (app_key included) in its error bodies.
import {
  DIGITRANSIT_SCENARIOS,
  GEOCODING_SCENARIOS,
  TFL_SCENARIOS,
  type DigitransitScenarioName,
  type TflScenarioName,
} from '@switchyard/upstream-mocks';
import type { ToolAnswer } from '@switchyard/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

const TFL_SENTINEL = 'SENTINEL-TFL-KEY-0001';
const DT_SENTINEL = 'SENTINEL-DT-KEY-0002';

let h: Harness;
const answers: ToolAnswer[] = [];
let digitransitSawKey = false;

function noteDigitransitKey(): void {
  digitransitSawKey ||= h.digitransit.requests.some(
    (r) => r.headers['digitransit-subscription-key'] === DT_SENTINEL,
  );
}

beforeAll(async () => {
  h = await startHarness({
    tflKey: TFL_SENTINEL,
    digitransitKey: DT_SENTINEL,
    env: {
      TFL_TIMEOUT_MS: '200',
      DIGITRANSIT_TIMEOUT_MS: '200',
      TRANSIT_RETRY_BUDGET_MS: '0',
      // Every scenario must reach TfL: no answer kept from an earlier one.
      TFL_CACHE_MAX_ENTRIES: '0',
      LONDON_ARRIVALS_TPS: '1000',
    },
  });
});
afterAll(async () => {
  await h.close();
});

async function record(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const answer = await h.call(name, args);
  answers.push(answer);
  return answer;
}

const TRIP = {
  origin: { type: 'coords', value: { lat: 60.1699, lon: 24.9384 } },
  destination: { type: 'label', value: 'Kiasma' },
};

describe('sentinel keys', () => {
  // The TfL failures (not the normal answer, nor its shorter caching hint).
  const TFL_FAULTS = TFL_SCENARIOS.filter((s) => s !== 'default' && s !== 'short-max-age');

  it.each(TFL_FAULTS)('planJourney, TfL %s', async (scenario) => {
    h.tfl.scenario(scenario as TflScenarioName);
    const answer = await record('planJourney', { from: 'Bank', to: 'Mile End' });
    expect(answer.structured.success).toBe(scenario === 'not-found');
  });

  it.each(TFL_FAULTS.filter((s) => !s.startsWith('disambiguation')))(
    'get_london_arrivals, TfL %s',
    async (scenario) => {
      h.tfl.scenario(scenario as TflScenarioName);
      const answer = await record('get_london_arrivals', { stop: { type: 'id', value: '940GZZLUOXC' } });
      expect(answer.structured.success).toBe(false);
    },
  );

  it.each(DIGITRANSIT_SCENARIOS.filter((s) => s !== 'default'))(
    'HSL tools, Digitransit %s',
    async (scenario) => {
      h.digitransit.scenario(scenario as DigitransitScenarioName);
      await record('get_departures', { stop: { type: 'id', value: 'HSL:1040129' } });
      await record('plan_trip', {
        ...TRIP,
        destination: { type: 'coords', value: { lat: 60.1989, lon: 24.9325 } },
      });
      await record('find_stops', { name: 'Kamppi' });
      noteDigitransitKey();
      h.digitransit.reset();
    },
  );

  it.each(GEOCODING_SCENARIOS.filter((s) => s !== 'default'))('plan_trip, geocoding %s', async (scenario) => {
    h.digitransit.geocodingScenario(scenario);
    await record('plan_trip', TRIP);
    noteDigitransitKey();
    h.digitransit.reset();
  });

  it('appear in no output and no log line', () => {
    expect(answers.length).toBeGreaterThan(60);
    expect(answers.filter((a) => a.isError).length).toBeGreaterThan(45);
    expect(h.logLines.length).toBeGreaterThan(0);
    const haystacks = [
      ...answers.flatMap((a) => [JSON.stringify(a.structured), a.text, JSON.stringify(a.raw)]),
      ...h.logLines,
    ];
    for (const secret of [TFL_SENTINEL, DT_SENTINEL]) {
      const leaks = haystacks.filter(
        (text) => text.includes(secret) || text.includes(encodeURIComponent(secret)),
      );
      expect(leaks).toEqual([]);
    }
  });

  it('the keys did reach the upstreams (so the check above is meaningful)', () => {
    expect(h.tfl.requests.some((r) => r.query.app_key === TFL_SENTINEL)).toBe(true);
    expect(digitransitSawKey).toBe(true);
  });
});
