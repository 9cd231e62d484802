import { GetOrCreateJourneyInputSchema, GetOrCreateJourneyOutputSchema } from '@switchyard/contracts/journey';
import { toIso } from '../journeys/time.js';
import { actorForUser } from './acting-for.js';
import { JOURNEY_ERRORS } from './shared.js';
import { tool } from './spec.js';

export const getOrCreateJourneyTool = tool({
  name: 'get_or_create_journey',
  title: 'Get or create a journey',
  description:
    'Call at the start of a conversation to pick up where a person left off: with their user_id it returns ' +
    'their one journey (creating it on first use; is_new tells which) and how many sessions it has. ' +
    'Without user_id it creates a new anonymous journey every time. Use the journey_id with ' +
    'query_journey_history, record_session and add_document_to_journey.',
  input: GetOrCreateJourneyInputSchema,
  output: GetOrCreateJourneyOutputSchema,
  // With a user_id repeating the call changes nothing; without one every call creates a journey.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  ...JOURNEY_ERRORS,
  handler: async ({ user_id }, call) => {
    const service = await call.state.service('getOrCreateJourney');
    const actor = await actorForUser(call, service, user_id);
    const journey = await service.getOrCreateJourney({ owner: actor.owner }, actor.userId);
    return {
      journey_id: journey.id,
      user_id: journey.userId,
      created_at: toIso(journey.createdAt),
      session_count: journey.sessionCount,
      is_new: journey.isNew,
    };
  },
});
