import { describe, expect, it } from 'vitest';
import { renderReport, type PackageSection } from '../src/report/markdown.js';
import {
  BenchParseError,
  eraOf,
  parseJourneyBench,
  parseLaunchBench,
  parseMetaServerBench,
  parseToolBench,
  parseTransitBench,
  parseVerifierCorpus,
} from '../src/report/parsers.js';
import { overheadChart } from '../src/report/svg.js';

/**
 * The report reads what each package's benchmark prints. These outputs are built with the same format
 * strings the bench scripts use; if a script changes its format, the parser must fail loudly (the report is
 * never written with guessed numbers).
 */
describe('parsing each package benchmark', () => {
  it('transit: each tool and transport against the direct upstream call, with server CPU per call', () => {
    const fmt = (ms: number) => ms.toFixed(2).padStart(7);
    const line =
      `${'plan_trip/names (http)'.padEnd(38)} direct p50 ${fmt(1.2)} p95 ${fmt(2.5)} | tool p50 ${fmt(2.9)} ` +
      `p95 ${fmt(4.75)} | added p50 ${fmt(1.7)} p95 ${fmt(2.25)} | cpu/call ${fmt(0.93)}`;
    // The CPU-by-area table that ends the output is for reading, not rows.
    const areas = [
      'where the server CPU goes over stdio (node --cpu-prof, 2000 calls after the warm-up; sampled busy ms per call)',
      'get_departures           switchyard  bare SDK tool',
      '  zod                       0.16    0.08',
      '  busy, all areas           1.61    1.47',
    ].join('\n');
    const output = `transit bench: 400 calls each after 50 warm-up calls, legacy era, Node v24.21.0 (ms)\n${line}\ntargets: met\n${areas}`;
    expect(parseTransitBench(output)).toEqual([
      {
        operation: 'plan_trip/names (http)',
        era: 'legacy',
        p50: 2.9,
        p95: 4.75,
        floorLabel: 'the same upstream requests made directly',
        floorP50: 1.2,
        floorP95: 2.5,
        cpuPerCallMs: 0.93,
      },
    ]);
  });

  it('journey-continuity: operations with spaces and commas', () => {
    const ms = (v: number) => v.toFixed(3).padStart(8);
    const row = `${'query_journey_history, newest first'.padEnd(38)} ${ms(0.31)} ${ms(0.48)} ${ms(0.12)} ${ms(0.15)} ${'2.6'.padStart(6)}  p95 <= 5 ms`;
    const header = `${'operation'.padEnd(38)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'floor50'.padStart(8)}`;
    const rows = parseJourneyBench(`\n${header}\n${row}\n`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      operation: 'query_journey_history, newest first',
      era: 'modern',
      p50: 0.31,
      floorP95: 0.15,
    });
  });

  it('journey-continuity: each row names the database of the header above it', () => {
    const ms = (v: number) => v.toFixed(3).padStart(8);
    const row = (operation: string, p50: number) =>
      `${operation.padEnd(38)} ${ms(p50)} ${ms(p50 * 2)} ${ms(p50 / 2)} ${ms(p50)} ${'2.0'.padStart(6)}  p95 <= 5 ms`;
    const output = [
      'SQLite: loaded 100 journeys and 2000 sessions in 0.1 s (36198 sessions/s)',
      '== SQLite: 100 journeys, 2000 sessions, 30 timed calls each (milliseconds)',
      row('query_journey_history + query', 0.8),
      'PostgreSQL: loaded 100 journeys and 2000 sessions in 0.1 s (18906 sessions/s)',
      '== PostgreSQL: 100 journeys, 2000 sessions, 30 timed calls each (milliseconds)',
      row('query_journey_history + query', 2.5),
    ].join('\n');
    expect(parseJourneyBench(output).map((r) => [r.operation, r.dialect, r.p50, r.floorP50])).toEqual([
      ['query_journey_history + query', 'SQLite', 0.8, 0.4],
      ['query_journey_history + query', 'PostgreSQL', 2.5, 1.25],
    ]);
  });

  it('launch-runs: each row against its named floor', () => {
    const output = [
      'launch-runs benchmark: 5 runs, 2000 status calls, node v20.20.2, 2 cpus',
      'floors (p50): MCP ping 0.21 ms (p95 0.40 ms: scheduler noise of this machine), git clone ×2 41.5 ms, launch_validate 35.2 ms',
      `${'full run (start → READY_FOR_PR)'.padEnd(46)} n=    5  p50  1800.20 ms  p95  1900.00 ms  (p50 ×43.4 / p95 ×45.8 of git clone ×2)  target p50 < 3000 ms: met`,
      `${'launch_get_status (4 callers, idle server)'.padEnd(46)} n= 2000  p50     0.90 ms  p95     2.10 ms  (p50 ×4.3 / p95 ×10.0 of MCP ping)`,
    ].join('\n');
    const rows = parseLaunchBench(output);
    expect(rows.map((r) => [r.operation, r.era, r.floorP50, r.floorP95])).toEqual([
      ['full run (start → READY_FOR_PR)', 'legacy', 41.5, undefined],
      ['launch_get_status (4 callers, idle server)', 'legacy', 0.21, 0.4],
    ]);
  });

  it('launch-runs: the claim verifier row against its markdown parse floor, and its corpus figures', () => {
    const output = [
      'launch-runs benchmark: 5 runs, 2000 status calls, node v20.20.2, 2 cpus',
      'floors (p50): MCP ping 0.21 ms (p95 0.40 ms: scheduler noise of this machine), git clone ×2 41.5 ms, launch_validate 35.2 ms',
      'verifier floor (p50): markdown parse 1.10 ms (p95 1.90 ms: the page parsed alone)',
      'verifier corpus: 203 sentences (ky 86, commander 72, yaml 45)',
      'verifier corpus faithful     n= 103  accepted  99  refused   4',
      'verifier corpus number       n=  14  accepted   0  refused  14',
      `${'verify a 2,000-word page (claim verifier)'.padEnd(46)} n=  200  p50     6.00 ms  p95     9.00 ms  (p50 ×5.5 / p95 ×8.2 of markdown parse)  target p95 < 50 ms: met`,
    ].join('\n');
    expect(parseLaunchBench(output).map((r) => [r.operation, r.p50, r.floorP50, r.floorP95])).toEqual([
      ['verify a 2,000-word page (claim verifier)', 6, 1.1, 1.9],
    ]);
    expect(parseVerifierCorpus(output)).toEqual({
      summary: '203 sentences (ky 86, commander 72, yaml 45)',
      rows: [
        { kind: 'faithful', sentences: 103, accepted: 99, refused: 4 },
        { kind: 'number', sentences: 14, accepted: 0, refused: 14 },
      ],
    });
    expect(parseVerifierCorpus('launch-runs benchmark without a verifier')).toBeUndefined();
    expect(() => parseVerifierCorpus('verifier corpus: 3 sentences (ky 3)')).toThrow(BenchParseError);
  });

  it('meta-server: cold start and HTTP calls against the bare server, each in its era', () => {
    const output = [
      'switchyard benchmarks (2 CPUs, Node v24.21.0); floor: bare SDK echo server; calls in the modern era (2026-07-28)',
      'cold start, spawn to the first answer (10 runs each, in turn)',
      '  legacy era  bare SDK server      p50 120.0 ms  p95 140.5 ms',
      '  legacy era  switchyard-transit   p50 170.2 ms  p95 199.9 ms  1.42x bare (target: <= 1.00x) misses target',
      '  modern era  bare SDK server      p50 110.0 ms  p95 130.5 ms',
      '  modern era  switchyard           p50 190.2 ms  p95 219.9 ms  1.73x bare (target: <= 1.28x) misses target',
      '  modern era, to tools/list  bare SDK server      p50 115.0 ms  p95 135.5 ms',
      '  modern era, to tools/list  switchyard           p50 195.2 ms  p95 225.9 ms  1.70x bare (target: <= 1.28x) misses target',
      '  bare echo                                            2400 calls/s  p50 6.1 ms  p95 9.0 ms',
      '  switchyard query_journey_history, newest first       2000 calls/s  p50 7.1 ms  p95 11.0 ms  share 83%',
      '  switchyard query_journey_history, keyword search     1900 calls/s  p50 7.9 ms  p95 12.2 ms  share 79%',
    ].join('\n');
    expect(parseMetaServerBench(output).map((r) => [r.operation, r.era, r.p50, r.floorP50])).toEqual([
      ['cold start of switchyard-transit, spawn to the first answer (stdio)', 'legacy', 170.2, 120],
      ['cold start of switchyard, spawn to the first answer (stdio)', 'modern', 190.2, 110],
      ['cold start of switchyard, spawn to the first tools/list answer (stdio)', 'modern', 195.2, 115],
      ['query_journey_history, newest first over HTTP, 16 concurrent clients', 'modern', 7.1, 6.1],
      ['query_journey_history, keyword search over HTTP, 16 concurrent clients', 'modern', 7.9, 6.1],
    ]);
    // Without an era named (an SDK client without version negotiation), the calls are legacy.
    const unnamed = parseMetaServerBench(output.split('\n').slice(1).join('\n'));
    expect(unnamed.map((r) => r.era)).toEqual(['legacy', 'modern', 'modern', 'legacy', 'legacy']);
    expect(() => parseMetaServerBench(output.replace(/ {2}modern era {2}bare SDK server.*\n/, ''))).toThrow(
      BenchParseError,
    );
  });

  it('refuses output it cannot read instead of inventing numbers', () => {
    expect(() => parseTransitBench('something else entirely')).toThrow(BenchParseError);
    expect(() => parseLaunchBench('no floors here')).toThrow(BenchParseError);
    expect(() => parseToolBench('no json line')).toThrow(BenchParseError);
  });

  it('reads the protocol era a benchmark names, and refuses per-tool rows without Node or era', () => {
    expect(
      eraOf('transit bench: 400 calls each after 50 warm-up calls, modern era (ms)', 'legacy', 'x'),
    ).toBe('modern');
    expect(eraOf('no era named', 'legacy', 'x')).toBe('legacy');
    expect(() => eraOf('… legacy era …\n… modern era …', 'legacy', 'x')).toThrow(BenchParseError);
    const row = {
      tool: 'find_stops',
      domain: 'transit',
      note: '',
      n: 1,
      p50: 1,
      p95: 1,
      floorP50: 1,
      floorP95: 1,
    };
    const line = (result: object) => `BENCH_RESULT_JSON ${JSON.stringify(result)}`;
    expect(() =>
      parseToolBench(line({ iterations: 1, warmup: 0, rows: [{ ...row, era: 'modern' }] })),
    ).toThrow(/Node version/);
    expect(() => parseToolBench(line({ iterations: 1, warmup: 0, node: 'v24.1.0', rows: [row] }))).toThrow(
      /find_stops names no protocol era/,
    );
  });
});

describe('writing the report', () => {
  const tools = parseToolBench(
    `table...\nBENCH_RESULT_JSON ${JSON.stringify({
      iterations: 10,
      warmup: 2,
      node: 'v24.21.0',
      rows: [
        {
          era: 'modern',
          tool: 'get_departures',
          domain: 'transit',
          note: '',
          n: 10,
          p50: 3,
          p95: 6,
          floorP50: 1.5,
          floorP95: 2,
        },
      ],
    })}`,
  );

  /** The report of one run with the per-tool rows above and these package sections. */
  const reportOf = (packages: PackageSection[]) =>
    renderReport({
      generatedAt: new Date('2026-01-01T00:00:00Z'),
      quick: false,
      machineStart: {
        cpuModel: 'Test CPU',
        cores: 2,
        memoryGiB: 24,
        node: 'v20.20.2',
        os: 'Linux',
        loadAverage: [1, 1, 1],
      },
      loadAverageEnd: [2, 2, 2],
      tools,
      toolSection: {
        packageName: '@switchyard/hardening',
        command: 'pnpm bench',
        settings: {},
        seconds: 3,
        output: '',
      },
      packages,
      chartFile: 'benchmarks.svg',
    });

  const launchRow: PackageSection['rows'][number] = {
    operation: 'launch_get_status',
    era: 'legacy',
    p50: 1,
    p95: 2,
    floorLabel: 'MCP ping',
    floorP50: 0.5,
    floorP95: undefined,
  };

  /** launch-runs' section of the report with one row. */
  const launchSection = (row: PackageSection['rows'][number]): PackageSection => ({
    packageName: '@switchyard/launch-runs',
    command: 'pnpm --filter @switchyard/launch-runs bench',
    settings: {},
    seconds: 9,
    node: 'v22.19.0',
    rows: [row],
    output: '',
  });

  it('states the machine, Node and era of each measurement, a row per tool with floor and ratio, and the chart', () => {
    const markdown = reportOf([launchSection(launchRow)]);
    expect(markdown).toContain('Test CPU, 2 cores, 24.0 GiB RAM');
    expect(markdown).toContain('the report ran on Node v20.20.2');
    expect(markdown).toContain('Protocol era: modern (2026-07-28, no handshake); Node v24.21.0.');
    expect(markdown).toContain(
      '| modern | `get_departures` | transit |  | 3.00 | 6.00 | 1.50 | 2.00 | 2.00x | 3.00x |',
    );
    expect(markdown).toContain('Protocol era: legacy (the 2025 `initialize` handshake); Node v22.19.0.');
    expect(markdown).toContain('](benchmarks.svg)');
  });

  it('shows every verdict a benchmark printed before its folded output, and no other line', () => {
    const output = [
      'transit bench: 400 calls each',
      'planJourney (stdio)   direct p50 2.09 | cpu/call 2.77',
      '  planJourney          stdio  one call at a time:  added p50 +1.74 ms <= +0.50 NOT met | server CPU/call 2.77 ms <= bare 3.65 met',
      'issue #40 targets: NOT met (50 of 64 verdicts not met)',
      '  legacy era  switchyard-transit   p50 138.3 ms  0.86x bare (target: <= 1.00x) meets target',
      '  switchyard-transit 114.5 MB (target: <= 110 MiB) MISSES target',
      'where the server CPU goes (not a verdict: these words are not met at the end of the line)',
    ].join('\n');
    const markdown = reportOf([{ ...launchSection(launchRow), output }]);
    const block = markdown.slice(markdown.indexOf('Targets, as the benchmark judged them:'));
    const shown = block.slice(block.indexOf('```text\n') + 8, block.indexOf('\n```\n'));
    expect(shown.split('\n')).toEqual([
      '  planJourney          stdio  one call at a time:  added p50 +1.74 ms <= +0.50 NOT met | server CPU/call 2.77 ms <= bare 3.65 met',
      'issue #40 targets: NOT met (50 of 64 verdicts not met)',
      '  legacy era  switchyard-transit   p50 138.3 ms  0.86x bare (target: <= 1.00x) meets target',
      '  switchyard-transit 114.5 MB (target: <= 110 MiB) MISSES target',
    ]);
    expect(reportOf([launchSection(launchRow)])).not.toContain('Targets, as the benchmark judged them:');
  });

  it("carries the claim verifier's corpus table with its false accepts and faithful refusals", () => {
    const section = launchSection({
      operation: 'verify a 2,000-word page (claim verifier)',
      era: 'legacy',
      p50: 6,
      p95: 9,
      floorLabel: 'markdown parse',
      floorP50: 1.1,
      floorP95: 1.9,
    });
    const markdown = reportOf([
      {
        ...section,
        verifierCorpus: {
          summary: '203 sentences (ky 86, commander 72, yaml 45)',
          rows: [
            { kind: 'faithful', sentences: 103, accepted: 99, refused: 4 },
            { kind: 'number', sentences: 14, accepted: 0, refused: 14 },
            { kind: 'uncited', sentences: 15, accepted: 1, refused: 14 },
          ],
        },
      },
    ]);
    expect(markdown).toContain('planted faults accepted 1 of 29 (3.4%, target <= 2%');
    expect(markdown).toContain('faithful paraphrases refused 4 of 103 (3.9%, target <= 10%)');
    expect(markdown).toContain('| number | 14 | 0 | 14 | 0.0% |');
    expect(markdown).toContain(
      '| verify a 2,000-word page (claim verifier) | legacy | 6.00 | 9.00 | markdown parse |',
    );
  });

  it("puts a benchmark's databases side by side, and names each row's database", () => {
    const row = (dialect: string, p50: number) => ({
      operation: 'query_journey_history + query',
      era: 'modern' as const,
      p50,
      p95: p50 * 2,
      floorLabel: 'the same domain call without MCP',
      floorP50: p50 / 2,
      floorP95: p50,
      dialect,
    });
    const markdown = reportOf([
      {
        packageName: '@switchyard/journey-continuity',
        command: 'pnpm --filter @switchyard/journey-continuity bench',
        settings: {},
        seconds: 60,
        node: 'v24.21.0',
        rows: [row('SQLite', 0.8), row('PostgreSQL', 2.5)],
        output: '',
      },
    ]);
    expect(markdown).toContain('| operation | SQLite p50 | SQLite p95 | PostgreSQL p50 | PostgreSQL p95 |');
    expect(markdown).toContain('| query_journey_history + query | 0.80 | 1.60 | 2.50 | 5.00 |');
    expect(markdown).toContain('| query_journey_history + query (PostgreSQL) | modern | 2.50 | 5.00 |');
  });

  it('draws one bar per tool, longest for the largest overhead', () => {
    const svg = overheadChart(
      [
        { label: 'a', overheadMs: 1, ratio: 1.5 },
        { label: 'b', overheadMs: 4, ratio: 3 },
      ],
      'title',
    );
    const widths = [...svg.matchAll(/<rect x="\d+(?:\.\d+)?" y="[\d.]+" width="([\d.]+)"/g)].map((m) =>
      Number(m[1]),
    );
    expect(widths).toHaveLength(2);
    expect(widths[1]!).toBeGreaterThan(widths[0]!);
    expect(svg).toContain('4.0 ms (3.00x)');
  });
});
