// The launch calls both launch chapters make: start a run, watch it until it rests, read its artifacts.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/client';
import {
  type ArtifactResponse,
  LaunchGetArtifactOutputSchema,
  LaunchGetStatusOutputSchema,
  LaunchStartRunOutputSchema,
  type RunConfigInput,
  type RunStatus,
} from '@switchyard/contracts/launch-runs';
import { callTool } from './call.js';
import { line } from './print.js';

export const POLL_MS = 250;
const RUN_TIMEOUT_MS = 180_000;
const RESTING_STATES = new Set(['VALIDATING', 'READY_FOR_PR', 'DONE']);
const ENDED_STATES = new Set(['FAILED', 'CANCELLED']);

/** The run is in a state it stays in until a client acts, its workers idle. */
export function restsForClient(status: RunStatus): boolean {
  const busy = (status.details as { busy?: unknown } | undefined)?.busy === true;
  return RESTING_STATES.has(status.state) && !busy;
}

/** Polls launch_get_status, printing each state the run passes through, until `until` holds (a run that fails throws). */
export async function watchRun(
  client: Client,
  runId: string,
  until: (status: RunStatus) => boolean,
): Promise<RunStatus> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  let lastState = '';
  for (;;) {
    const { status } = await callTool(
      client,
      'launch_get_status',
      { run_id: runId },
      LaunchGetStatusOutputSchema,
    );
    if (status.state !== lastState) {
      line(`→ ${status.state}`, 2);
      lastState = status.state;
    }
    if (ENDED_STATES.has(status.state)) throw new Error(`run ${runId} ended ${status.state}`);
    if (until(status)) return status;
    if (Date.now() > deadline)
      throw new Error(`run ${runId} still ${status.state} after ${RUN_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

/** Starts a run and says so; the workers go on in the background. */
export async function startRun(
  client: Client,
  runConfig: RunConfigInput,
  idempotencyKey: string,
): Promise<string> {
  const started = await callTool(
    client,
    'launch_start_run',
    { run_config: runConfig, idempotency_key: idempotencyKey },
    LaunchStartRunOutputSchema,
  );
  line(`run ${started.run_id} is ${started.state}; the workers go on in the background`);
  return started.run_id;
}

/** A text artifact of the run, read through launch_get_artifact part by part. */
export async function readArtifact(client: Client, runId: string, name: string): Promise<string> {
  let content = '';
  let offset: number | null | undefined = 0;
  while (typeof offset === 'number') {
    const answer: ArtifactResponse = await callTool(
      client,
      'launch_get_artifact',
      { run_id: runId, artifact_name: name, offset },
      LaunchGetArtifactOutputSchema,
    );
    content += answer.artifact.content;
    offset = answer.next_offset;
  }
  return content;
}
