import { SwitchyardError } from '@switchyard/contracts/errors';
import { journeyErrorPayload, uuidField } from '@switchyard/contracts/journey';
import type { ReadCall, ResourceContents } from '@switchyard/server-kit';
import { NEXT_PART_META, nextPartMeta, partQueryNumber, textPart } from '@switchyard/server-kit/runtime';
import type { JourneyState } from '../open.js';
import type { StoredSession } from '../journeys/journey-service.js';
import { toIso } from '../journeys/time.js';
import { actorForSession } from './acting-for.js';
import { resource } from './spec.js';

const SessionIdSchema = uuidField('session_id');

export function sessionUri(sessionId: string): string {
  return `journey://sessions/${sessionId}`;
}

/**
 * A session as the resource's JSON: its fields, then its messages and diagnosis as the JSON text they were
 * stored as (written by JSON.stringify when recorded), without parsing up to twice JOURNEY_MAX_DOCUMENT_BYTES
 * again on every read. Absent ones are left out.
 */
export function sessionJson(session: StoredSession): string {
  const fields = JSON.stringify({
    session_id: session.id,
    journey_id: session.journeyId,
    created_at: toIso(session.createdAt),
    summary: session.summary,
    confidence_score: session.confidenceScore ?? undefined,
  });
  const stored = Object.entries({ messages: session.messagesJson, diagnosis: session.diagnosisJson })
    .filter(([, json]) => json !== null)
    .map(([name, json]) => `,"${name}":${json}`);
  return `${fields.slice(0, -1)}${stored.join('')}}`;
}

/** Room for the content's URI, media type and `_meta` around the session's JSON. */
const ENVELOPE_BYTES = 1024;

/**
 * The session's JSON from byte `?offset=` (0: its start), as much as fits the answer: a session larger than
 * one answer (long messages) comes in parts whose texts join up to its JSON, each naming the next part's URI
 * in its content's `_meta`.
 */
async function readSession(
  requested: string,
  variables: Record<string, string>,
  call: ReadCall<JourneyState>,
): Promise<ResourceContents[]> {
  const parsed = SessionIdSchema.safeParse(variables.session_id);
  if (!parsed.success) throw new SwitchyardError('validation', 'session_id must be a valid UUID');
  const offset = partQueryNumber('offset', variables.offset);
  const service = await call.state.service('readSession');
  const session = await service.readSession(parsed.data, await actorForSession(call, service, parsed.data));
  const uri = sessionUri(session.id);
  const part = textPart(
    sessionJson(session),
    offset,
    call.answerBytes - ENVELOPE_BYTES,
    'resource',
    'the session',
  );
  return [
    {
      uri: requested,
      mimeType: 'application/json',
      text: part.text,
      ...nextPartMeta(part.next === null ? undefined : `${uri}?offset=${part.next}`),
    },
  ];
}

/**
 * Each session whole at `journey://sessions/{session_id}`: query_journey_history quotes only the start of a
 * long summary. Only the caller's own sessions (with journey:admin, those of its issuer's principals), as for
 * the tools: any other session is 404 like a missing one. Not listed and not completed: a principal's
 * sessions are as many as its journeys hold, and their ids come from query_journey_history.
 */
export const sessionResource = resource({
  name: 'journey-session',
  uriTemplate: 'journey://sessions/{session_id}',
  title: 'Journey session',
  description:
    'One recorded session whole, as JSON: session_id, journey_id, created_at, summary, and messages, ' +
    'diagnosis and confidence_score when it has them. session_id comes from query_journey_history. A ' +
    `session larger than one answer comes in parts: the content's _meta "${NEXT_PART_META}" names the next.`,
  mimeType: 'application/json',
  read: (uri, variables, call) => readSession(uri, variables, call),
  errorPayload: journeyErrorPayload,
});

/** A part of a session too large for one answer: `?offset=` is what the part before named. */
export const sessionPartResource = resource({
  name: 'journey-session-part',
  uriTemplate: 'journey://sessions/{session_id}{?offset}',
  title: 'Part of a journey session',
  description:
    "The part of a session's JSON from a byte offset; each part names the next in its content's _meta " +
    `"${NEXT_PART_META}".`,
  mimeType: 'application/json',
  read: (uri, variables, call) => readSession(uri, variables, call),
  errorPayload: journeyErrorPayload,
});
