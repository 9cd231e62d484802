// Benchmarks of the combined server against a bare SDK server with one echo tool, measured in the same run:
// cold start (spawn to `initialize` answered), idle RSS, and tool-call throughput over HTTP with 16
// concurrent clients. Prints medians, p95 and the ratios against the targets. Needs a build first.
// Clients are the v2 SDK's: the 2025 handshake for the cold start (what a starting client waits for), the
// 2026-07-28 revision for the calls (one stateless HTTP request each, in both servers).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientFor } from '@switchyard/server-kit/testing';
import { ms, summarize, verdict } from './stats.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SWITCHYARD = path.join(HERE, '..', 'dist', 'bin.js');
const BARE = path.join(HERE, 'bare-server.mjs');
const COLD_STARTS = Number(process.env.BENCH_COLD_STARTS ?? 20);
const CLIENTS = 16;
const CALLS_PER_CLIENT = Number(process.env.BENCH_CALLS_PER_CLIENT ?? 100);
/** The calls are made in this many rounds, alternating the two servers, so that load hits both alike. */
const ROUNDS = 5;
const WARMUP_CALLS_PER_CLIENT = 20;

interface Target {
  label: string;
  script: string;
  /** A tool call that is representative of the server's work. */
  call: { name: string; arguments: Record<string, unknown> };
}

function environment(dataDir: string): Record<string, string> {
  return { ...getDefaultEnvironment(), SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_LOG_LEVEL: 'warn' };
}

function rssMegabytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Spawn to `initialize` answered, through a real SDK client; then the RSS once the process idles. */
async function coldStart(
  script: string,
  dataDir: string,
): Promise<{ ms: number; rssMb: number | undefined }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script],
    env: environment(dataDir),
    stderr: 'ignore',
  });
  const client = clientFor('legacy', 'bench');
  const start = performance.now();
  await client.connect(transport);
  const elapsed = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const pid = transport.pid;
  const rssMb = pid !== null && fs.existsSync(`/proc/${pid}/status`) ? rssMegabytes(pid) : undefined;
  await client.close();
  return { ms: elapsed, rssMb };
}

function startHttp(script: string, dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script, '--http', '--port', '0'], {
    env: environment(dataDir),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      if (url !== undefined) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}):\n${stderr}`)));
  });
}

async function connect(url: string): Promise<Client> {
  const client = clientFor('modern', 'bench');
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

interface Load {
  clients: Client[];
  call: Target['call'];
}

async function openLoad(url: string, call: Target['call']): Promise<Load> {
  return { clients: await Promise.all(Array.from({ length: CLIENTS }, () => connect(url))), call };
}

/** Every client makes `calls` calls in sequence, all clients at once; returns calls per second. */
async function round(load: Load, calls: number, latencies: number[]): Promise<number> {
  const start = performance.now();
  await Promise.all(
    load.clients.map(async (client) => {
      for (let i = 0; i < calls; i += 1) {
        const began = performance.now();
        const result = await client.callTool(load.call);
        if (result.isError === true)
          throw new Error(`${load.call.name} failed: ${JSON.stringify(result.content)}`);
        latencies.push(performance.now() - began);
      }
    }),
  );
  return (load.clients.length * calls) / ((performance.now() - start) / 1000);
}

interface Workload {
  label: string;
  load: Load;
  rates: number[];
  latencies: number[];
}

/**
 * Both servers serve at once; after a warm-up, rounds alternate between the workloads and each one's rate
 * is the median of its rounds (a slow moment on the machine then moves one round, not the result).
 */
async function throughput(workloads: readonly Workload[]): Promise<void> {
  const perRound = Math.max(1, Math.round(CALLS_PER_CLIENT / ROUNDS));
  for (const workload of workloads) await round(workload.load, WARMUP_CALLS_PER_CLIENT, []);
  for (let i = 0; i < ROUNDS; i += 1) {
    for (const workload of workloads) {
      workload.rates.push(await round(workload.load, perRound, workload.latencies));
    }
  }
}

function reportLine(workload: Workload): string {
  const latency = summarize(workload.latencies);
  return (
    `  ${workload.label.padEnd(52)} ${summarize(workload.rates).p50.toFixed(0)} calls/s` +
    `  p50 ${ms(latency.p50)}  p95 ${ms(latency.p95)}`
  );
}

/** A journey with history to query, created through the running combined server. */
async function seedJourney(url: string): Promise<string> {
  const client = await connect(url);
  try {
    const journey = await client.callTool({ name: 'get_or_create_journey', arguments: {} });
    const journeyId = (journey.structuredContent as { journey_id: string }).journey_id;
    for (let i = 0; i < 20; i += 1) {
      await client.callTool({
        name: 'record_session',
        arguments: {
          journey_id: journeyId,
          summary: `Session ${i}: trams, ferries and night buses in Helsinki`,
        },
      });
    }
    return journeyId;
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(SWITCHYARD)) throw new Error(`${SWITCHYARD} is missing: build first (pnpm build)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-bench-'));
  console.log(
    `switchyard benchmarks (${os.cpus().length} CPUs, Node ${process.version}); floor: bare SDK echo server; ` +
      'calls in the modern era (2026-07-28)',
  );

  // Cold start: alternate the two servers so that machine load hits both alike.
  const cold = { bare: [] as number[], switchyard: [] as number[] };
  const rss = { bare: [] as number[], switchyard: [] as number[] };
  for (let i = 0; i < COLD_STARTS; i += 1) {
    for (const [name, script] of [
      ['bare', BARE],
      ['switchyard', SWITCHYARD],
    ] as const) {
      const sample = await coldStart(script, dataDir);
      cold[name].push(sample.ms);
      if (sample.rssMb !== undefined) rss[name].push(sample.rssMb);
    }
  }
  const bareCold = summarize(cold.bare);
  const syCold = summarize(cold.switchyard);
  const coldRatio = syCold.p50 / bareCold.p50;
  console.log(`\ncold start, spawn to initialize answered (${COLD_STARTS} runs each)`);
  console.log(`  bare SDK server  p50 ${ms(bareCold.p50)}  p95 ${ms(bareCold.p95)}`);
  console.log(`  switchyard       p50 ${ms(syCold.p50)}  p95 ${ms(syCold.p95)}`);
  console.log(`  ratio ${coldRatio.toFixed(2)}x (target: within 1.5x) ${verdict(coldRatio <= 1.5)}`);
  if (rss.bare.length > 0) {
    const bareRss = summarize(rss.bare).p50;
    const syRss = summarize(rss.switchyard).p50;
    console.log(`\nidle RSS after initialize (median)`);
    console.log(
      `  bare ${bareRss.toFixed(1)} MB, switchyard ${syRss.toFixed(1)} MB (${(syRss / bareRss).toFixed(2)}x)`,
    );
  }

  // Throughput over HTTP: the bare echo tool against two journey queries, the one an assistant makes to
  // pick up where a person left off (newest sessions) and a keyword search (FTS5, bm25, snippets).
  const bareHttp = await startHttp(BARE, dataDir);
  const syHttp = await startHttp(SWITCHYARD, dataDir);
  const journeyId = await seedJourney(syHttp.url);
  const workload = async (label: string, url: string, call: Target['call']): Promise<Workload> => ({
    label,
    load: await openLoad(url, call),
    rates: [],
    latencies: [],
  });
  const bare = await workload('bare echo', bareHttp.url, { name: 'echo', arguments: { text: 'hello' } });
  const queries = [
    await workload('switchyard query_journey_history, newest first', syHttp.url, {
      name: 'query_journey_history',
      arguments: { journey_id: journeyId, limit: 10 },
    }),
    await workload('switchyard query_journey_history, keyword search', syHttp.url, {
      name: 'query_journey_history',
      arguments: { journey_id: journeyId, query: 'helsinki trams', limit: 10 },
    }),
  ];
  await throughput([bare, ...queries]);
  await Promise.all([bare, ...queries].flatMap((w) => w.load.clients).map((client) => client.close()));
  bareHttp.child.kill('SIGTERM');
  syHttp.child.kill('SIGTERM');
  console.log(
    `\ntool calls over HTTP, ${CLIENTS} concurrent clients x ${CALLS_PER_CLIENT} calls each ` +
      `(${ROUNDS} rounds, alternating, after ${WARMUP_CALLS_PER_CLIENT} warm-up calls; median rate)`,
  );
  console.log(reportLine(bare));
  const bareRate = summarize(bare.rates).p50;
  for (const query of queries) {
    const share = summarize(query.rates).p50 / bareRate;
    console.log(
      `${reportLine(query)}  share ${(share * 100).toFixed(0)}% (target: at least 70%) ${verdict(share >= 0.7)}`,
    );
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
