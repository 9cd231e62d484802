import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DeleteJourneyInputSchema, DeleteJourneyOutputSchema } from '@switchyard/contracts/journey';
import { registerContractTool, type DomainContext } from '@switchyard/server-kit';
import { errorPayload, serviceFor, type LoadJourneyService } from './shared.js';

export function registerDeleteJourneyTool(
  server: McpServer,
  ctx: DomainContext,
  loadService: LoadJourneyService,
) {
  return registerContractTool(server, ctx, {
    name: 'delete_journey',
    title: 'Delete a journey',
    description:
      'Permanently forget a journey when the person asks for their data to be deleted: the journey, all its ' +
      'sessions and documents and their search index entries are removed. Cannot be undone. A journey that ' +
      'no longer exists answers 404.',
    input: DeleteJourneyInputSchema,
    output: DeleteJourneyOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    errorPayload,
    handler: async ({ journey_id }) => {
      const service = await serviceFor('deleteJourney', loadService);
      const deleted = service.deleteJourney(journey_id);
      return {
        journey_id: deleted.id,
        deleted: true as const,
        sessions_deleted: deleted.sessionsDeleted,
        documents_deleted: deleted.documentsDeleted,
      };
    },
  });
}
