// Benchmark: planJourney, get_departures and plan_trip through an MCP Client over stdio against the mocks,
// compared in the same run with (a) the same upstream requests made directly and (b) a bare SDK server whose
// tool makes the same upstream request. Reports p50/p95 of each and the ratios tool/bare.
// Target (issue 3): each tool within 1.5x of the bare tool at p50 and 2x at p95.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor, type ProtocolEra } from '@switchyard/server-kit/testing';
import { startDigitransitMock, startTflMock } from '@switchyard/upstream-mocks';
import {
  DEPARTURES_ARGS,
  departuresRequest,
  JOURNEY_ARGS,
  journeyRequest,
  TRIP_ARGS,
  tripRequest,
  type BenchTargets,
} from './upstream-requests.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const WARMUP = Number(process.env.BENCH_WARMUP ?? 50);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
/** The protocol era both clients speak: 2026-07-28 (modern, the default) or the 2025 handshake (legacy). */
const ERA: ProtocolEra = process.env.BENCH_ERA === 'legacy' ? 'legacy' : 'modern';

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

interface Stats {
  p50: number;
  p95: number;
}

/**
 * Runs the variants round-robin (one call of each per iteration, in a rotating order), so that load from
 * elsewhere on the machine falls on all of them alike.
 */
async function measureInterleaved(variants: (() => Promise<unknown>)[]): Promise<Stats[]> {
  for (let i = 0; i < WARMUP; i += 1) for (const run of variants) await run();
  const samples = variants.map(() => [] as number[]);
  for (let i = 0; i < ITERATIONS; i += 1) {
    for (let k = 0; k < variants.length; k += 1) {
      const index = (i + k) % variants.length;
      const started = performance.now();
      await variants[index]!();
      samples[index]!.push(performance.now() - started);
    }
  }
  return samples.map((list) => {
    list.sort((a, b) => a - b);
    return { p50: percentile(list, 50), p95: percentile(list, 95) };
  });
}

async function stdioClient(script: string, env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(here, script)],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'inherit',
  });
  const client = clientFor(ERA, `bench-${path.basename(script, '.ts')}`);
  await client.connect(transport);
  return client;
}

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
  digitransitKey: 'bench-dt-key-0002',
};
const env = {
  TFL_API_KEY: targets.tflKey,
  DIGITRANSIT_SUBSCRIPTION_KEY: targets.digitransitKey,
  TFL_API_BASE_URL: tfl.url,
  DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
  DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
  // The benchmark measures the tools, not the local limiters: both are lifted to their maximum.
  PLAN_JOURNEY_TPS: '10000',
  DIGITRANSIT_CALLS_PER_SECOND: '10000',
  SWITCHYARD_DATA_DIR: dataDir,
  SWITCHYARD_LOG_LEVEL: 'warn',
};
// The server exactly as the switchyard-transit bin runs it.
const transit = await stdioClient('../src/bin.ts', env);
const bare = await stdioClient('bare-server.ts', env);

const cases = [
  { tool: 'planJourney', args: JOURNEY_ARGS, direct: () => journeyRequest(targets) },
  { tool: 'get_departures', args: DEPARTURES_ARGS, direct: () => departuresRequest(targets) },
  { tool: 'plan_trip', args: TRIP_ARGS, direct: () => tripRequest(targets) },
];

const fmt = (ms: number) => ms.toFixed(2).padStart(7);
const rows: string[] = [];
let withinTarget = true;
try {
  for (const c of cases) {
    const [direct, floor, tool] = (await measureInterleaved([
      c.direct,
      () => call(bare, c.tool, {}),
      () => call(transit, c.tool, c.args),
    ])) as [Stats, Stats, Stats];
    const r50 = tool.p50 / floor.p50;
    const r95 = tool.p95 / floor.p95;
    withinTarget &&= r50 <= 1.5 && r95 <= 2;
    rows.push(
      `${c.tool.padEnd(15)} direct p50 ${fmt(direct.p50)} p95 ${fmt(direct.p95)} | bare p50 ${fmt(floor.p50)} ` +
        `p95 ${fmt(floor.p95)} | tool p50 ${fmt(tool.p50)} p95 ${fmt(tool.p95)} | tool/bare p50 ` +
        `${r50.toFixed(2)}x p95 ${r95.toFixed(2)}x`,
    );
  }
} finally {
  await transit.close();
  await bare.close();
  await tfl.close();
  await digitransit.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(`transit bench: ${ITERATIONS} calls each after ${WARMUP} warm-up calls, ${ERA} era (ms)`);
for (const row of rows) console.log(row);
console.log(`target (tool/bare <= 1.5x at p50, <= 2x at p95): ${withinTarget ? 'met' : 'NOT met'}`);
