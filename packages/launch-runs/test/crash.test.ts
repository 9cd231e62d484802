import fs from 'node:fs';
import path from 'node:path';
import type { RunConfigInput } from '@switchyard/contracts/launch-runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchDb } from '../src/db/drizzle.js';
import { openLaunchDatabase } from '../src/db/open.js';
import { materializeExampleRepos } from '../src/pipeline/index.js';
import { sha256Hex } from '../src/canonical-json.js';
import { verifyEventChain } from '../src/store/event-chain.js';
import { SqliteLaunchStore } from '../src/store/sqlite-launch-store.js';
import { startChildServer, waitForFile, type ChildServer } from './support/child-server.js';
import { atRest, tempDir, waitForStatus, type Payload } from './support/harness.js';
import { exampleConfig, maskTimings } from './support/launch-flow.js';
import type { PausePoint } from './support/pausing-pipeline.js';

/**
 * Crash test: a server in a child process is killed with SIGKILL at several points of a run; a new
 * process finds the runs interrupted, resumes them to the end, and then: every run is DONE, its event
 * chain verifies, every indexed artifact is on disk with its recorded sha256, nothing is indexed twice,
 * no half-written file is left, and the artifacts equal those of an uninterrupted run of the same inputs.
 */
const KILL_POINTS: { name: string; pause: Omit<PausePoint, 'marker'>; duringFix?: boolean }[] = [
  { name: 'inside W1 after the clones (CREATED)', pause: { afterArtifact: 'repo_inventory.json' } },
  { name: 'inside W2 after product_facts.json', pause: { afterArtifact: 'product_facts.json' } },
  { name: 'at the start of W5 (DRAFTING)', pause: { worker: 'W5' } },
  { name: 'inside W6 after patch_bundle.json', pause: { afterArtifact: 'patch_bundle.json' } },
  { name: 'inside a fix (FIXING)', pause: { worker: 'W8' }, duringFix: true },
];

const dataDir = tempDir('crash');
let config: RunConfigInput;
const children: ChildServer[] = [];
afterAll(async () => {
  for (const child of children) await child.kill();
  if (process.env.KEEP_CRASH_DIR) console.log('kept', dataDir);
  else fs.rmSync(dataDir, { recursive: true, force: true });
});

async function child(
  options: Omit<Parameters<typeof startChildServer>[0], 'dataDir' | 'pipeline'>,
): Promise<ChildServer> {
  const server = await startChildServer({ dataDir, pipeline: 'real', ...options });
  children.push(server);
  return server;
}

type Status = { state: string; details: Record<string, unknown> };
const stateOf = async (server: ChildServer, runId: string) =>
  ((await server.call('launch_get_status', { run_id: runId })).structured.status as Status).state;

/** Drives a run to DONE the way a client would: resume to a stable state, fix until ready, open the PR. */
async function finish(server: ChildServer, runId: string): Promise<void> {
  for (let guard = 0; guard < 10; guard += 1) {
    const state = await stateOf(server, runId);
    if (state === 'VALIDATING' || state === 'READY_FOR_PR') break;
    const resumed = (await server.call('launch_resume', { run_id: runId })).structured;
    if (resumed.ok !== true) throw new Error(`resume failed: ${JSON.stringify(resumed)}`);
  }
  for (let guard = 0; guard < 10 && (await stateOf(server, runId)) === 'VALIDATING'; guard += 1) {
    const fixed = (await server.call('launch_fix_next', { run_id: runId })).structured;
    if (fixed.ok !== true) throw new Error(`fix failed: ${JSON.stringify(fixed)}`);
  }
  const pr: Payload = (await server.call('launch_open_pr', { run_id: runId })).structured;
  if (pr.ok !== true) throw new Error(`open_pr failed: ${JSON.stringify(pr)}`);
}

async function artifactsOf(runId: string): Promise<Map<string, string>> {
  const database = openLaunchDatabase(dataDir);
  try {
    const store = new SqliteLaunchStore(launchDb(database.sqlite), () => undefined);
    return new Map((await store.artifacts(runId)).map((row) => [row.name, row.sha256]));
  } finally {
    database.sqlite.close();
  }
}

beforeAll(async () => {
  config = exampleConfig(await materializeExampleRepos(path.join(dataDir, 'repos')));
});

describe('crash and resume', () => {
  const crashed: { name: string; runId: string }[] = [];

  it('kills a server with SIGKILL at each point of a run', async () => {
    await Promise.all(
      KILL_POINTS.map(async (point, index) => {
        const marker = path.join(dataDir, `marker-${index}`);
        const server = await child({ pause: { ...point.pause, marker } });
        const runId = (await server.call('launch_start_run', { run_config: config })).structured
          .run_id as string;
        if (point.duringFix) {
          await waitForStatus(server, runId, atRest);
          void server.call('launch_fix_next', { run_id: runId }).catch(() => undefined);
        }
        const reached = JSON.parse(await waitForFile(marker)) as { run_id: string };
        expect(reached.run_id).toBe(runId);
        await server.kill();
        crashed.push({ name: point.name, runId });
      }),
    );
    expect(crashed).toHaveLength(KILL_POINTS.length);
  }, 240_000);

  it('a restarted server reports the runs interrupted, resumes each to DONE, with nothing lost or duplicated', async () => {
    const server = await child({});
    const reference = (await server.call('launch_start_run', { run_config: config })).structured
      .run_id as string;
    await waitForStatus(server, reference, atRest);
    await finish(server, reference);

    for (const { name, runId } of crashed) {
      const status = (await server.call('launch_get_status', { run_id: runId })).structured.status as Status;
      expect(status.details.interrupted, name).toBe(true);
      await finish(server, runId);
      expect(await stateOf(server, runId), name).toBe('DONE');
    }
    await server.kill();

    const expected = await artifactsOf(reference);
    const database = openLaunchDatabase(dataDir);
    try {
      for (const { name, runId } of [...crashed, { name: 'reference', runId: reference }]) {
        const events = await new SqliteLaunchStore(launchDb(database.sqlite), () => undefined).events(runId);
        expect(verifyEventChain(events), name).toEqual({ ok: true, count: events.length });
        if (runId !== reference) {
          expect(
            events.map((e) => e.type),
            name,
          ).toEqual(expect.arrayContaining(['RUN_INTERRUPTED', 'RUN_REWOUND']));
        }
        const artifacts = await artifactsOf(runId);
        const folder = path.join(dataDir, 'launch-runs', 'runs', runId, 'artifacts');
        const onDisk = (fs.readdirSync(folder, { recursive: true }) as string[])
          .filter((entry) => fs.statSync(path.join(folder, entry)).isFile())
          .map((entry) => entry.split(path.sep).join('/'))
          .sort();
        expect(onDisk, `${name}: files on disk are exactly the indexed artifacts`).toEqual(
          [...artifacts.keys()].sort(),
        );
        for (const [artifact, sha] of artifacts) {
          expect(
            sha256Hex(fs.readFileSync(path.join(folder, ...artifact.split('/')))),
            `${name}: ${artifact}`,
          ).toBe(sha);
        }
        // pr.json names the run's own branch; gate durations in the report are timing, not content.
        const comparable = (map: Map<string, string>) =>
          [...map].filter(([artifact]) => artifact !== 'pr.json' && artifact !== 'validation_report.json');
        expect(comparable(artifacts), `${name}: same artifacts as an uninterrupted run`).toEqual(
          comparable(expected),
        );
        const report = (id: string) =>
          maskTimings(
            fs.readFileSync(
              path.join(dataDir, 'launch-runs', 'runs', id, 'artifacts', 'validation_report.json'),
              'utf8',
            ),
          );
        expect(report(runId), name).toEqual(report(reference));
      }
    } finally {
      database.sqlite.close();
    }
  }, 240_000);
});
