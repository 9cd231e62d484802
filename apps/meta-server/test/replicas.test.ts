// Three `switchyard --http` replicas on one PostgreSQL database behind a round-robin proxy (issue #18): each
// has its own data directory, so whatever they share goes through the database: transit's saved places,
// journeys and launch runs (their artifacts too; a run's workspace is rebuilt on the replica that takes it).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import {
  exampleRunConfig,
  materializeExampleRepos,
  verifyEventChain,
  type RunEvent,
} from '@switchyard/launch-runs';
import { startTestPostgres, type TestPostgres } from '@switchyard/test-postgres';
import pg from 'pg';
import { startDigitransitMock, type DigitransitMock } from '@switchyard/upstream-mocks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_STOP_ID } from './flows.js';
import { connectHttp, runBin, spawnHttpServer, tempDir, type SpawnedServer } from './helpers.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.js';

const REPLICAS = 3;
const CLIENTS = 16;
const CALLS = 1_000;

let postgres: TestPostgres;
let digitransit: DigitransitMock;
let proxy: RoundRobinProxy;
let env: Record<string, string>;
let database: pg.Pool;
const reposDir = tempDir('switchyard-replica-repos-');
let runConfig: Record<string, unknown>;
const replicas: SpawnedServer[] = [];
const clients: Client[] = [];

function startReplica(): Promise<SpawnedServer> {
  return spawnHttpServer({ ...env, SWITCHYARD_DATA_DIR: tempDir('switchyard-replica-') }, [
    '--allowed-hosts',
    new URL(proxy.origin).host,
  ]);
}

function useBackends(): void {
  proxy.backends = replicas.map((replica) => new URL(replica.url).origin);
}

/** A tool call through the proxy; its structured answer, or the reason it failed. */
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as Record<string, unknown>;
}

/** A small deterministic generator, so a failing trial can be replayed from its seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

beforeAll(async () => {
  [postgres, digitransit, proxy] = await Promise.all([
    startTestPostgres(),
    startDigitransitMock(),
    startRoundRobinProxy(),
  ]);
  runConfig = exampleRunConfig(await materializeExampleRepos(path.join(reposDir, 'example')));
  env = {
    SWITCHYARD_DATABASE_URL: await postgres.createDatabase(),
    SWITCHYARD_DOMAINS: 'transit,journey-continuity,launch-runs',
    TRANSIT_PROVIDERS: 'hsl',
    LAUNCH_REPO_ROOTS: reposDir,
    // A dead replica's run is taken over once its lease expires: short here, so the test is quick.
    LAUNCH_LEASE_MS: '1500',
    LAUNCH_TAKEOVER_MS: '200',
    DIGITRANSIT_SUBSCRIPTION_KEY: 'replicas-test-key',
    DIGITRANSIT_ROUTING_URL: digitransit.routingUrl,
    DIGITRANSIT_GEOCODING_URL: digitransit.geocodingUrl,
  };
  const migrated = await runBin(['migrate'], env);
  expect(migrated.code, migrated.stderr).toBe(0);
  database = new pg.Pool({ connectionString: env.SWITCHYARD_DATABASE_URL, max: 2 });
  for (let n = 0; n < REPLICAS; n += 1) replicas.push(await startReplica());
  useBackends();
  for (let n = 0; n < CLIENTS; n += 1) clients.push(await connectHttp(`${proxy.origin}/mcp`));
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await Promise.all(replicas.map((replica) => replica.stop()));
  await Promise.all([proxy?.close(), digitransit?.close(), database?.end()]);
  await postgres?.stop();
});

describe(`${REPLICAS} replicas on one PostgreSQL database`, () => {
  it(`answer ${CALLS} mixed calls from ${CLIENTS} clients without an error`, async () => {
    const perClient = Math.ceil(CALLS / CLIENTS);
    const failures: string[] = [];
    let made = 0;
    await Promise.all(
      clients.map(async (client, c) => {
        const journey = await call(client, 'get_or_create_journey', { user_id: randomUUID() });
        made += 1;
        // Groups of six calls around one key: saved on one replica, then read and used on the others.
        for (let n = 0; n < perClient - 1 && made < CALLS; n += 1) {
          const key = `place-${c}-${Math.floor(n / 6)}`;
          const steps: [string, Record<string, unknown>][] = [
            ['save_user_variable', { key, value: { type: 'stop', stopId: MOCK_STOP_ID } }],
            ['get_user_variables', { key }],
            [
              'record_session',
              { journey_id: journey.journey_id, summary: `Client ${c} asked about tram ${n}` },
            ],
            ['query_journey_history', { journey_id: journey.journey_id, query: 'tram', limit: 5 }],
            ['get_departures', { stop: { type: 'label', value: key }, limit: 3 }],
            ['launch_list_runs', { limit: 5 }],
          ];
          const [name, args] = steps[n % steps.length]!;
          made += 1;
          await call(client, name, args).catch((error: unknown) => failures.push(String(error)));
        }
      }),
    );
    expect(failures).toEqual([]);
    expect(made).toBeGreaterThanOrEqual(CALLS);
    expect(new Set(proxy.log.map((request) => request.backend))).toEqual(new Set([0, 1, 2]));
    expect(proxy.log.filter((request) => request.status !== 200)).toEqual([]);
  }, 240_000);

  it('give one journey to one user asked for by every client at once', async () => {
    const user = randomUUID();
    const answers = await Promise.all(
      clients.map((client) => call(client, 'get_or_create_journey', { user_id: user })),
    );
    expect(new Set(answers.map((answer) => answer.journey_id)).size).toBe(1);
    expect(answers.filter((answer) => answer.is_new === true)).toHaveLength(1);
  });

  it.each([11, 29, 47])(
    'lose no acknowledged journey write when a replica is killed mid-load (seed %i)',
    async (seed) => {
      const random = seeded(seed);
      const writers = clients.slice(0, 8);
      const journeys = await Promise.all(
        writers.map((client) => call(client, 'get_or_create_journey', { user_id: randomUUID() })),
      );
      const acknowledged = new Map<string, Set<string>>();
      for (const journey of journeys) acknowledged.set(journey.journey_id as string, new Set());
      const victim = Math.floor(random() * REPLICAS);
      const killAfter = 5 + Math.floor(random() * 30);
      let written = 0;
      let refused = 0;
      const load = Promise.all(
        writers.map(async (client, w) => {
          const journeyId = journeys[w]!.journey_id as string;
          for (let n = 0; n < 12; n += 1) {
            try {
              const session = await call(client, 'record_session', {
                journey_id: journeyId,
                summary: `trial ${seed} writer ${w} session ${n}`,
              });
              acknowledged.get(journeyId)!.add(session.session_id as string);
            } catch {
              // Not acknowledged (the proxy's 502 from the killed replica): the write may or may not exist.
              refused += 1;
            }
            written += 1;
            if (written === killAfter) replicas[victim]!.child.kill('SIGKILL');
          }
        }),
      );
      await load;
      // The replica really died mid-load: calls routed to it afterwards were refused.
      expect(refused).toBeGreaterThan(0);
      replicas[victim] = await startReplica();
      useBackends();
      for (const [journeyId, sessions] of acknowledged) {
        const history = await call(clients[0]!, 'query_journey_history', {
          journey_id: journeyId,
          limit: 100,
        });
        const stored = new Set((history.sessions as { session_id: string }[]).map((s) => s.session_id));
        for (const sessionId of sessions)
          expect(stored.has(sessionId), `${journeyId} ${sessionId}`).toBe(true);
      }
      const total = [...acknowledged.values()].reduce((sum, sessions) => sum + sessions.size, 0);
      expect(total).toBeGreaterThan(0);
    },
    120_000,
  );

  it('finish a launch run on another replica when the one running it is killed mid-step', async () => {
    const client = clients[0]!;
    const reference = await launchToRest(client);
    const { runId, worker, state } = await killReplicaMidStep(client);
    // The victim's lease expires, another replica claims the run, rebuilds its workspace and finishes it.
    const finished = await untilAtRest(client, runId, 90_000);
    expect(finished.state, `killed in ${worker} (${state})`).toBe(reference.status.state);

    const events = await eventsOf(client, runId);
    expect(verifyEventChain(events)).toEqual({ ok: true, count: events.length });
    expect(new Set(events.map((event) => event.event_id)).size).toBe(events.length);
    expect(events.filter((event) => event.type === 'RUN_CREATED')).toHaveLength(1);
    // After the rewind that undid the killed step, every state is entered once.
    const rewound = events.map((event) => event.type).lastIndexOf('RUN_REWOUND');
    expect(rewound, 'the takeover rewound the interrupted step').toBeGreaterThan(0);
    const entered = events
      .slice(rewound)
      .flatMap((event) => (event.type === 'STATE_CHANGED' ? [event.payload.to as string] : []));
    expect(new Set(entered).size).toBe(entered.length);
    // The same artifacts as an uninterrupted run, each indexed once (the report differs in timings only).
    const comparable = (status: RunStatus) =>
      status.artifacts.filter((artifact) => artifact.name !== 'validation_report.json');
    expect(comparable(finished)).toEqual(comparable(reference.status));
    expect(await maskedReport(client, runId)).toEqual(await maskedReport(client, reference.runId));
  }, 180_000);
});

interface RunStatus {
  state: string;
  artifacts: { name: string; sha256: string }[];
  details: { busy?: boolean };
}

const RESTING = new Set(['VALIDATING', 'READY_FOR_PR', 'FAILED', 'CANCELLED', 'DONE']);

async function statusOf(client: Client, runId: string): Promise<RunStatus> {
  return (await call(client, 'launch_get_status', { run_id: runId })).status as RunStatus;
}

async function untilAtRest(client: Client, runId: string, timeoutMs: number): Promise<RunStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await statusOf(client, runId).catch(() => undefined);
    if (status !== undefined && RESTING.has(status.state) && status.details.busy === false) return status;
    if (Date.now() > deadline)
      throw new Error(`run ${runId} did not come to rest: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function launchToRest(client: Client): Promise<{ runId: string; status: RunStatus }> {
  const started = await call(client, 'launch_start_run', { run_config: runConfig });
  const runId = started.run_id as string;
  return { runId, status: await untilAtRest(client, runId, 60_000) };
}

/** Workers whose step needs the workspace W1 made: killing one of them makes the next replica rebuild it. */
const LATE_WORKERS = new Set(['W5', 'W6', 'W7']);

/**
 * Starts runs until one is seen (in the database) running a late worker, then SIGKILLs the replica whose
 * lease token names it, and takes that replica out of the proxy. A few attempts: a run may outpace the watch.
 */
async function killReplicaMidStep(client: Client): Promise<{ runId: string; worker: string; state: string }> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const started = await call(client, 'launch_start_run', { run_config: runConfig });
    const runId = started.run_id as string;
    for (;;) {
      const { rows } = await database.query<{
        state: string;
        active_worker: string | null;
        lease_owner: string | null;
      }>('SELECT state, active_worker, lease_owner FROM runs WHERE run_id = $1', [runId]);
      const row = rows[0]!;
      if (row.lease_owner === null) break;
      if (row.active_worker !== null && LATE_WORKERS.has(row.active_worker)) {
        const pid = Number(row.lease_owner.split('|')[1]);
        const victim = replicas.findIndex((replica) => replica.child.pid === pid);
        expect(victim, `lease token ${row.lease_owner} names a replica`).toBeGreaterThanOrEqual(0);
        replicas[victim]!.child.kill('SIGKILL');
        replicas.splice(victim, 1);
        useBackends();
        return { runId, worker: row.active_worker, state: row.state };
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await untilAtRest(client, runId, 60_000);
  }
  throw new Error('no run was caught in a late worker in five attempts');
}

async function eventsOf(client: Client, runId: string): Promise<RunEvent[]> {
  const read = await client.readResource({ uri: `launch://runs/${runId}/events.ndjson` });
  const text = (read.contents[0] as { text: string }).text;
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent);
}

async function maskedReport(client: Client, runId: string): Promise<unknown> {
  const answer = await call(client, 'launch_get_artifact', {
    run_id: runId,
    artifact_name: 'validation_report.json',
  });
  const report = JSON.parse((answer.artifact as { content: string }).content) as {
    gates: { duration_ms: number }[];
  };
  return { ...report, gates: report.gates.map((gate) => ({ ...gate, duration_ms: 0 })) };
}
