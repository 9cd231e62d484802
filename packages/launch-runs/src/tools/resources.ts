import { SwitchyardError } from '@switchyard/contracts/errors';
import { launchErrorPayload, RunIdSchema } from '@switchyard/contracts/launch-runs';
import type { CompletionContext, ReadCall, RequestCall, ResourceContents } from '@switchyard/server-kit';
import {
  NEXT_PART_META,
  nextPartMeta,
  partQueryNumber,
  textAnswerBytes,
} from '@switchyard/server-kit/runtime';
import type { LaunchCallState } from '../open.js';
import { artifactNameProblem } from '../store/artifact-names.js';
import { eventsToNdjson, type RunEvent } from '../store/event-chain.js';
import { artifactPart } from './artifact-parts.js';
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
async function completeRunId(variable: string, value: string, call: RequestCall<LaunchCallState>) {
  if (variable !== 'run_id') return [];
  const runs = await call.state.runs.recentRuns(call.principal, {
    limit: COMPLETED_RUN_IDS,
    runIdPrefix: value,
  });
  return runs.map((run) => run.runId);
}

/**
 * `{run_id}` as above; `{+name}`: the artifacts of the run the client already chose (`context.run_id`, one of
 * the caller's own) whose names start with what the user typed. Without such a run there is nothing to offer.
 */
async function completeArtifactVariable(
  variable: string,
  value: string,
  call: RequestCall<LaunchCallState>,
  context: CompletionContext,
): Promise<string[]> {
  if (variable !== 'name') return completeRunId(variable, value, call);
  const runId = context.run_id ?? '';
  if (!RunIdSchema.safeParse(runId).success) return [];
  const service = call.state.runs;
  const owned = await service.assertOwned(runId, call.principal).then(
    () => true,
    (error: unknown) => {
      if (error instanceof SwitchyardError && error.kind === 'not-found') return false;
      throw error;
    },
  );
  if (!owned) return [];
  const { artifacts } = await service.status(runId);
  return artifacts.map((artifact) => artifact.name).filter((name) => name.startsWith(value));
}

/** Failures as the contract's codes (INVALID_INPUT, RUN_NOT_FOUND, INTERNAL...), in the JSON-RPC error. */
const errorPayload = (error: SwitchyardError) => launchErrorPayload(error);

/**
 * An artifact, or the part of it from `?offset=` that fits the answer: a larger one names its next part's URI
 * in the content's `_meta`. Names are checked and looked up in the run's artifact index before any file is
 * touched.
 */
async function readArtifact(
  requested: string,
  variables: Record<string, string>,
  call: ReadCall<LaunchCallState>,
): Promise<ResourceContents[]> {
  const runId = checkedRunId(variables.run_id);
  const name = decoded(variables.name);
  const problem = artifactNameProblem(name);
  if (problem !== undefined) throw invalidInput(`invalid artifact name: ${problem}`);
  const offset = partQueryNumber('offset', variables.offset);
  const service = call.state.runs;
  await service.assertOwned(runId, call.principal);
  const part = artifactPart(await service.artifact(runId, name), offset, call.answerBytes, 'resource');
  const base = {
    uri: requested,
    mimeType: part.content_type.replace(/;base64$/, ''),
    ...nextPartMeta(
      part.next_offset === null ? undefined : `${artifactUri(runId, name)}?offset=${part.next_offset}`,
    ),
  };
  return [part.encoding === 'base64' ? { ...base, blob: part.content } : { ...base, text: part.content }];
}

/** The run artifacts as resources `launch://runs/{run_id}/artifacts/{name}` (names may contain "/"). */
export const artifactResource = resource({
  name: 'launch-run-artifact',
  uriTemplate: 'launch://runs/{run_id}/artifacts/{+name}',
  title: 'Launch run artifact',
  description:
    'An artifact of a launch run (text as text, binary as a base64 blob); a large one in parts: the ' +
    `content's _meta "${NEXT_PART_META}" names the next.`,
  list: async (call) => {
    const service = call.state.runs;
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
  read: (uri, variables, call) => readArtifact(uri, variables, call),
  complete: completeArtifactVariable,
  errorPayload,
});

/** A part of an artifact too large for one answer: `?offset=` is a next-uri of the part before. */
export const artifactPartResource = resource({
  name: 'launch-run-artifact-part',
  uriTemplate: 'launch://runs/{run_id}/artifacts/{+name}{?offset}',
  title: 'Part of a launch run artifact',
  description:
    'The part of an artifact from a byte offset: a large artifact is read in parts, each naming the next ' +
    `in its content's _meta "${NEXT_PART_META}".`,
  read: (uri, variables, call) => readArtifact(uri, variables, call),
  complete: completeArtifactVariable,
  errorPayload,
});

/**
 * A run's events after sequence number `after` (0: all) as NDJSON, as many whole lines as fit the answer; when
 * some are left, the content's `_meta` names the URI that continues after the last one sent.
 */
async function readEvents(
  requested: string,
  variables: Record<string, string>,
  call: ReadCall<LaunchCallState>,
): Promise<ResourceContents[]> {
  const runId = checkedRunId(variables.run_id);
  const after = partQueryNumber('after', variables.after);
  const service = call.state.runs;
  await service.assertOwned(runId, call.principal);
  // No more events than could fit the answer, and one more, which tells whether some are left.
  const until = after + Math.floor(call.answerBytes / MIN_EVENT_LINE_BYTES) + 1;
  const events = await service.events(runId, { after, until });
  const sent: RunEvent[] = [];
  let bytes = EVENTS_ENVELOPE_BYTES;
  for (const event of events) {
    bytes += textAnswerBytes(eventsToNdjson([event]), 'resource');
    if (bytes > call.answerBytes && sent.length > 0) break;
    sent.push(event);
  }
  const last = sent.at(-1);
  const more = last !== undefined && sent.length < events.length;
  return [
    {
      uri: requested,
      mimeType: 'application/x-ndjson',
      text: eventsToNdjson(sent),
      ...nextPartMeta(more ? `${eventsUri(runId)}?after=${last.seq}` : undefined),
    },
  ];
}

/** Room for the content's URI, media type and `_meta` around the NDJSON. */
const EVENTS_ENVELOPE_BYTES = 1024;
/** Fewer bytes than any event's NDJSON line: its two hashes alone are 128 characters, its two ids 72. */
const MIN_EVENT_LINE_BYTES = 200;

/** Each run's hash-chained event log as NDJSON at `launch://runs/{run_id}/events.ndjson`. */
export const eventsResource = resource({
  name: 'launch-run-events',
  uriTemplate: 'launch://runs/{run_id}/events.ndjson',
  title: 'Launch run events',
  description:
    "A run's hash-chained event log as NDJSON, oldest first (a long one in parts: the content's _meta " +
    `"${NEXT_PART_META}" names the next).`,
  mimeType: 'application/x-ndjson',
  list: async (call) =>
    (await call.state.runs.recentRuns(call.principal, { limit: LISTED_RUNS })).map((run) => ({
      uri: eventsUri(run.runId),
      name: `${run.runId}/events.ndjson`,
      title: `Events of run ${run.runId}`,
      mimeType: 'application/x-ndjson',
    })),
  read: (uri, variables, call) => readEvents(uri, variables, call),
  complete: completeRunId,
  errorPayload,
});

/** The events after a sequence number: a long log is read in parts, each naming the next. */
export const eventsPartResource = resource({
  name: 'launch-run-events-part',
  uriTemplate: 'launch://runs/{run_id}/events.ndjson{?after}',
  title: 'Launch run events after a point',
  description:
    "A run's events after sequence number `after`, oldest first; a long log comes in parts, each naming " +
    `the next in its content's _meta "${NEXT_PART_META}".`,
  mimeType: 'application/x-ndjson',
  read: (uri, variables, call) => readEvents(uri, variables, call),
  complete: completeRunId,
  errorPayload,
});
