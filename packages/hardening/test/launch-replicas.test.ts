import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { DIALECTS, lazyTestPostgres, type Dialect } from '@switchyard/test-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleRepos, runConfig } from '../src/launch.js';
import { callTool, connectHttp } from '../src/harness/mcp-client.js';
import { troubleIn } from '../src/harness/server-log.js';
import { spawnSwitchyard, type SpawnedSwitchyard } from '../src/harness/switchyard.js';
import { removeTempDir, tempDir } from '../src/harness/temp.js';

/**
 * Launch runs on two replicas of the combined server sharing one database (issue #34, section 6): on
 * PostgreSQL each replica has its own data directory, on SQLite both serve one data directory (one file,
 * two processes). The same principal calls both at once; whatever the store decides must hold across them.
 */
const postgres = lazyTestPostgres();
const dirs: string[] = [];
const servers: SpawnedSwitchyard[] = [];
const clients: Client[] = [];

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await Promise.all(servers.map((server) => server.stop()));
  await postgres.stop();
  dirs.forEach(removeTempDir);
});

interface Replicas {
  replicas: [SpawnedSwitchyard, SpawnedSwitchyard];
  /** Where the launch repositories may be (LAUNCH_REPO_ROOTS). */
  reposDir: string;
}

/** Two `switchyard` bins serving launch-runs on one database of `dialect`, with `env` added. */
async function twoReplicas(dialect: Dialect, env: Record<string, string>): Promise<Replicas> {
  const reposDir = tempDir('replica-repos');
  dirs.push(reposDir);
  const shared = {
    SWITCHYARD_DOMAINS: 'launch',
    LAUNCH_REPO_ROOTS: reposDir,
    ...(dialect === 'postgres'
      ? { SWITCHYARD_DATABASE_URL: await postgres.createDatabase(), SWITCHYARD_MIGRATE_ON_START: '1' }
      : {}),
    ...env,
  };
  const sqliteDir = tempDir('replica-data');
  dirs.push(sqliteDir);
  const start = async (): Promise<SpawnedSwitchyard> => {
    const dataDir = dialect === 'postgres' ? tempDir('replica-data') : sqliteDir;
    if (dataDir !== sqliteDir) dirs.push(dataDir);
    const server = await spawnSwitchyard({ env: { ...shared, SWITCHYARD_DATA_DIR: dataDir } });
    servers.push(server);
    return server;
  };
  // One after the other: the first applies the migrations.
  const first = await start();
  return { replicas: [first, await start()], reposDir };
}

async function clientOf(server: SpawnedSwitchyard): Promise<Client> {
  const client = await connectHttp(server.url);
  clients.push(client);
  return client;
}

describe.each(DIALECTS)('LAUNCH_MAX_ACTIVE_RUNS across two replicas (%s)', (dialect) => {
  const LIMIT = 3;
  const STARTS = 16;

  it(`${STARTS} starts sent to both replicas at once make exactly ${LIMIT} runs`, async () => {
    const { replicas, reposDir } = await twoReplicas(dialect, { LAUNCH_MAX_ACTIVE_RUNS: String(LIMIT) });
    const repos = await exampleRepos(path.join(reposDir, 'example'));
    // Four clients per replica, each on its own connection, all the same principal (no token, loopback).
    const perReplica = await Promise.all(
      replicas.map((server) => Promise.all(Array.from({ length: 4 }, () => clientOf(server)))),
    );
    const callers = perReplica[0]!.flatMap((client, n) => [client, perReplica[1]![n]!]);
    const answers = await Promise.all(
      Array.from({ length: STARTS }, (_, n) =>
        callTool(callers[n % callers.length]!, 'launch_start_run', { run_config: runConfig(repos) }),
      ),
    );
    const started = answers.filter((answer) => answer.structured?.ok === true);
    const refused = answers.filter((answer) => answer.structured?.ok !== true);
    console.log(`${dialect}: ${started.length} of ${STARTS} concurrent starts on two replicas made a run`);
    expect(started).toHaveLength(LIMIT);
    for (const answer of refused) {
      expect(answer.structured).toMatchObject({
        ok: false,
        error: {
          code: 'INVALID_INPUT',
          retryable: true,
          details: { reason: 'active_run_limit', setting: 'LAUNCH_MAX_ACTIVE_RUNS', limit: LIMIT },
        },
      });
    }
    // What both replicas list: the runs that were started, and nothing of the refused ones.
    for (const client of [perReplica[0]![0]!, perReplica[1]![0]!]) {
      const listed = (await callTool(client, 'launch_list_runs', {})).structured?.runs as unknown[];
      expect(listed).toHaveLength(LIMIT);
    }
    for (const server of replicas) expect(troubleIn(server.lines())).toEqual({ errors: [], defects: [] });
  });
});
