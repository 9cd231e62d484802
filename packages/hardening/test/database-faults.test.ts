import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { startFaultyTestPostgres, untilTrue, type FaultyTestPostgres } from '@switchyard/test-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../src/harness/mcp-client.js';
import { startWorld, type World } from '../src/harness/world.js';
import { exampleRepos, launchCall, runConfig } from '../src/launch.js';
import { classify } from '../src/outcome.js';
import { recordFindings, type FindingRow } from '../src/report/findings.js';
import { toolContract, type Domain } from '../src/tools.js';

/**
 * PostgreSQL faults against the combined `switchyard` bin (issue #34, section 2). The three domains share one
 * PostgreSQL database behind a TCP proxy (@switchyard/test-postgres); for each domain in turn, with 24 of its
 * calls in flight (half writes in a transaction, half reads): its connections dropped while idle, dropped while
 * a transaction of it is under way, and PostgreSQL stopped and started again. Every time the process stays up
 * with no unhandled error, every call answers (served, or the domain's retryable "database is unreachable"),
 * `/readyz` is 503 while PostgreSQL is down and 200 again after, and the time until the domain's calls succeed
 * again is recorded: docs/hardening.md's database-fault matrix (`pnpm hardening:report`). Before the fix a cut
 * mid-transaction ended the process (`Connection terminated unexpectedly ... Emitted 'error' event on Client`).
 */
const CALLS = 24;
const CALL_TIMEOUT_MS = 20_000;
/** Recovery is measured, not bounded tightly: a machine under load is slow, a recovery that never comes fails. */
const RECOVERY_WITHIN_MS = 20_000;

/** A call of a domain: its tool and the arguments of the `i`th one sent. */
interface LoadCall {
  tool: string;
  args(i: number): Record<string, unknown>;
}

interface DomainLoad {
  domain: Domain;
  /** Text of a query the domain's write transactions send (to cut one under way). */
  inTransaction: string;
  /** A write in a transaction, sent as every even call. */
  write: LoadCall;
  /** A read, sent as every odd call; the first one also tells when the domain is served again. */
  read: LoadCall;
  /** The domain's code for "the database is unreachable". */
  unreachableCode: string;
}

/** Journeys recorded into, one per call, so that no call waits for another's row lock. */
const journeys: string[] = [];
/** A cancelled run: cancelling it again reads it FOR UPDATE in a transaction, and answers as the first time. */
let cancelledRun: string;

const LOADS: readonly DomainLoad[] = [
  {
    domain: 'journey-continuity',
    inTransaction: 'for update',
    write: { tool: 'record_session', args: (i) => ({ journey_id: journeys[i], summary: `session ${i}` }) },
    read: { tool: 'query_journey_history', args: (i) => ({ journey_id: journeys[i], query: 'session' }) },
    unreachableCode: 'DATABASE_ERROR',
  },
  {
    domain: 'transit',
    inTransaction: 'pg_advisory_xact_lock',
    write: {
      tool: 'save_user_variable',
      args: () => ({ key: `place ${randomUUID()}`, value: { type: 'stop', stopId: 'HSL:1040129' } }),
    },
    read: { tool: 'get_user_variables', args: () => ({}) },
    unreachableCode: 'network-error',
  },
  {
    domain: 'launch-runs',
    inTransaction: 'for update',
    write: { tool: 'launch_cancel', args: () => ({ run_id: cancelledRun }) },
    read: { tool: 'launch_list_runs', args: () => ({}) },
    unreachableCode: 'INTERNAL',
  },
];

/** What the call answered: `ok`, the code of another answer, or `<code> unreachable`. */
async function send(load: DomainLoad, { tool, args }: LoadCall, i: number): Promise<string> {
  const answer = await callTool(world.client, tool, args(i), { timeoutMs: CALL_TIMEOUT_MS });
  const outcome = classify(toolContract(tool), answer);
  if (outcome.kind === 'contract-violation') throw new Error(`${tool}: ${outcome.problem}`);
  if (outcome.kind === 'success') return 'ok';
  if (/database is unreachable/.test(outcome.message)) {
    expect(outcome).toMatchObject({ code: load.unreachableCode, retryable: true });
    return `${outcome.code} unreachable`;
  }
  return outcome.code;
}

/** Each distinct outcome with its count: `ok 12, DATABASE_ERROR unreachable 12`. */
function tally(outcomes: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return [...counts].map(([outcome, count]) => `${outcome} ${count}`).join(', ');
}

let db: FaultyTestPostgres;
let world: World;
const rows: FindingRow<'database-faults'>[] = [];

beforeAll(async () => {
  db = await startFaultyTestPostgres();
  world = await startWorld({
    name: 'database-faults',
    extraEnv: await db.serverEnv('SWITCHYARD_DATABASE_URL'),
  });
  for (let i = 0; i < CALLS; i++) {
    const journey = await callTool(world.client, 'get_or_create_journey', { user_id: randomUUID() });
    journeys.push(journey.structured?.journey_id as string);
  }
  const repos = await exampleRepos(path.join(world.dataDir, 'repos'));
  cancelledRun = (await launchCall(world.client, 'launch_start_run', { run_config: runConfig(repos) }))
    .run_id as string;
  await launchCall(world.client, 'launch_cancel', { run_id: cancelledRun });
});

afterAll(async () => {
  recordFindings('database-faults', rows);
  world?.scanLogs();
  await world?.close();
  await db?.stop();
});

const readyz = async () => (await fetch(new URL('/readyz', world.server.url))).status;

/** Sends the domain's calls at once; resolves with what each answered, by its contract (each must answer). */
function inFlight(load: DomainLoad): Promise<string[]> {
  return Promise.all(
    Array.from({ length: CALLS }, (_, i) => send(load, i % 2 === 0 ? load.write : load.read, i)),
  );
}

/** Until the domain's first read is served again. */
const served = (load: DomainLoad) =>
  untilTrue(async () => (await send(load, load.read, 0)) === 'ok', RECOVERY_WITHIN_MS);

/** Seconds from `since` until the domain is served again. */
async function recovery(load: DomainLoad, since: number): Promise<number> {
  await served(load);
  return Math.round((performance.now() - since) / 10) / 1000;
}

/**
 * Each fault, made to happen with the domain's calls in flight: what the calls answer, and the moment the fault
 * ended (the cut, or PostgreSQL started again), from which recovery is measured while they still answer.
 */
const FAULTS: Record<string, (load: DomainLoad) => Promise<{ answers: Promise<string[]>; ended: number }>> = {
  'idle drop': async (load) => {
    await served(load);
    db.proxy.dropAll();
    return { answers: inFlight(load), ended: performance.now() };
  },
  'mid-transaction drop': async (load) => {
    const underWay = db.proxy.dropAfterQuery(load.inTransaction);
    const answers = inFlight(load);
    await underWay;
    db.proxy.dropAll();
    return { answers, ended: performance.now() };
  },
  restart: async (load) => {
    // The calls reach the proxy and wait there while PostgreSQL stops: each is in flight at the restart.
    db.proxy.stall();
    const answers = inFlight(load);
    await db.halt();
    db.proxy.resume();
    try {
      await answers;
      expect(await readyz()).toBe(503);
    } finally {
      await db.start();
    }
    return { answers, ended: performance.now() };
  },
};

describe.each(LOADS)('$domain on PostgreSQL', (load) => {
  it.each(Object.keys(FAULTS))(
    '%s: the process stays up, every call answers, then they succeed',
    async (fault) => {
      const { answers, ended } = await FAULTS[fault]!(load);
      const [outcomes, seconds] = await Promise.all([answers, recovery(load, ended)]);
      await untilTrue(async () => (await readyz()) === 200, RECOVERY_WITHIN_MS);
      world.assertHealthy();
      const unreachable = `${load.unreachableCode} unreachable`;
      expect(outcomes.filter((outcome) => outcome !== 'ok' && outcome !== unreachable)).toEqual([]);
      if (fault !== 'idle drop') expect(outcomes).toContain(unreachable);
      rows.push({
        domain: load.domain,
        fault,
        'process alive': world.server.alive(),
        'calls answered': `${outcomes.length}/${CALLS}`,
        codes: tally(outcomes),
        'recovery s': seconds,
      });
    },
  );
});
