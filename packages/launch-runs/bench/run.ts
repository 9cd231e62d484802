// Benchmarks of the launch-runs server through a real MCP Client (in-memory transport), offline, on the
// example repositories. Run with `pnpm --filter @switchyard/launch-runs bench` (add `-- --strict` to exit 1
// when a target is missed). Each measurement is reported as p50/p95 and as a ratio against a floor
// measured in the same run, so numbers from different machines compare.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { createLogger } from '@switchyard/server-kit/runtime';
import { connectInMemory } from '@switchyard/server-kit/testing';
import { launchRunsDomain, LaunchRunsConfigSchema } from '../src/index.js';
import { exampleRunConfig, materializeExampleRepos } from '../src/pipeline/index.js';
import { timeVerifier, VERIFIER_PAGE_WORDS, verifierCorpusLines } from './verifier.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const STATUS_CALLS = Number(process.env.BENCH_STATUS_CALLS ?? 2000);
// "Under load": this many clients poll status at once while a run works in the background.
const STATUS_CONCURRENCY = Number(process.env.BENCH_STATUS_CONCURRENCY ?? 4);
const VERIFIER_PAGES = Number(process.env.BENCH_VERIFIER_PAGES ?? 200);
const strict = process.argv.includes('--strict');

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

type Payload = Record<string, unknown>;
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Payload> {
  const result = await client.callTool({ name, arguments: args });
  const payload = result.structuredContent as Payload;
  if (payload.ok !== true) throw new Error(`${name} failed: ${JSON.stringify(payload)}`);
  return payload;
}

async function status(
  client: Client,
  runId: string,
): Promise<{ state: string; details: Record<string, unknown> }> {
  return (await call(client, 'launch_get_status', { run_id: runId })).status as {
    state: string;
    details: Record<string, unknown>;
  };
}

async function untilRest(client: Client, runId: string): Promise<string> {
  for (;;) {
    const s = await status(client, runId);
    if (s.details.busy === false && ['VALIDATING', 'READY_FOR_PR', 'FAILED', 'CANCELLED'].includes(s.state))
      return s.state;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function main(): Promise<void> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'launch-bench-'));
  const repos = await materializeExampleRepos(path.join(workDir, 'repos'));
  // The example repositories live beside the data directory: allowed explicitly (LAUNCH_REPO_ROOTS). Every
  // run stays READY_FOR_PR, unfinished: LAUNCH_MAX_ACTIVE_RUNS holds them all and the busy one.
  const config = LaunchRunsConfigSchema.parse({
    repoRoots: [path.join(workDir, 'repos')],
    maxActiveRuns: RUNS + 1,
  });
  // The 2025 era (initialize, then one in-memory connection): the floor is an MCP ping, which the
  // 2026-07-28 revision no longer defines.
  const { client, close } = await connectInMemory([{ domain: launchRunsDomain, config }], {
    era: 'legacy',
    dataDir: path.join(workDir, 'data'),
    logger: createLogger({ level: 'error' }),
  });
  const runConfig = exampleRunConfig(repos);
  try {
    // Floors, measured here: an MCP round trip, and the two clones W1 cannot avoid.
    const pings: number[] = [];
    for (let i = 0; i < 500; i += 1) pings.push((await timed(() => client.ping()))[1]);
    const clones: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const target = path.join(workDir, `clone-${i}`);
      const start = performance.now();
      execFileSync('git', ['clone', '--quiet', repos.sourceRepo, path.join(target, 'source')]);
      execFileSync('git', ['clone', '--quiet', repos.siteRepo, path.join(target, 'site')]);
      clones.push(performance.now() - start);
    }

    // A full run: start → background W1..W7 → fixes → READY_FOR_PR.
    const fullRuns: number[] = [];
    const fixes: number[] = [];
    const validations: number[] = [];
    let lastRun = '';
    for (let i = 0; i < RUNS; i += 1) {
      const start = performance.now();
      const runId = (await call(client, 'launch_start_run', { run_config: runConfig })).run_id as string;
      let state = await untilRest(client, runId);
      while (state === 'VALIDATING') {
        fixes.push((await timed(() => call(client, 'launch_fix_next', { run_id: runId })))[1]);
        state = (await status(client, runId)).state;
      }
      fullRuns.push(performance.now() - start);
      if (state !== 'READY_FOR_PR') throw new Error(`run ${runId} ended ${state}`);
      validations.push((await timed(() => call(client, 'launch_validate', { run_id: runId })))[1]);
      lastRun = runId;
    }

    // launch_get_status under load: concurrent callers, on an idle server and while a run works in the
    // background (its workers share the event loop with the status calls).
    const pollStatus = async (runIds: readonly string[]): Promise<number[]> => {
      const times: number[] = [];
      let issued = 0;
      await Promise.all(
        Array.from({ length: STATUS_CONCURRENCY }, async (_, worker) => {
          while (issued < STATUS_CALLS) {
            issued += 1;
            const runId = runIds[worker % runIds.length] ?? lastRun;
            times.push((await timed(() => call(client, 'launch_get_status', { run_id: runId })))[1]);
          }
        }),
      );
      return times;
    };
    const idleStatusTimes = await pollStatus([lastRun]);
    const busyRun = (await call(client, 'launch_start_run', { run_config: runConfig })).run_id as string;
    const statusTimes = await pollStatus([busyRun, lastRun]);
    await untilRest(client, busyRun);

    // The claim verifier, on the same event loop: a 2,000-word page against its brief.
    const verifierTimes = timeVerifier(VERIFIER_PAGES);

    const floorPing = percentile(pings, 50);
    const floorClone = percentile(clones, 50);
    const floorValidate = percentile(validations, 50);
    const rows = [
      {
        name: 'full run (start → READY_FOR_PR)',
        samples: fullRuns,
        floor: floorClone,
        floorName: 'git clone ×2',
        targetMs: 3000,
        targetAt: 'p50',
      },
      {
        name: 'launch_fix_next (W8 + W7)',
        samples: fixes,
        floor: floorValidate,
        floorName: 'launch_validate',
        targetMs: undefined,
        targetAt: 'p95',
      },
      {
        name: `launch_get_status (${STATUS_CONCURRENCY} callers, idle server)`,
        samples: idleStatusTimes,
        floor: floorPing,
        floorName: 'MCP ping',
        targetMs: 5,
        targetAt: 'p95',
      },
      {
        name: `launch_get_status (${STATUS_CONCURRENCY} callers, during a run)`,
        samples: statusTimes,
        floor: floorPing,
        floorName: 'MCP ping',
        targetMs: 5,
        targetAt: 'p95',
      },
      {
        name: `verify a ${VERIFIER_PAGE_WORDS.toLocaleString('en')}-word page (claim verifier)`,
        samples: verifierTimes.verify,
        floor: percentile(verifierTimes.parse, 50),
        floorName: 'markdown parse',
        targetMs: 50,
        targetAt: 'p95',
      },
    ];
    console.log(
      `launch-runs benchmark: ${RUNS} runs, ${statusTimes.length} status calls, node ${process.version}, ${os.cpus().length} cpus`,
    );
    console.log(
      `floors (p50): MCP ping ${floorPing.toFixed(2)} ms (p95 ${percentile(pings, 95).toFixed(2)} ms: scheduler noise of this machine), ` +
        `git clone ×2 ${floorClone.toFixed(1)} ms, launch_validate ${floorValidate.toFixed(1)} ms`,
    );
    console.log(
      `verifier floor (p50): markdown parse ${percentile(verifierTimes.parse, 50).toFixed(2)} ms (p95 ${percentile(verifierTimes.parse, 95).toFixed(2)} ms: the page parsed alone)`,
    );
    for (const line of verifierCorpusLines()) console.log(line);
    let missed = false;
    for (const row of rows) {
      const p50 = percentile(row.samples, 50);
      const p95 = percentile(row.samples, 95);
      const measured = row.targetAt === 'p50' ? p50 : p95;
      const verdict =
        row.targetMs === undefined
          ? ''
          : measured < row.targetMs
            ? `  target ${row.targetAt} < ${row.targetMs} ms: met`
            : `  target ${row.targetAt} < ${row.targetMs} ms: MISSED`;
      if (row.targetMs !== undefined && measured >= row.targetMs) missed = true;
      console.log(
        `${row.name.padEnd(46)} n=${String(row.samples.length).padStart(5)}  p50 ${p50.toFixed(2).padStart(8)} ms  p95 ${p95.toFixed(2).padStart(8)} ms` +
          `  (p50 ×${(p50 / row.floor).toFixed(1)} / p95 ×${(p95 / row.floor).toFixed(1)} of ${row.floorName})${verdict}`,
      );
    }
    if (strict && missed) process.exitCode = 1;
  } finally {
    await close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
