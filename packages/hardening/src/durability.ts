import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Client } from '@modelcontextprotocol/client';
import { callTool } from './harness/mcp-client.js';
import type { World } from './harness/world.js';
import {
  chainOk,
  driveToDone,
  launchCall,
  runConfig,
  runEvents,
  runStatus,
  type LaunchRepos,
} from './launch.js';
import { seededRandom } from './profile.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface LaunchTrialReport {
  seed: number;
  killAfterMs: number;
  runIds: string[];
  /** Which runs the restarted server reported interrupted (killed mid-step). */
  interrupted: string[];
}

/**
 * Starts `runs` launch runs (each with an idempotency key), SIGKILLs the server at a seeded moment while
 * they work, restarts it on the same data directory, and returns the acknowledged runs for checking.
 */
export async function killDuringLaunchRuns(
  world: World,
  repos: LaunchRepos,
  options: { seed: number; runs: number; trial: number; maxKillMs: number },
): Promise<LaunchTrialReport & { keys: string[] }> {
  const random = seededRandom(options.seed);
  const killAfterMs = Math.floor(random() * options.maxKillMs);
  const keys = Array.from(
    { length: options.runs },
    (_, i) => `kill-trial-${options.trial}-run-${i}-${options.seed}`,
  );
  const runIds: string[] = [];
  const starting = Promise.all(
    keys.map(async (key) => {
      const answer = await launchCall(world.client, 'launch_start_run', {
        run_config: runConfig(repos),
        idempotency_key: key,
      });
      runIds.push(answer.run_id as string);
    }),
  );
  await starting;
  await sleep(killAfterMs);
  await world.server.kill();
  await world.restart();
  const interrupted: string[] = [];
  for (const runId of runIds) {
    const status = await runStatus(world.client, runId);
    if (status.details.interrupted === true) interrupted.push(runId);
  }
  return { seed: options.seed, killAfterMs, runIds, interrupted, keys };
}

/** Checks one killed run after the restart: it resumes to DONE, its event chain verifies, nothing doubled. */
export async function checkResumedRun(client: Client, runId: string): Promise<string[]> {
  const problems: string[] = [];
  const done = await driveToDone(client, runId);
  if (done.state !== 'DONE') problems.push(`${runId} ended ${done.state}`);
  const events = await runEvents(client, runId);
  if (!chainOk(events)) problems.push(`${runId}: event chain does not verify`);
  const seqs = new Set(events.map((e) => e.seq));
  if (seqs.size !== events.length) problems.push(`${runId}: duplicated event sequence numbers`);
  if (new Set(events.map((e) => e.event_id)).size !== events.length)
    problems.push(`${runId}: duplicated events`);
  const names = done.artifacts.map((a) => a.name);
  if (new Set(names).size !== names.length) problems.push(`${runId}: an artifact is listed twice`);
  for (const name of ['page_plan.json', 'evidence_map.json', 'validation_report.json', 'pr.json']) {
    if (!names.includes(name)) problems.push(`${runId}: artifact ${name} missing`);
  }
  // Every artifact still reads back (launch-runs verifies its sha256 on read).
  for (const artifact of done.artifacts) {
    const read = await callTool(client, 'launch_get_artifact', {
      run_id: runId,
      artifact_name: artifact.name,
    });
    if (read.isError)
      problems.push(`${runId}: ${artifact.name} does not read back: ${JSON.stringify(read.structured)}`);
  }
  return problems;
}

export interface JourneyTrialReport {
  seed: number;
  killAfterMs: number;
  journeys: { journeyId: string; userId: string }[];
  /** Session ids the server acknowledged, by journey, with the unique word in each summary. */
  sessions: Map<string, { sessionId: string; word: string }[]>;
  documents: Map<string, string[]>;
  writers: number;
}

/**
 * `writers` clients record sessions and add documents to a few journeys as fast as they can; the server is
 * SIGKILLed at a seeded moment; every answer received before the kill is an acknowledged write.
 */
export async function killDuringJourneyWrites(
  world: World,
  options: { seed: number; writers: number; journeys: number; maxKillMs: number; perJourneyCap: number },
): Promise<JourneyTrialReport> {
  const random = seededRandom(options.seed);
  const killAfterMs = 150 + Math.floor(random() * options.maxKillMs);
  const journeys: JourneyTrialReport['journeys'] = [];
  for (let i = 0; i < options.journeys; i += 1) {
    const userId = randomUUID();
    const answer = await callTool(world.client, 'get_or_create_journey', { user_id: userId });
    journeys.push({ journeyId: answer.structured?.journey_id as string, userId });
  }
  const sessions = new Map(journeys.map((j) => [j.journeyId, [] as { sessionId: string; word: string }[]]));
  const documents = new Map(journeys.map((j) => [j.journeyId, [] as string[]]));
  const sent = new Map(journeys.map((j) => [j.journeyId, 0]));
  const clients = await Promise.all(Array.from({ length: options.writers }, () => world.connect()));
  let killed = false;
  const writers = clients.map(async (client, w) => {
    for (let n = 0; !killed; n += 1) {
      const journey = journeys[(w + n) % journeys.length]!;
      const count = sent.get(journey.journeyId)!;
      if (count >= options.perJourneyCap) break;
      sent.set(journey.journeyId, count + 1);
      const word = `w${w}n${n}x${options.seed.toString(36)}`;
      try {
        if (n % 4 === 3) {
          const doc = await callTool(client, 'add_document_to_journey', {
            journey_id: journey.journeyId,
            document_type: 'note',
            title: `note ${word}`,
            content: `kept with ${word}`,
          });
          if (!doc.isError && !killed)
            documents.get(journey.journeyId)!.push(doc.structured?.document_id as string);
        } else {
          const session = await callTool(client, 'record_session', {
            journey_id: journey.journeyId,
            summary: `tram to the clinic, physio exercises ${word}`,
            messages: [{ role: 'user', content: word }],
          });
          if (!session.isError && !killed) {
            sessions
              .get(journey.journeyId)!
              .push({ sessionId: session.structured?.session_id as string, word });
          }
        }
      } catch {
        return; // the connection died with the server: this write was not acknowledged
      }
    }
  });
  await sleep(killAfterMs);
  // Answers that arrive after this point are not counted: the kill is what a client would see as "no answer".
  killed = true;
  await world.server.kill();
  await Promise.allSettled(writers);
  await world.restart();
  return { seed: options.seed, killAfterMs, journeys, sessions, documents, writers: options.writers };
}

/** Checks every acknowledged journey write after the restart; returns what is wrong. */
export async function checkJourneyWrites(client: Client, report: JourneyTrialReport): Promise<string[]> {
  const problems: string[] = [];
  for (const { journeyId, userId } of report.journeys) {
    const history = await callTool(client, 'query_journey_history', {
      journey_id: journeyId,
      limit: 100,
      include_documents: true,
    });
    const listed = (history.structured?.sessions as { session_id: string }[] | undefined) ?? [];
    const listedDocs = (history.structured?.documents as { document_id: string }[] | undefined) ?? [];
    const ids = new Set(listed.map((s) => s.session_id));
    if (ids.size !== listed.length) problems.push(`${journeyId}: a session is listed twice`);
    const acked = report.sessions.get(journeyId)!;
    for (const { sessionId } of acked)
      if (!ids.has(sessionId)) problems.push(`${journeyId}: acknowledged session ${sessionId} lost`);
    // At most one unacknowledged write per writer can have landed (the one in flight at the kill).
    if (listed.length > acked.length + report.writers) {
      problems.push(`${journeyId}: ${listed.length} sessions but only ${acked.length} acknowledged`);
    }
    const docIds = new Set(listedDocs.map((d) => d.document_id));
    for (const documentId of report.documents.get(journeyId)!) {
      if (!docIds.has(documentId)) problems.push(`${journeyId}: acknowledged document ${documentId} lost`);
    }
    const again = await callTool(client, 'get_or_create_journey', { user_id: userId });
    if (again.structured?.journey_id !== journeyId || again.structured?.is_new !== false) {
      problems.push(`${journeyId}: the user's one journey changed after the restart`);
    }
    if (again.structured?.session_count !== history.structured?.total_results) {
      problems.push(
        `${journeyId}: session_count ${String(again.structured?.session_count)} but ${String(history.structured?.total_results)} listed`,
      );
    }
    // The search index agrees with the table: each acknowledged session is found by its own word.
    for (const { sessionId, word } of acked.slice(0, 10)) {
      const found = await callTool(client, 'query_journey_history', { journey_id: journeyId, query: word });
      const hits = (found.structured?.sessions as { session_id: string }[] | undefined) ?? [];
      if (!hits.some((s) => s.session_id === sessionId))
        problems.push(`${journeyId}: "${word}" not found by search`);
    }
  }
  return problems;
}

/** SQLite's own integrity check of a domain database (read-only, next to a running server). */
export function sqliteIntegrity(dataDir: string, file: string): string {
  const db = new Database(path.join(dataDir, file), { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) ?? 'no answer';
  } finally {
    db.close();
  }
}
