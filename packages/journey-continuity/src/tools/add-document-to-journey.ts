import {
  AddDocumentToJourneyInputSchema,
  AddDocumentToJourneyOutputSchema,
} from '@switchyard/contracts/journey';
import { toIso } from '../journeys/time.js';
import { actorForJourney } from './acting-for.js';
import { JOURNEY_ERRORS } from './shared.js';
import { tool } from './spec.js';

export const addDocumentToJourneyTool = tool({
  name: 'add_document_to_journey',
  title: 'Save a document with a journey',
  description:
    'Keep something made during a session with the person’s journey so it can be found later: a WOOP plan ' +
    '(woop_plan), an uploaded file or its path (file_upload), a generated artifact (artifact) or a note. ' +
    'Title and content are searchable with query_journey_history; content may be up to the server’s ' +
    'document limit (1 MiB of UTF-8 by default; a larger one is refused, naming the limit); metadata is any ' +
    'JSON object. Each call adds a new document.',
  input: AddDocumentToJourneyInputSchema,
  output: AddDocumentToJourneyOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  ...JOURNEY_ERRORS,
  handler: async (input, call) => {
    const service = await call.state.service('addDocument');
    const document = await service.addDocument({
      ...(await actorForJourney(call, service, input.journey_id, 'addDocument')),
      journeyId: input.journey_id,
      documentType: input.document_type,
      title: input.title,
      content: input.content,
      metadata: input.metadata,
    });
    return {
      document_id: document.id,
      journey_id: document.journeyId,
      document_type: document.documentType,
      created_at: toIso(document.createdAt),
      title: document.title ?? undefined,
      content_bytes: document.contentBytes,
      metadata: document.metadata,
    };
  },
});
