// The benchmark's rules of judgement (bench/targets.ts, bench/report.ts) and of measuring (bench/measure.ts):
// what each figure is compared with, which mode each target speaks of, and how many calls are in flight.
import { describe, expect, it } from 'vitest';
import { measureInterleaved } from '../bench/measure.js';
import { row, rows, verdictBlock } from '../bench/report.js';
import { cellsOf, verdicts, type Measurement } from '../bench/targets.js';

function measurement(
  fields: Pick<Measurement, 'source' | 'transport' | 'callers'> & Partial<Measurement>,
): Measurement {
  return { tool: 'get_departures', stats: { p50: 2, p95: 3 }, cpuPerCallMs: 1, ...fields };
}

/** One case in both modes: the direct request, the bin and the bare tool over both transports. */
function oneCase(overrides: Partial<Record<string, Partial<Measurement>>> = {}): Measurement[] {
  const measurements: Measurement[] = [];
  for (const callers of [1, 16]) {
    // `bare/http/16`; `direct/16`.
    const key = (source: string, transport?: string) =>
      [source, transport, callers].filter((part) => part !== undefined).join('/');
    measurements.push(
      measurement({ source: 'direct', transport: undefined, callers, ...overrides[key('direct')] }),
    );
    for (const transport of ['stdio', 'http'] as const) {
      for (const source of ['switchyard', 'bare'] as const) {
        measurements.push(measurement({ source, transport, callers, ...overrides[key(source, transport)] }));
      }
    }
  }
  return measurements;
}

describe('issue #40 verdicts on one run', () => {
  it('judges the server CPU against the bare SDK tool on the same transport with as many callers', () => {
    const measurements = oneCase({
      'switchyard/http/1': { cpuPerCallMs: 1.2 },
      'bare/http/1': { cpuPerCallMs: 1.3 },
      'bare/stdio/1': { cpuPerCallMs: 0.9 },
      'switchyard/stdio/16': { cpuPerCallMs: 0.5 },
      'bare/stdio/16': { cpuPerCallMs: 0.4 },
    });
    const cpu = verdicts(cellsOf(measurements)).filter((v) => v.target === 'server CPU/call');
    const of = (transport: string, callers: number) =>
      cpu.find((v) => v.cell.switchyard.transport === transport && v.cell.switchyard.callers === callers)!;
    expect(of('http', 1)).toMatchObject({ value: 1.2, limit: 1.3, met: true });
    expect(of('stdio', 16)).toMatchObject({ value: 0.5, limit: 0.4, met: false });
    expect(of('stdio', 16).text).toBe('0.50 ms <= bare 0.40');
  });

  it('judges the added time of calls made one at a time only, against the direct request', () => {
    const measurements = oneCase({
      'switchyard/stdio/1': { stats: { p50: 2.5, p95: 4.5 } },
      'switchyard/http/1': { stats: { p50: 2.51, p95: 3 } },
      'switchyard/stdio/16': { stats: { p50: 40, p95: 90 } },
    });
    const judged = verdicts(cellsOf(measurements));
    const named = (target: string, transport: string) =>
      judged.filter((v) => v.target === target && v.cell.switchyard.transport === transport);
    // A limit reached exactly is met; 16 callers are not judged on time (their time is mostly queueing).
    expect(named('added p50', 'stdio').map((v) => [v.cell.switchyard.callers, v.met])).toEqual([[1, true]]);
    expect(named('added p95', 'stdio').map((v) => [v.cell.switchyard.callers, v.met])).toEqual([[1, true]]);
    expect(named('added p50', 'http').map((v) => v.met)).toEqual([false]);
    expect(named('added p50', 'http')[0]!.text).toBe('+0.51 ms <= +0.50');
    expect(judged.filter((v) => v.cell.switchyard.callers === 16).map((v) => v.target)).toEqual([
      'server CPU/call',
      'server CPU/call',
    ]);
  });

  it('refuses to judge a measurement whose floor was not measured', () => {
    const withoutBareHttp = oneCase().filter((m) => !(m.source === 'bare' && m.transport === 'http'));
    expect(() => cellsOf(withoutBareHttp)).toThrow(/no bare measurement with 1 callers/);
    const withoutLoadedDirect = oneCase().filter((m) => !(m.source === 'direct' && m.callers === 16));
    expect(() => cellsOf(withoutLoadedDirect)).toThrow(/no direct measurement with 16 callers/);
  });

  it('says met only when every verdict is met, and counts the misses', () => {
    const allMet = verdictBlock(verdicts(cellsOf(oneCase())));
    expect(allMet.at(-1)).toBe('issue #40 targets: met (all 8 verdicts)');
    // One line per tool, transport and mode.
    expect(allMet).toHaveLength(4 + 1);
    const oneMiss = verdictBlock(verdicts(cellsOf(oneCase({ 'switchyard/http/16': { cpuPerCallMs: 9 } }))));
    expect(oneMiss.at(-1)).toBe('issue #40 targets: NOT met (1 of 8 verdicts not met)');
    expect(oneMiss.find((line) => line.includes('http') && line.includes('16 callers'))).toMatch(
      /server CPU\/call 9\.00 ms <= bare 1\.00 NOT met$/,
    );
  });
});

describe('benchmark rows', () => {
  it('prints each server beside the direct request of its mode, the loaded mode named', () => {
    const measurements = oneCase({
      'direct/16': { stats: { p50: 20, p95: 40 } },
      'bare/http/16': { stats: { p50: 25, p95: 41.5 }, cpuPerCallMs: 0.75 },
    });
    const loaded = rows(measurements, 16);
    expect(loaded).toHaveLength(4);
    const bareHttp = loaded.find((line) =>
      line.startsWith('get_departures, bare SDK tool (http, 16 callers) '),
    );
    expect(bareHttp).toMatch(
      /direct p50 +20\.00 p95 +40\.00 \| tool p50 +25\.00 p95 +41\.50 \| added p50 +5\.00 p95 +1\.50 \| cpu\/call +0\.75$/,
    );
    expect(rows(measurements, 1)[0]).toMatch(/^get_departures \(stdio\) +direct p50/);
  });

  it('has no row for the direct request itself', () => {
    const direct = measurement({ source: 'direct', transport: undefined, callers: 1 });
    expect(() => row(direct, direct)).toThrow(/floor of a row/);
  });
});

describe('interleaved measuring', () => {
  /** A variant that counts its calls and the most of them in flight at once; `turns` gets runs of its calls. */
  function counted(name: string, turns: [string, number][]) {
    const seen = { calls: 0, inFlight: 0, mostInFlight: 0 };
    return {
      seen,
      variant: {
        run: async () => {
          const last = turns.at(-1);
          if (last?.[0] === name) last[1] += 1;
          else turns.push([name, 1]);
          seen.calls += 1;
          seen.inFlight += 1;
          seen.mostInFlight = Math.max(seen.mostInFlight, seen.inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          seen.inFlight -= 1;
        },
      },
    };
  }

  it('keeps as many calls in flight as the mode has callers, and makes the warm-up and the measured calls', async () => {
    const turns: [string, number][] = [];
    const a = counted('a', turns);
    const b = counted('b', turns);
    const measured = await measureInterleaved([a.variant, b.variant], {
      callers: 16,
      burst: 64,
      calls: 200,
      warmup: 32,
    });
    for (const { seen } of [a, b]) expect(seen).toMatchObject({ calls: 232, mostInFlight: 16 });
    expect(measured.map((m) => m.cpuPerCallMs)).toEqual([undefined, undefined]);
    // 32 warm-up calls are one turn each; 200 measured calls four turns each (64, 64, 64, 8), the order rotating
    // each round (a b, b a, a b, b a), so a variant's turns meet at the rounds' edges.
    expect(turns).toEqual([
      ['a', 32],
      ['b', 32],
      ['a', 64],
      ['b', 128],
      ['a', 128],
      ['b', 72],
      ['a', 8],
    ]);
  });

  it('makes one call at a time with one caller', async () => {
    const turns: [string, number][] = [];
    const a = counted('a', turns);
    await measureInterleaved([a.variant], { callers: 1, burst: 1, calls: 20, warmup: 5 });
    expect(a.seen).toMatchObject({ calls: 25, mostInFlight: 1 });
  });
});
