import { SwitchyardError } from '@switchyard/contracts/errors';
import { launchErrorPayload, RunIdSchema } from '@switchyard/contracts/launch-runs';
import type { RequestCall } from '@switchyard/server-kit';
import type { LaunchRunsState } from '../open.js';
import { artifactNameProblem } from '../store/artifact-names.js';
import { eventsToNdjson } from '../store/event-chain.js';
import { encodeArtifact } from './get-artifact.js';
import { resource } from './spec.js';

/** How many of the newest runs resources/list enumerates (reads work for every run). */
const LISTED_RUNS = 20;
/** How many run ids a completion offers, newest first (the most MCP lets one completion carry). */
const COMPLETED_RUN_IDS = 100;

export function artifactUri(runId: string, name: string): string {
  return `launch://runs/${runId}/artifacts/${name.split('/').map(encodeURIComponent).join('/')}`;
}

export function eventsUri(runId: string): string {
  return `launch://runs/${runId}/events.ndjson`;
}

function invalidInput(message: string): SwitchyardError {
  return new SwitchyardError('validation', message, { code: 'INVALID_INPUT' });
}

function decoded(value: string | undefined): string {
  try {
    return decodeURIComponent(value ?? '');
  } catch {
    throw invalidInput('the resource URI is not valid percent-encoding');
  }
}

function checkedRunId(value: string | undefined): string {
  const runId = decoded(value);
  if (!RunIdSchema.safeParse(runId).success) throw invalidInput('run_id must match ^[A-Za-z0-9_-]{8,64}$');
  return runId;
}

/** `{run_id}`: the newest runs whose id starts with what the user typed. */
async function completeRunId(variable: string, value: string, call: RequestCall<LaunchRunsState>) {
  if (variable !== 'run_id') return [];
  const runs = await (
    await call.state.runs()
  ).recentRuns(call.principal, { limit: COMPLETED_RUN_IDS, runIdPrefix: value });
  return runs.map((run) => run.runId);
}

/** Failures as the contract's codes (INVALID_INPUT, RUN_NOT_FOUND, INTERNAL...), in the JSON-RPC error. */
const errorPayload = (error: SwitchyardError) => launchErrorPayload(error);

/**
 * The run artifacts as resources `launch://runs/{run_id}/artifacts/{name}` (names may contain "/"). Names
 * are checked and looked up in the run's artifact index before any file is touched.
 */
export const artifactResource = resource({
  name: 'launch-run-artifact',
  uriTemplate: 'launch://runs/{run_id}/artifacts/{+name}',
  title: 'Launch run artifact',
  description: 'An artifact of a launch run (text as text, binary as a base64 blob).',
  list: async (call) => {
    const service = await call.state.runs();
    const runs = await service.recentRuns(call.principal, { limit: LISTED_RUNS });
    const listed = await Promise.all(
      runs.map(async (run) =>
        (await service.status(run.runId)).artifacts.map((artifact) => ({
          uri: artifactUri(run.runId, artifact.name),
          name: `${run.runId}/${artifact.name}`,
          title: `${artifact.name} of run ${run.runId}`,
        })),
      ),
    );
    return listed.flat();
  },
  read: async (uri, variables, call) => {
    const runId = checkedRunId(variables.run_id);
    const name = decoded(variables.name);
    const problem = artifactNameProblem(name);
    if (problem !== undefined) throw invalidInput(`invalid artifact name: ${problem}`);
    const service = await call.state.runs();
    await service.assertOwned(runId, call.principal);
    const artifact = encodeArtifact(await service.artifact(runId, name));
    const base = { uri, mimeType: artifact.content_type.replace(/;base64$/, '') };
    return [
      artifact.encoding === 'base64'
        ? { ...base, blob: artifact.content }
        : { ...base, text: artifact.content },
    ];
  },
  complete: completeRunId,
  errorPayload,
});

/** Each run's hash-chained event log as NDJSON at `launch://runs/{run_id}/events.ndjson`. */
export const eventsResource = resource({
  name: 'launch-run-events',
  uriTemplate: 'launch://runs/{run_id}/events.ndjson',
  title: 'Launch run events',
  description: "A run's hash-chained event log as NDJSON, oldest first.",
  mimeType: 'application/x-ndjson',
  list: async (call) =>
    (await (await call.state.runs()).recentRuns(call.principal, { limit: LISTED_RUNS })).map((run) => ({
      uri: eventsUri(run.runId),
      name: `${run.runId}/events.ndjson`,
      title: `Events of run ${run.runId}`,
      mimeType: 'application/x-ndjson',
    })),
  read: async (uri, variables, call) => {
    const runId = checkedRunId(variables.run_id);
    const service = await call.state.runs();
    await service.assertOwned(runId, call.principal);
    const text = eventsToNdjson(await service.events(runId));
    return [{ uri, mimeType: 'application/x-ndjson', text }];
  },
  complete: completeRunId,
  errorPayload,
});
