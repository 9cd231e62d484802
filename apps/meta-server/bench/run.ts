// Benchmarks of the combined server against a bare SDK server with one echo tool, measured in the same run:
// cold start (spawn to `initialize` answered), idle RSS, and tool-call throughput over HTTP with 16
// concurrent clients. Prints medians, p95 and the ratios against the targets. Needs a build first.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ms, summarize, verdict } from './stats.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SWITCHYARD = path.join(HERE, '..', 'dist', 'bin.js');
const BARE = path.join(HERE, 'bare-server.mjs');
const COLD_STARTS = Number(process.env.BENCH_COLD_STARTS ?? 10);
const CLIENTS = 16;
const CALLS_PER_CLIENT = Number(process.env.BENCH_CALLS_PER_CLIENT ?? 50);

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
  const client = new Client({ name: 'bench', version: '0.0.0' });
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
  const client = new Client({ name: 'bench', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function throughput(
  url: string,
  call: Target['call'],
): Promise<{ perSecond: number; latencies: number[] }> {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connect(url)));
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < CALLS_PER_CLIENT; i += 1) {
        const began = performance.now();
        const result = await client.callTool(call);
        if (result.isError === true)
          throw new Error(`${call.name} failed: ${JSON.stringify(result.content)}`);
        latencies.push(performance.now() - began);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await Promise.all(clients.map((client) => client.close()));
  return { perSecond: latencies.length / seconds, latencies };
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
    `switchyard benchmarks (${os.cpus().length} CPUs, Node ${process.version}); floor: bare SDK echo server`,
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

  // Throughput over HTTP, one server at a time.
  const bareHttp = await startHttp(BARE, dataDir);
  const bareRun = await throughput(bareHttp.url, { name: 'echo', arguments: { text: 'hello' } });
  bareHttp.child.kill('SIGTERM');
  const syHttp = await startHttp(SWITCHYARD, dataDir);
  const journeyId = await seedJourney(syHttp.url);
  const syRun = await throughput(syHttp.url, {
    name: 'query_journey_history',
    arguments: { journey_id: journeyId, query: 'helsinki trams', limit: 10 },
  });
  syHttp.child.kill('SIGTERM');
  const share = syRun.perSecond / bareRun.perSecond;
  const bareLatency = summarize(bareRun.latencies);
  const syLatency = summarize(syRun.latencies);
  console.log(`\ntool calls over HTTP, ${CLIENTS} concurrent clients x ${CALLS_PER_CLIENT} calls`);
  console.log(
    `  bare echo                         ${bareRun.perSecond.toFixed(0)} calls/s  p50 ${ms(bareLatency.p50)}  p95 ${ms(bareLatency.p95)}`,
  );
  console.log(
    `  switchyard query_journey_history  ${syRun.perSecond.toFixed(0)} calls/s  p50 ${ms(syLatency.p50)}  p95 ${ms(syLatency.p95)}`,
  );
  console.log(
    `  share ${(share * 100).toFixed(0)}% of the bare server (target: at least 70%) ${verdict(share >= 0.7)}`,
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
