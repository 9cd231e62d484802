import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkJourneyWrites,
  checkResumedRun,
  killDuringJourneyWrites,
  killDuringLaunchRuns,
  sqliteIntegrity,
} from '../src/durability.js';
import { startWorld, type World } from '../src/harness/world.js';
import { exampleRepos, launchCall, runConfig, type LaunchRepos } from '../src/launch.js';
import { currentProfile, suiteSeed } from '../src/profile.js';

/**
 * SIGKILL the combined server at seeded random moments during launch runs and during concurrent journey
 * writes; after a restart on the same data directory every acknowledged write is there, every run resumes
 * to DONE with a verifying event chain, and nothing is duplicated. Each trial prints its seed.
 */
const profile = currentProfile();
const baseSeed = suiteSeed();
let world: World;
let repos: LaunchRepos;

beforeAll(async () => {
  world = await startWorld({ name: 'durability' });
  repos = await exampleRepos(path.join(world.dataDir, 'repos'));
});

afterAll(async () => {
  await world?.close();
});

describe('SIGKILL during launch runs', () => {
  for (let trial = 0; trial < profile.launchKillTrials; trial += 1) {
    it(`trial ${trial + 1}: every acknowledged run is there, resumes to DONE, chains verify, nothing doubled`, async () => {
      const seed = baseSeed + trial;
      console.log(
        `launch kill trial ${trial + 1}: seed ${seed} (HARDENING_SEED=${baseSeed} replays the suite)`,
      );
      const report = await killDuringLaunchRuns(world, repos, {
        seed,
        runs: profile.runsPerLaunchTrial,
        trial,
        maxKillMs: 2500,
      });
      console.log(
        `  killed after ${report.killAfterMs} ms; interrupted: ${report.interrupted.length}/${report.runIds.length}`,
      );
      // A retried start with the same idempotency key finds the acknowledged run, never a second one.
      for (const key of report.keys) {
        const again = await launchCall(world.client, 'launch_start_run', {
          run_config: runConfig(repos),
          idempotency_key: key,
        });
        expect(report.runIds).toContain(again.run_id);
      }
      const problems = (
        await Promise.all(report.runIds.map((id) => checkResumedRun(world.client, id)))
      ).flat();
      expect(problems, `seed ${seed}`).toEqual([]);
      const listed = await launchCall(world.client, 'launch_list_runs', { limit: 50 });
      const listedIds = (listed.runs as { run_id: string }[]).map((r) => r.run_id);
      for (const id of report.runIds) expect(listedIds.filter((x) => x === id)).toHaveLength(1);
      expect(sqliteIntegrity(world.dataDir, 'launch-runs.sqlite')).toBe('ok');
      world.assertHealthy();
    });
  }
});

describe('SIGKILL during concurrent journey writes', () => {
  for (let trial = 0; trial < profile.journeyKillTrials; trial += 1) {
    it(`trial ${trial + 1}: every acknowledged session and document is there, once, and searchable`, async () => {
      const seed = baseSeed + 1000 + trial;
      console.log(`journey kill trial ${trial + 1}: seed ${seed}`);
      const report = await killDuringJourneyWrites(world, {
        seed,
        writers: 6,
        journeys: 4,
        maxKillMs: 1500,
        perJourneyCap: 90,
      });
      const acked = [...report.sessions.values()].reduce((n, list) => n + list.length, 0);
      console.log(`  killed after ${report.killAfterMs} ms with ${acked} acknowledged sessions`);
      expect(acked).toBeGreaterThan(0);
      expect(await checkJourneyWrites(world.client, report), `seed ${seed}`).toEqual([]);
      expect(sqliteIntegrity(world.dataDir, 'journey-continuity.sqlite')).toBe('ok');
      world.assertHealthy();
    });
  }
});
