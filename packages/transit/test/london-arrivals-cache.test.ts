// The TfL answer cache through a real SDK client against the loopback mock (whose request log counts the
// upstream calls): callers asking the same stop within TfL's lifetime cost one request, identical calls in
// flight share one, after the lifetime a new request goes out, and failures are not kept.
import { GetLondonArrivalsOutputSchema } from '@switchyard/contracts/transit';
import { describe, expect, it } from 'vitest';
import { startHarness, useHarness } from './helpers.js';

const h = useHarness({ env: { TRANSIT_RETRY_BUDGET_MS: '0', LONDON_ARRIVALS_TPS: '1000' } });

const arrivalRequests = () => h.tfl.requests.filter((r) => r.endpoint === 'tfl-arrivals');

async function ask(stop: string, extra: Record<string, unknown> = {}) {
  const answer = await h.call('get_london_arrivals', { stop: { type: 'id', value: stop }, ...extra });
  return GetLondonArrivalsOutputSchema.parse(answer.structured);
}

describe('TfL answer cache', () => {
  it('N callers asking the same stop at once and then again within the lifetime cost one upstream request', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => ask('940GZZLUOXC')));
    const later = await Promise.all(Array.from({ length: 4 }, () => ask('940GZZLUOXC', { limit: 2 })));
    for (const output of [...answers, ...later]) expect(output.success).toBe(true);
    expect(arrivalRequests()).toHaveLength(1);
    // The same answer, as of the same TfL update, until the same instant.
    expect(new Set([...answers, ...later].map((o) => `${o.dataFreshness} ${o.validUntil}`)).size).toBe(1);
    // Another question is another request.
    await ask('940GZZLUOXC', { lines: ['victoria'] });
    await ask('490000254W');
    expect(arrivalRequests()).toHaveLength(3);
  });

  it("after TfL's lifetime (here max-age=1) a new request goes out", async () => {
    h.tfl.scenario('short-max-age');
    const first = await ask('940GZZLUKSX');
    await ask('940GZZLUKSX');
    expect(arrivalRequests()).toHaveLength(1);
    expect(Date.parse(first.validUntil!) - Date.now()).toBeLessThanOrEqual(1_000);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(first.validUntil!) - Date.now() + 50));
    await ask('940GZZLUKSX');
    expect(arrivalRequests()).toHaveLength(2);
  });

  it('a failure is not kept: the next call asks TfL again and succeeds', async () => {
    h.tfl.scenario('server-error', { times: 1 });
    expect((await ask('940GZZLUOXC', { lines: ['central'] })).code).toBe('UPSTREAM_ERROR');
    expect((await ask('940GZZLUOXC', { lines: ['central'] })).code).toBe('OK');
    expect(arrivalRequests()).toHaveLength(2);
  });
});

describe('TfL answer cache bounds and per-tool rates', () => {
  it.each([
    [
      'get_london_arrivals',
      'LONDON_ARRIVALS_TPS',
      { stop: { type: 'id', value: '940GZZLUOXC' } },
      { stop: { type: 'id', value: '490000254W' } },
    ],
    ['get_line_status', 'LINE_STATUS_TPS', { lines: ['victoria'] }, { lines: ['central'] }],
    ['find_london_stops', 'LONDON_STOPS_TPS', { name: 'Oxford Circus' }, { name: 'Euston' }],
  ] as const)(
    '%s past %s: RATE_LIMIT_EXCEEDED without calling TfL; a cached answer costs none',
    async (tool, variable, one, other) => {
      const local = await startHarness({ env: { TRANSIT_RETRY_BUDGET_MS: '0', [variable]: '1' } });
      try {
        const answers = await Promise.all([one, other].map((args) => local.call(tool, args)));
        expect(answers.map((a) => a.structured.code).sort()).toEqual(['OK', 'RATE_LIMIT_EXCEEDED']);
        expect(local.tfl.requests).toHaveLength(1);
        const answered = answers[0]!.structured.code === 'OK' ? one : other;
        expect((await local.call(tool, answered)).structured.code).toBe('OK');
        expect(local.tfl.requests).toHaveLength(1);
      } finally {
        await local.close();
      }
    },
  );

  it('TFL_CACHE_MAX_BYTES: an answer larger than it is not kept, a smaller one is', async () => {
    const local = await startHarness({ env: { TRANSIT_RETRY_BUDGET_MS: '0', TFL_CACHE_MAX_BYTES: '1024' } });
    try {
      const ask = (value: string) => local.call('get_london_arrivals', { stop: { type: 'id', value } });
      const requests = () => local.tfl.requests.filter((r) => r.endpoint === 'tfl-arrivals');
      // Oxford Circus: 21 predictions, several kilobytes of JSON.
      await ask('940GZZLUOXC');
      await ask('940GZZLUOXC');
      expect(requests()).toHaveLength(2);
      // King's Cross: nothing due, an empty list.
      await ask('940GZZLUKSX');
      await ask('940GZZLUKSX');
      expect(requests()).toHaveLength(3);
    } finally {
      await local.close();
    }
  });
});
