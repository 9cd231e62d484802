import { DeleteJourneyInputSchema, DeleteJourneyOutputSchema } from '@switchyard/contracts/journey';
import { actorForJourney } from './acting-for.js';
import { JOURNEY_ERRORS } from './shared.js';
import { tool } from './spec.js';

export const deleteJourneyTool = tool({
  name: 'delete_journey',
  title: 'Delete a journey',
  description:
    'Permanently forget a journey when the person asks for their data to be deleted: the journey, all its ' +
    'sessions and documents and their search index entries are removed. Cannot be undone. A journey that ' +
    'no longer exists answers 404.',
  input: DeleteJourneyInputSchema,
  output: DeleteJourneyOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  ...JOURNEY_ERRORS,
  handler: async ({ journey_id }, call) => {
    const service = await call.state.service('deleteJourney');
    const deleted = await service.deleteJourney(
      journey_id,
      await actorForJourney(call, service, journey_id, 'deleteJourney'),
    );
    return {
      journey_id: deleted.id,
      deleted: true as const,
      sessions_deleted: deleted.sessionsDeleted,
      documents_deleted: deleted.documentsDeleted,
    };
  },
});
