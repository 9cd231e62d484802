import type { ToolBenchRow } from './tool-bench.js';

/** The protocol era a measurement was made in: 2026-07-28 (modern) or the 2025 handshake (legacy). */
export type BenchEra = 'modern' | 'legacy';

const ERA_NAMES: readonly string[] = ['modern', 'legacy'] satisfies BenchEra[];

/** One measured operation of a package's own benchmark, read from its printed output. */
export interface BenchRow {
  operation: string;
  /** The protocol era its MCP client spoke. */
  era: BenchEra;
  p50: number;
  p95: number;
  floorLabel: string;
  floorP50: number;
  /** Undefined when the benchmark prints no p95 for its floor. */
  floorP95: number | undefined;
  /** The server process's CPU time per call, where the benchmark measures it. */
  cpuPerCallMs?: number;
  /** The database it ran on, where the benchmark runs the same operations on several (SQLite, PostgreSQL). */
  dialect?: string;
}

/** A benchmark's output did not have the shape its parser knows: the report fails rather than guess. */
export class BenchParseError extends Error {}

const num = (text: string | undefined): number => {
  const value = Number(text);
  if (text === undefined || !Number.isFinite(value))
    throw new BenchParseError(`not a number: ${String(text)}`);
  return value;
};

/**
 * The one era a benchmark's output names (`… modern era …`), else `otherwise`: what its script's client
 * speaks without saying (the parser's knowledge of that script). Naming both eras is for a parser that
 * reads the era per row.
 */
export function eraOf(output: string, otherwise: BenchEra, name: string): BenchEra {
  const named = [...new Set([...output.matchAll(/\b(modern|legacy) era\b/g)].map((m) => m[1] as BenchEra))];
  if (named.length > 1)
    throw new BenchParseError(`the ${name} benchmark names both eras; its parser cannot tell its rows apart`);
  return named[0] ?? otherwise;
}

function requireRows(name: string, rows: BenchRow[], output: string): BenchRow[] {
  if (rows.length === 0) {
    throw new BenchParseError(
      `no result rows found in the output of the ${name} benchmark:\n${output.slice(-2000)}`,
    );
  }
  return rows;
}

/**
 * packages/transit bench/run.ts: `operation (transport) direct p50 … p95 … | tool p50 … p95 … | added p50 …
 * p95 … | cpu/call …`, after a header naming the era; the floor is the direct upstream call.
 */
export function parseTransitBench(output: string): BenchRow[] {
  const era = eraOf(output, 'modern', 'transit');
  const rows: BenchRow[] = [];
  const pattern =
    /^(\S.*?)\s+direct p50\s+([\d.]+) p95\s+([\d.]+) \| tool p50\s+([\d.]+) p95\s+([\d.]+) \| added p50\s+(-?[\d.]+) p95\s+(-?[\d.]+) \| cpu\/call\s+([\d.]+)$/;
  for (const line of output.split('\n')) {
    const m = pattern.exec(line.trim());
    if (m === null) continue;
    rows.push({
      operation: m[1]!,
      era,
      p50: num(m[4]),
      p95: num(m[5]),
      floorLabel: 'the same upstream requests made directly',
      floorP50: num(m[2]),
      floorP95: num(m[3]),
      cpuPerCallMs: num(m[8]),
    });
  }
  return requireRows('transit', rows, output);
}

/**
 * packages/journey-continuity bench/run.ts: per database, a header `== SQLite: …` (or PostgreSQL), then rows
 * `operation  p50 p95 floor50 floor95 x50  target` (ms, 3 decimals), through connectInMemory's default era
 * (modern) unless the output names another. Rows before any header (an older output) name no database.
 */
export function parseJourneyBench(output: string): BenchRow[] {
  const era = eraOf(output, 'modern', 'journey-continuity');
  const rows: BenchRow[] = [];
  const header = /^== (SQLite|PostgreSQL):/;
  const pattern = /^(\S.*?)\s+(\d+\.\d{3})\s+(\d+\.\d{3})\s+(\d+\.\d{3})\s+(\d+\.\d{3})\s+([\d.]+)\s+(.*)$/;
  let dialect: string | undefined;
  for (const line of output.split('\n')) {
    dialect = header.exec(line)?.[1] ?? dialect;
    const m = pattern.exec(line.trim());
    if (m === null) continue;
    rows.push({
      operation: m[1]!.trim(),
      era,
      p50: num(m[2]),
      p95: num(m[3]),
      floorLabel: 'the same domain call without MCP',
      floorP50: num(m[4]),
      floorP95: num(m[5]),
      dialect,
    });
  }
  return requireRows('journey-continuity', rows, output);
}

/**
 * packages/launch-runs bench/run.ts: a floors line, then `name n=… p50 … ms p95 … ms (… of FLOOR)`, in the
 * legacy era unless the output names another (its floor is an MCP ping, which 2026-07-28 no longer defines).
 */
export function parseLaunchBench(output: string): BenchRow[] {
  const era = eraOf(output, 'legacy', 'launch-runs');
  const floors =
    /floors \(p50\): MCP ping ([\d.]+) ms \(p95 ([\d.]+) ms[^)]*\), git clone ×2 ([\d.]+) ms, launch_validate ([\d.]+) ms/.exec(
      output,
    );
  if (floors === null)
    throw new BenchParseError(`no floors line in the launch-runs benchmark output:\n${output.slice(-2000)}`);
  const floorOf: Record<string, [number, number | undefined]> = {
    'MCP ping': [num(floors[1]), num(floors[2])],
    'git clone ×2': [num(floors[3]), undefined],
    launch_validate: [num(floors[4]), undefined],
  };
  // The claim verifier's floor (issue #37): the same page parsed alone.
  const parseFloor = /verifier floor \(p50\): markdown parse ([\d.]+) ms \(p95 ([\d.]+) ms/.exec(output);
  if (parseFloor !== null) floorOf['markdown parse'] = [num(parseFloor[1]), num(parseFloor[2])];
  const rows: BenchRow[] = [];
  const pattern =
    /^(\S.*?)\s+n=\s*(\d+)\s+p50\s+([\d.]+) ms\s+p95\s+([\d.]+) ms\s+\(p50 ×[\d.]+ \/ p95 ×[\d.]+ of (.+?)\)/;
  for (const line of output.split('\n')) {
    const m = pattern.exec(line.trim());
    if (m === null) continue;
    const floor = floorOf[m[5]!];
    if (floor === undefined) throw new BenchParseError(`unknown floor "${m[5]!}" in: ${line}`);
    rows.push({
      operation: m[1]!.trim(),
      era,
      p50: num(m[3]),
      p95: num(m[4]),
      floorLabel: m[5]!,
      floorP50: floor[0],
      floorP95: floor[1],
    });
  }
  return requireRows('launch-runs', rows, output);
}

/** One line of the claim verifier's labelled corpus: a label (faithful) or a planted fault kind. */
export interface VerifierCorpusRow {
  kind: string;
  sentences: number;
  accepted: number;
  refused: number;
}

export interface VerifierCorpus {
  /** `203 sentences (ky 86, commander 72, yaml 45)`. */
  summary: string;
  rows: VerifierCorpusRow[];
}

/**
 * The claim verifier's corpus figures in the launch-runs benchmark output (`verifier corpus: …`, then
 * `verifier corpus KIND n=… accepted … refused …`); undefined when the output has none.
 */
export function parseVerifierCorpus(output: string): VerifierCorpus | undefined {
  const summary = /^verifier corpus: (.+)$/m.exec(output)?.[1];
  if (summary === undefined) return undefined;
  const rows = [
    ...output.matchAll(/^verifier corpus (\S+)\s+n=\s*(\d+)\s+accepted\s+(\d+)\s+refused\s+(\d+)\s*$/gm),
  ].map((m) => ({ kind: m[1]!, sentences: num(m[2]), accepted: num(m[3]), refused: num(m[4]) }));
  if (rows.length === 0)
    throw new BenchParseError(`verifier corpus summary without rows:\n${output.slice(-2000)}`);
  return { summary: summary.trim(), rows };
}

/**
 * apps/meta-server bench/run.ts: the cold start of every bin and HTTP tool calls, each against the bare SDK
 * server. Cold start rows name their era (`legacy era  switchyard-transit  p50 …`) and are floored by the bare
 * server's row of the same era; the calls are in the era the first line names (`calls in the modern era`), else
 * legacy (an SDK client without version negotiation).
 */
export function parseMetaServerBench(output: string): BenchRow[] {
  const callsEra = /calls in the (modern|legacy) era/.exec(output)?.[1] as BenchEra | undefined;
  const rows: BenchRow[] = [];
  // `modern era, to tools/list` rows: the same start on to the first tools/list answer.
  const coldLine =
    /^\s+(legacy|modern) era(, to tools\/list)?\s+(\S+(?: SDK server)?)\s+p50 ([\d.]+) ms\s+p95 ([\d.]+) ms/gm;
  const cold = [...output.matchAll(coldLine)].map((m) => ({
    era: m[1] as BenchEra,
    answer: m[2] === undefined ? 'first answer' : 'first tools/list answer',
    label: m[3]!,
    p50: num(m[4]),
    p95: num(m[5]),
  }));
  for (const own of cold.filter((c) => c.label !== 'bare SDK server')) {
    const bare = cold.find(
      (c) => c.era === own.era && c.answer === own.answer && c.label === 'bare SDK server',
    );
    if (bare === undefined)
      throw new BenchParseError(`no bare SDK server cold start to the ${own.answer} in the ${own.era} era`);
    rows.push({
      operation: `cold start of ${own.label}, spawn to the ${own.answer} (stdio)`,
      era: own.era,
      p50: own.p50,
      p95: own.p95,
      floorLabel: 'bare SDK server',
      floorP50: bare.p50,
      floorP95: bare.p95,
    });
  }
  const bareCalls = /bare echo\s+[\d.]+ calls\/s\s+p50 ([\d.]+) ms\s+p95 ([\d.]+) ms/.exec(output);
  const ownCalls = /switchyard (\S.*?)\s+[\d.]+ calls\/s\s+p50 ([\d.]+) ms\s+p95 ([\d.]+) ms/g;
  for (const own of bareCalls === null ? [] : output.matchAll(ownCalls)) {
    rows.push({
      operation: `${own[1]!} over HTTP, 16 concurrent clients`,
      era: callsEra ?? 'legacy',
      p50: num(own[2]),
      p95: num(own[3]),
      floorLabel: 'bare SDK echo tool, same clients',
      floorP50: num(bareCalls![1]),
      floorP95: num(bareCalls![2]),
    });
  }
  return requireRows('meta-server', rows, output);
}

/** The per-tool benchmark of this package: its BENCH_RESULT_JSON line. */
export interface ToolBenchResult {
  iterations: number;
  warmup: number;
  /** The Node version the benchmark ran on (`process.version`). */
  node: string;
  rows: ToolBenchRow[];
}

export function parseToolBench(output: string): ToolBenchResult {
  const line = output.split('\n').find((l) => l.startsWith('BENCH_RESULT_JSON '));
  if (line === undefined)
    throw new BenchParseError(
      `no BENCH_RESULT_JSON line in the hardening benchmark output:\n${output.slice(-2000)}`,
    );
  const result = JSON.parse(line.slice('BENCH_RESULT_JSON '.length)) as ToolBenchResult;
  if (!Array.isArray(result.rows) || result.rows.length === 0)
    throw new BenchParseError('the hardening benchmark reported no rows');
  if (typeof result.node !== 'string' || !/^v\d+\./.test(result.node))
    throw new BenchParseError('the hardening benchmark did not say which Node version it ran on');
  const eraless = result.rows.find((row) => !ERA_NAMES.includes(row.era));
  if (eraless !== undefined)
    throw new BenchParseError(`the hardening benchmark row of ${eraless.tool} names no protocol era`);
  return result;
}

/** Which parser reads which package's benchmark (by package name). */
export const PARSERS: Readonly<Record<string, (output: string) => BenchRow[]>> = {
  '@switchyard/transit': parseTransitBench,
  '@switchyard/journey-continuity': parseJourneyBench,
  '@switchyard/launch-runs': parseLaunchBench,
  '@switchyard/server': parseMetaServerBench,
};
