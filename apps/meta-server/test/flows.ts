// The acceptance flows of the combined server, through any client of the era matrix (era-clients.ts), each
// checking the answers against the published contracts.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  GetOrCreateJourneyOutputSchema,
  QueryJourneyHistoryOutputSchema,
  RecordSessionOutputSchema,
} from '@switchyard/contracts/journey';
import {
  LaunchFixNextOutputSchema,
  LaunchGetStatusOutputSchema,
  LaunchStartRunOutputSchema,
  type RunConfigInput,
} from '@switchyard/contracts/launch-runs';
import { GetDeparturesOutputSchema } from '@switchyard/contracts/transit';
import type { z } from 'zod';
import type { EraClient, ProgressUpdate } from './era-clients.js';

/** A stop of the Digitransit stand-in (packages/upstream-mocks) that has departures. */
export const MOCK_STOP_ID = 'HSL:1040129';

/** Calls a tool and parses its structured answer with the contract's schema; an error result throws. */
export async function call<S extends z.ZodType>(
  client: EraClient,
  name: string,
  args: Record<string, unknown>,
  schema: S,
  onprogress?: (update: ProgressUpdate) => void,
): Promise<z.output<S>> {
  const answer = await client.callTool(name, args, onprogress);
  if (answer.isError === true) throw new Error(`${name} failed: ${JSON.stringify(answer.structuredContent)}`);
  return schema.parse(answer.structuredContent);
}

/** get_departures against the Digitransit stand-in. */
export async function departures(client: EraClient) {
  const answer = await call(
    client,
    'get_departures',
    { stop: { type: 'id', value: MOCK_STOP_ID }, windowMinutes: 30, limit: 5 },
    GetDeparturesOutputSchema,
  );
  return answer.departures;
}

/** A new journey for a new user, one recorded session, the journey's id. */
export async function writeJourney(client: EraClient, summary: string): Promise<string> {
  const journey = await call(
    client,
    'get_or_create_journey',
    { user_id: randomUUID() },
    GetOrCreateJourneyOutputSchema,
  );
  await call(
    client,
    'record_session',
    { journey_id: journey.journey_id, summary },
    RecordSessionOutputSchema,
  );
  return journey.journey_id;
}

/** query_journey_history: the summaries of the sessions that match `query`, most relevant first. */
export async function searchJourney(client: EraClient, journeyId: string, query: string): Promise<string[]> {
  const history = await call(
    client,
    'query_journey_history',
    { journey_id: journeyId, query },
    QueryJourneyHistoryOutputSchema,
  );
  return history.sessions.map((session) => session.summary ?? '');
}

const RESTING = new Set(['VALIDATING', 'READY_FOR_PR', 'DONE', 'FAILED', 'CANCELLED']);
const POLL_MS = 100;
/** The example run needs one fix; a few more would still be a pass, endless ones a failure. */
const MAX_FIXES = 10;

export interface LaunchOutcome {
  runId: string;
  /** The state after the fixes: READY_FOR_PR when everything worked. */
  state: string;
  /** The progress notifications of launch_start_run (during the call). */
  startProgress: ProgressUpdate[];
  /** The progress notifications of every launch_fix_next call (during the calls). */
  fixProgress: ProgressUpdate[];
  fixes: number;
}

/**
 * A documentation launch on the example repositories: start it with a progress token, poll until the
 * background steps rest (VALIDATING: the example has a seeded, fixable problem), then fix until READY_FOR_PR.
 */
export async function launchToReady(client: EraClient, runConfig: RunConfigInput): Promise<LaunchOutcome> {
  const startProgress: ProgressUpdate[] = [];
  const started = await call(
    client,
    'launch_start_run',
    { run_config: runConfig, idempotency_key: `era-matrix-${randomUUID()}` },
    LaunchStartRunOutputSchema,
    (update) => startProgress.push(update),
  );
  const statusOf = async () =>
    (await call(client, 'launch_get_status', { run_id: started.run_id }, LaunchGetStatusOutputSchema)).status;
  let status = await statusOf();
  while (!(RESTING.has(status.state) && (status.details as { busy?: unknown }).busy === false)) {
    await sleep(POLL_MS);
    status = await statusOf();
  }
  const fixProgress: ProgressUpdate[] = [];
  let fixes = 0;
  for (; status.state === 'VALIDATING' && fixes < MAX_FIXES; fixes += 1) {
    await call(client, 'launch_fix_next', { run_id: started.run_id }, LaunchFixNextOutputSchema, (update) =>
      fixProgress.push(update),
    );
    status = await statusOf();
  }
  return { runId: started.run_id, state: status.state, startProgress, fixProgress, fixes };
}
