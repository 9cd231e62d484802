// Benchmark: each transit tool through a real MCP client against the loopback mocks, judged on issue #40's
// targets against floors measured in the same run, interleaved call by call (bench/measure.ts):
// - the direct upstream request: the same requests made straight from this process with fetch, no MCP (the
//   floor of the time a tool adds: p50 <= +0.5 ms, p95 <= +1.5 ms, for a call made alone);
// - the bare SDK tool (bench/bare-server.ts): an SDK server whose tool makes the same requests and returns the
//   upstream JSON, over stdio and over the SDK's own stateless HTTP handling (the floor of the server CPU per
//   call, transport for transport: the bin may cost at most as much, one call at a time and under 16 callers).
// The built switchyard-transit bin runs as users run it (dist/, stdio and HTTP). Each case is measured with one
// call at a time and then with BENCH_CALLERS (16) calls in flight per server. Needs a build.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import type { ProtocolEra } from '@switchyard/server-kit/testing';
import { startDigitransitMock, startTflMock } from '@switchyard/upstream-mocks';
import { profileCalls } from './cpu-areas.js';
import { measureInterleaved, type Mode } from './measure.js';
import type { Stats } from './stats.js';
import { areaTable, modeName, rows, verdictBlock, type AreaColumn } from './report.js';
import { startServer, type Server, type ServerStart } from './servers.js';
import { cellsOf, verdicts, type Measurement, type Source, type Transport } from './targets.js';
import {
  ARRIVALS_ARGS,
  arrivalsRequest,
  LINE_STATUS_ARGS,
  lineStatusRequest,
  LONDON_STOPS_ARGS,
  londonStopsRequest,
  DEPARTURES_ARGS,
  departuresRequest,
  FIND_STOPS_ARGS,
  findStopsRequest,
  JOURNEY_ARGS,
  journeyRequest,
  NAMED_TRIP_ARGS,
  namedTripRequest,
  TRIP_ARGS,
  tripRequest,
  serverEnv,
  type BenchTargets,
} from './upstream-requests.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'bin', 'switchyard-transit.js');
// Enough warm-up calls for V8 to optimise the hot path, as in a server that has been up for a while.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
/** Calls in flight at once per server in the loaded mode, and the calls per variant measured so. */
const CALLERS = Number(process.env.BENCH_CALLERS ?? 16);
const CONCURRENT_CALLS = Number(process.env.BENCH_CONCURRENT_CALLS ?? 1600);
/** One call at a time (after the warm-up), then CALLERS at once on servers that are warm by then. */
const MODES: readonly Mode[] = [
  { callers: 1, burst: 1, calls: ITERATIONS, warmup: WARMUP },
  // Four calls per caller in a turn, so that all of them are in flight for most of it.
  { callers: CALLERS, burst: CALLERS * 4, calls: CONCURRENT_CALLS, warmup: CALLERS * 8 },
];
/** The protocol era the clients speak: 2026-07-28 (modern, the default) or the 2025 handshake (legacy). */
const ERA: ProtocolEra = process.env.BENCH_ERA === 'legacy' ? 'legacy' : 'modern';
/** Calls profiled per server for the CPU-by-area table, and the cases profiled. */
const PROFILE_CALLS = Number(process.env.BENCH_PROFILE_CALLS ?? 2000);
const PROFILED = ['get_departures', 'planJourney'];
/** BENCH_CASES=plan_trip,get_line_status runs only those cases (and profiles only those of PROFILED). */
const ONLY = process.env.BENCH_CASES?.split(',').filter((name) => name !== '');
/**
 * BENCH_BASELINE_BIN=<another build's bin>: that build over stdio and HTTP is measured in the same interleaved rounds,
 * a before/after in one machine state (the figure to trust on a shared machine).
 */
const BASELINE_BIN = process.env.BENCH_BASELINE_BIN;

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
}

const tfl = await startTflMock();
const digitransit = await startDigitransitMock();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transit-bench-'));
const targets: BenchTargets = {
  tflUrl: tfl.url,
  tflKey: 'bench-tfl-key-0001',
  routingUrl: digitransit.routingUrl,
  geocodingUrl: digitransit.geocodingUrl,
  digitransitKey: 'bench-dt-key-0002',
};
const env = serverEnv(targets, dataDir);

interface BenchServer {
  source: Exclude<Source, 'direct'>;
  transport: Transport;
  start: ServerStart;
  /** Its column in the CPU-by-area table; none: not profiled. */
  profileColumn?: string;
}

const binOver = (transport: Transport): ServerStart => ({
  label: `switchyard-${transport}`,
  transport,
  args: [BIN],
  env,
  era: ERA,
});
const bareOver = (transport: Transport): ServerStart => ({
  label: `bare-${transport}`,
  transport,
  args: ['--import', 'tsx', path.join(here, 'bare-server.ts')],
  env,
  era: ERA,
});
const SERVERS: readonly BenchServer[] = [
  { source: 'switchyard', transport: 'stdio', start: binOver('stdio'), profileColumn: 'bin stdio' },
  { source: 'switchyard', transport: 'http', start: binOver('http'), profileColumn: 'bin http' },
  { source: 'bare', transport: 'stdio', start: bareOver('stdio'), profileColumn: 'bare stdio' },
  { source: 'bare', transport: 'http', start: bareOver('http'), profileColumn: 'bare http' },
  ...(BASELINE_BIN === undefined
    ? []
    : (['stdio', 'http'] as const).map((transport) => ({
        source: 'baseline' as const,
        transport,
        start: { ...binOver(transport), label: `baseline-${transport}`, args: [BASELINE_BIN] },
      }))),
];

const allCases = [
  {
    name: 'planJourney',
    tool: 'planJourney',
    bareTool: 'planJourney',
    args: JOURNEY_ARGS,
    direct: journeyRequest,
  },
  {
    name: 'get_departures',
    tool: 'get_departures',
    bareTool: 'get_departures',
    args: DEPARTURES_ARGS,
    direct: departuresRequest,
  },
  { name: 'plan_trip', tool: 'plan_trip', bareTool: 'plan_trip', args: TRIP_ARGS, direct: tripRequest },
  {
    name: 'plan_trip/names',
    tool: 'plan_trip',
    bareTool: 'plan_trip_named',
    args: NAMED_TRIP_ARGS,
    direct: namedTripRequest,
  },
  {
    name: 'find_stops',
    tool: 'find_stops',
    bareTool: 'find_stops',
    args: FIND_STOPS_ARGS,
    direct: findStopsRequest,
  },
  {
    name: 'get_london_arrivals',
    tool: 'get_london_arrivals',
    bareTool: 'get_london_arrivals',
    args: ARRIVALS_ARGS,
    direct: arrivalsRequest,
  },
  {
    name: 'get_line_status',
    tool: 'get_line_status',
    bareTool: 'get_line_status',
    args: LINE_STATUS_ARGS,
    direct: lineStatusRequest,
  },
  {
    name: 'find_london_stops',
    tool: 'find_london_stops',
    bareTool: 'find_london_stops',
    args: LONDON_STOPS_ARGS,
    direct: londonStopsRequest,
  },
];
const cases = ONLY === undefined ? allCases : allCases.filter((c) => ONLY.includes(c.name));
if (cases.length === 0)
  throw new Error(`BENCH_CASES names no case; one of ${allCases.map((c) => c.name).join(', ')}`);
type Case = (typeof cases)[number];

/** The bare server has one tool per case, which takes no arguments; the bins take the case's. */
const callOf = (server: BenchServer, c: Case) =>
  server.source === 'bare' ? { tool: c.bareTool, args: {} } : { tool: c.tool, args: c.args };

const measurements: Measurement[] = [];
const running: Server[] = [];
/** The bare echo tool's round trip, one call at a time, by transport: the SDK's handling of one call, for reference. */
const roundTrips: { transport: Transport; stats: Stats }[] = [];
try {
  for (const server of SERVERS) running.push(await startServer(server.start));
  for (const c of cases) {
    for (const mode of MODES) {
      // Progress on stderr: the results are printed together at the end.
      process.stderr.write(`transit bench: ${c.name}, ${modeName(mode.callers)}\n`);
      const [direct, ...served] = await measureInterleaved(
        [
          { run: () => c.direct(targets) },
          ...SERVERS.map((server, index) => {
            const { tool, args } = callOf(server, c);
            return { pid: running[index]!.pid, run: () => call(running[index]!.client, tool, args) };
          }),
        ],
        mode,
      );
      const common = { tool: c.name, callers: mode.callers };
      measurements.push(
        { ...common, source: 'direct', transport: undefined, ...direct! },
        ...served.map((m, index) => ({
          ...common,
          source: SERVERS[index]!.source,
          transport: SERVERS[index]!.transport,
          ...m,
        })),
      );
    }
  }
  // Last, on servers as warm as the cases left them.
  const bareServers = SERVERS.flatMap((server, index) => (server.source === 'bare' ? [index] : []));
  process.stderr.write('transit bench: the MCP round trip alone\n');
  const echoes = await measureInterleaved(
    bareServers.map((index) => ({ run: () => call(running[index]!.client, 'echo', {}) })),
    MODES[0]!,
  );
  echoes.forEach((echo, at) =>
    roundTrips.push({ transport: SERVERS[bareServers[at]!]!.transport, stats: echo.stats }),
  );
} finally {
  await Promise.all(running.map((server) => server.close()));
}

/**
 * Where the server CPU of a call goes, the bin beside the bare SDK tool over each transport: the same sampled
 * areas side by side show which part of a missed CPU target is Switchyard's own code, which the SDK, zod,
 * undici and GC cost the bare tool as well, and what HTTP adds.
 */
async function cpuTable(c: Case): Promise<string[]> {
  const profiled = SERVERS.filter((server) => server.profileColumn !== undefined);
  const columns: AreaColumn[] = [];
  for (const server of profiled) {
    const { tool, args } = callOf(server, c);
    process.stderr.write(`transit bench: profiling ${c.name}, ${server.profileColumn!}\n`);
    const summary = await profileCalls({
      server: server.start,
      warmup: Math.min(WARMUP, PROFILE_CALLS),
      calls: PROFILE_CALLS,
      call: (client) => call(client, tool, args),
    });
    fs.rmSync(path.dirname(summary.file), { recursive: true, force: true });
    columns.push({ label: server.profileColumn!, summary });
  }
  return areaTable(c.name, columns);
}

const profiles: string[] = [];
try {
  for (const c of cases.filter((c) => PROFILED.includes(c.name))) profiles.push(...(await cpuTable(c)));
} finally {
  await tfl.close();
  await digitransit.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(
  `transit bench: ${ERA} era, Node ${process.version}, ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (ms)`,
);
console.log(
  'floors, measured in the same interleaved rounds: "direct" = the same upstream requests made from the ' +
    'benchmark process with fetch, no MCP (the floor of the added time); "bare SDK tool" = bench/bare-server.ts, ' +
    'an SDK tool making the same requests and returning the upstream JSON, over stdio (serveStdio) and over HTTP ' +
    '(createMcpHandler, stateless, through toNodeHandler): the floor of the server CPU, transport for transport',
);
console.log(
  `\nthe MCP round trip alone: the bare SDK tool 'echo', which makes no upstream request, ${MODES[0]!.calls} calls ` +
    "one at a time after the cases, for reference: the SDK client's and server's handling of one call and its " +
    "transport (a tool's added time is not bounded by it: the direct floor pays its own fetch in this process)",
);
for (const { transport, stats } of roundTrips)
  console.log(`  ${transport.padEnd(5)}  p50 ${stats.p50.toFixed(2)}  p95 ${stats.p95.toFixed(2)}`);
for (const mode of MODES) {
  console.log(
    `\n${modeName(mode.callers)}: ${mode.calls} calls per variant after ${mode.warmup} warm-up calls, ` +
      `${mode.burst} per turn of a round${mode.callers === 1 ? '' : ` (server CPU per call; the time includes waiting in queues)`}`,
  );
  for (const line of rows(measurements, mode.callers)) console.log(line);
}
console.log(
  '\nissue #40 verdicts, per tool, transport and mode (each: value <= target): the time added over the direct ' +
    'request for calls made one at a time; the server CPU per call against the bare SDK tool on the same ' +
    'transport with as many callers',
);
for (const line of verdictBlock(verdicts(cellsOf(measurements)))) console.log(line);
console.log(
  `\nwhere the server CPU goes (node --cpu-prof, ${PROFILE_CALLS} calls one at a time after the warm-up; ` +
    'the bin and the bare SDK tool over stdio and over HTTP; ' +
    'sampled busy ms per call, by the module each sample ran in)',
);
for (const line of profiles) console.log(line);
