import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from '../src/harness/world.js';
import { exampleRepos, launchCall, runConfig, waitForRest } from '../src/launch.js';
import { describeLoad, runLoad } from '../src/load.js';
import { currentProfile, ERAS, suiteSeed } from '../src/profile.js';

/**
 * Concurrent MCP clients over Streamable HTTP (fast: a short burst; full: 50 clients for 60 s), in each
 * protocol era in turn, with a mixed workload of every domain against the combined server: zero errors is
 * the target, and the report gives throughput, p50/p95/p99 and the server's RSS at the end. Loopback only,
 * bounded in time.
 */
const profile = currentProfile();
let world: World;
let runId: string;

beforeAll(async () => {
  // DIGITRANSIT_CALLS_PER_SECOND lifted: 50 clients would otherwise mostly measure its 10 calls/s.
  world = await startWorld({ name: 'load' });
  const repos = await exampleRepos(path.join(world.dataDir, 'repos'));
  runId = (await launchCall(world.client, 'launch_start_run', { run_config: runConfig(repos) }))
    .run_id as string;
  await waitForRest(world.client, runId);
});

afterAll(async () => {
  await world?.close();
});

describe.each(ERAS)('load over Streamable HTTP, %s era', (era) => {
  it(`${profile.loadSessions} clients for ${profile.loadSeconds} s: every call answered, no errors`, async () => {
    const report = await runLoad(world, {
      era,
      sessions: profile.loadSessions,
      seconds: profile.loadSeconds,
      seed: suiteSeed(),
      runId,
    });
    console.log(describeLoad(report));
    expect(report.errors, report.errorSamples.join('\n')).toBe(0);
    expect(report.calls).toBeGreaterThan(profile.loadSessions);
    expect(report.rssKibEnd).toBeGreaterThan(0);
    world.assertHealthy();
    world.scanLogs();
    expect(world.scanner.found()).toEqual([]);
  });
});
