// get_line_status through a real SDK client against the loopback TfL mock: lines and modes, disrupted lines
// first with TfL's reason and validity, planned works over a range of days, unknown lines, upstream faults,
// and TfL's answer cache (one upstream request per question within its max-age).
import { GetLineStatusOutputSchema, type GetLineStatusOutput } from '@switchyard/contracts/transit';
import { reply } from '@switchyard/upstream-mocks';
import { describe, expect, it } from 'vitest';
import { useHarness } from './helpers.js';

const h = useHarness({ env: { TRANSIT_RETRY_BUDGET_MS: '0', LINE_STATUS_TPS: '1000' } });

async function status(args: Record<string, unknown>): Promise<GetLineStatusOutput> {
  const answer = await h.call('get_line_status', args);
  const output = GetLineStatusOutputSchema.parse(answer.structured);
  expect(answer.isError).toBe(!output.success);
  return output;
}

const statusRequests = () => h.tfl.requests.filter((r) => r.endpoint === 'tfl-line-status');

/** The London calendar day `days` after today, as YYYY-MM-DD (UTC days are close enough for the mock). */
function day(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe('get_line_status', () => {
  it('by lines: disrupted lines first, with severity, reason, category and when it applies', async () => {
    const before = Date.now();
    const output = await status({ lines: ['Victoria', 'central'] });
    expect(output).toMatchObject({ success: true, code: 'OK' });
    expect(output.message).toBe('2 lines: 1 disrupted, listed first.');
    const [central, victoria] = output.lines!;
    expect(central).toMatchObject({ id: 'central', name: 'Central', mode: 'tube', disrupted: true });
    expect(central!.statuses).toEqual([
      {
        severity: 9,
        description: 'Minor Delays',
        reason: expect.stringContaining('signal failure at North Acton'),
        category: 'RealTime',
        closureText: 'minorDelays',
        validity: [{ from: expect.any(String), to: expect.any(String), isNow: true }],
      },
    ]);
    const [period] = central!.statuses[0]!.validity;
    expect(Date.parse(period!.from)).toBeLessThan(before);
    expect(Date.parse(period!.to)).toBeGreaterThan(before);
    expect(victoria).toEqual({
      id: 'victoria',
      name: 'Victoria',
      mode: 'tube',
      disrupted: false,
      statuses: [{ severity: 10, description: 'Good Service', validity: [] }],
    });
    // One request, the ids sorted and lower-cased as TfL takes them; TfL's max-age (30 s) bounds validUntil.
    expect(statusRequests().map((r) => r.path)).toEqual(['/Line/central,victoria/Status']);
    expect(Date.parse(output.validUntil!)).toBeLessThanOrEqual(Date.now() + 30_000);
    expect(Date.parse(output.validUntil!)).toBeGreaterThanOrEqual(before + 29_000);
  });

  it('Information (19) is not a disruption; a disrupted line comes first whatever its name; no isNow is not now', async () => {
    const line = (id: string, severity: number, description: string, validityPeriods: unknown[] = []) => ({
      $type: 'Tfl.Api.Presentation.Entities.Line, Tfl.Api.Presentation.Entities',
      id,
      name: id[0]!.toUpperCase() + id.slice(1),
      modeName: 'tube',
      lineStatuses: [{ statusSeverity: severity, statusSeverityDescription: description, validityPeriods }],
    });
    h.tfl.scenario(() =>
      reply.json(200, [
        line('bakerloo', 19, 'Information'),
        line('victoria', 6, 'Severe Delays', [
          { fromDate: '2026-11-24T07:00:00Z', toDate: '2026-11-24T09:00:00Z' },
        ]),
      ]),
    );
    const output = await status({ lines: ['bakerloo', 'victoria'] });
    expect(output.message).toBe('2 lines: 1 disrupted, listed first.');
    expect(output.lines!.map((l) => [l.id, l.disrupted])).toEqual([
      ['victoria', true],
      ['bakerloo', false],
    ]);
    expect(output.lines![0]!.statuses[0]!.validity).toEqual([
      { from: '2026-11-24T07:00:00.000Z', to: '2026-11-24T09:00:00.000Z', isNow: false },
    ]);
  });

  it('by modes: every line of them; buses with no issues are not disrupted', async () => {
    const output = await status({ modes: ['bus', 'dlr'] });
    expect(output.lines!.map((line) => [line.id, line.disrupted])).toEqual([
      ['25', false],
      ['dlr', false],
      ['n29', false],
    ]);
    expect(output.message).toBe('3 lines: good service on all.');
    expect(statusRequests().at(-1)!.path).toBe('/Line/Mode/bus,dlr/Status');
  });

  it('over a range of days: planned works that are not running now', async () => {
    const now = await status({ lines: ['northern'] });
    expect(now.lines![0]!.disrupted).toBe(false);
    const weekAhead = await status({ lines: ['northern'], from: day(0), to: day(8) });
    const [northern] = weekAhead.lines!;
    expect(northern).toMatchObject({ id: 'northern', disrupted: true });
    expect(northern!.statuses[0]).toMatchObject({
      severity: 5,
      description: 'Part Closure',
      category: 'PlannedWork',
      validity: [{ isNow: false }],
    });
    expect(weekAhead.message).toContain(`from ${day(0)} to ${day(8)}`);
    expect(statusRequests().at(-1)!.path).toBe(
      `/Line/northern/Status/${day(0)}T00:00:00/to/${day(8)}T23:59:59`,
    );
  });

  it('an unknown line is VALIDATION_ERROR naming it, in the full envelope', async () => {
    const output = await status({ lines: ['victoria', 'hogwarts-express'] });
    expect(output).toEqual({
      success: false,
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('hogwarts-express'),
      lines: null,
      dataFreshness: null,
      validUntil: null,
    });
  });

  it('bad input is VALIDATION_ERROR saying what to fix, without a request', async () => {
    const output = await status({ modes: ['tube'], from: day(0), to: day(1) });
    expect(output).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(output.message).toContain('a date range needs lines');
    expect(statusRequests()).toHaveLength(0);
  });

  it.each([
    ['rate-limited', 'RATE_LIMIT_EXCEEDED'],
    ['server-error', 'UPSTREAM_ERROR'],
  ] as const)('TfL %s is %s', async (scenario, code) => {
    h.tfl.scenario(scenario);
    expect(await status({ lines: ['bakerloo'] })).toMatchObject({ success: false, code, lines: null });
  });

  it('callers asking the same question within TfL max-age cost one upstream request; failures are not kept', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => status({ lines: ['dlr', 'elizabeth'] })),
    );
    await status({ lines: ['elizabeth', 'DLR'] });
    for (const output of answers) expect(output.success).toBe(true);
    expect(statusRequests()).toHaveLength(1);
    h.tfl.scenario('server-error', { times: 1 });
    expect((await status({ modes: ['tram'] })).code).toBe('UPSTREAM_ERROR');
    await status({ modes: ['overground'] });
    expect(statusRequests()).toHaveLength(3);
  });
});
