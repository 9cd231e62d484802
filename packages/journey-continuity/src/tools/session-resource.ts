import { SwitchyardError } from '@switchyard/contracts/errors';
import { journeyErrorPayload, uuidField } from '@switchyard/contracts/journey';
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
    'diagnosis and confidence_score when it has them. session_id comes from query_journey_history.',
  mimeType: 'application/json',
  read: async (uri, variables, call) => {
    const parsed = SessionIdSchema.safeParse(variables.session_id);
    if (!parsed.success) throw new SwitchyardError('validation', 'session_id must be a valid UUID');
    const service = await call.state.service('readSession');
    const session = await service.readSession(parsed.data, await actorForSession(call, service, parsed.data));
    return [{ uri, mimeType: 'application/json', text: sessionJson(session) }];
  },
  errorPayload: journeyErrorPayload,
});
