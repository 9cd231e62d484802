import { RecordSessionInputSchema, RecordSessionOutputSchema } from '@switchyard/contracts/journey';
import { toIso, toMillis } from '../journeys/time.js';
import { actorForJourney } from './acting-for.js';
import { JOURNEY_ERRORS } from './shared.js';
import { tool } from './spec.js';

export const recordSessionTool = tool({
  name: 'record_session',
  title: 'Record a session',
  description:
    'At the end of a conversation, add it to the person’s journey: a summary (what query_journey_history ' +
    'searches), optionally the messages, a diagnosis with a confidence_score, and created_at to import a ' +
    'past session. Each call adds a new session.',
  input: RecordSessionInputSchema,
  output: RecordSessionOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  ...JOURNEY_ERRORS,
  handler: async (input, call) => {
    const service = await call.state.service('recordSession');
    const newSession = {
      ...(await actorForJourney(call, service, input.journey_id, 'recordSession')),
      journeyId: input.journey_id,
      summary: input.summary,
      messages: input.messages,
      diagnosis: input.diagnosis,
      confidenceScore: input.confidence_score,
      createdAt: input.created_at === undefined ? undefined : toMillis(input.created_at),
    };
    const session = await service.recordSession(newSession);
    return {
      session_id: session.id,
      journey_id: session.journeyId,
      created_at: toIso(session.createdAt),
      has_diagnosis: session.hasDiagnosis,
      confidence_score: session.confidenceScore ?? undefined,
      session_count: session.sessionCount,
    };
  },
});
