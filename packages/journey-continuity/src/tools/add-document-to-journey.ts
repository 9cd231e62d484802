import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  AddDocumentToJourneyInputSchema,
  AddDocumentToJourneyOutputSchema,
} from '@switchyard/contracts/journey';
import { registerContractTool, type DomainContext } from '@switchyard/server-kit';
import { toIso } from '../journeys/time.js';
import { errorPayload, serviceFor, type LoadJourneyService } from './shared.js';

export function registerAddDocumentToJourneyTool(
  server: McpServer,
  ctx: DomainContext,
  loadService: LoadJourneyService,
  maxDocumentBytes: number,
) {
  return registerContractTool(server, ctx, {
    name: 'add_document_to_journey',
    title: 'Save a document with a journey',
    description:
      'Keep something made during a session with the person’s journey so it can be found later: a WOOP plan ' +
      '(woop_plan), an uploaded file or its path (file_upload), a generated artifact (artifact) or a note. ' +
      `Title and content are searchable with query_journey_history; content may be up to ${maxDocumentBytes} ` +
      'bytes (UTF-8); metadata is any JSON object. Each call adds a new document.',
    input: AddDocumentToJourneyInputSchema,
    output: AddDocumentToJourneyOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    errorPayload,
    handler: async (input) => {
      const service = await serviceFor('addDocument', loadService);
      const document = service.addDocument({
        journeyId: input.journey_id,
        documentType: input.document_type,
        ...(input.title === undefined ? {} : { title: input.title }),
        ...(input.content === undefined ? {} : { content: input.content }),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
      });
      return {
        document_id: document.id,
        journey_id: document.journeyId,
        document_type: document.documentType,
        created_at: toIso(document.createdAt),
        ...(document.title === null ? {} : { title: document.title }),
        content_bytes: document.contentBytes,
        metadata: document.metadata,
      };
    },
  });
}
