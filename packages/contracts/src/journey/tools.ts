import { z } from 'zod';
import {
  compareInstants,
  dateTimeField,
  DOCUMENT_TYPES,
  fieldError,
  TimestampSchema,
  uuidField,
} from './fields.js';
import { nameToolSchemas } from '../schema-names.js';

const JourneyIdSchema = uuidField('journey_id');
const DOCUMENT_TYPE_MESSAGE = `document_type must be one of: ${DOCUMENT_TYPES.join(', ')}`;

// get_or_create_journey
export const GetOrCreateJourneyInputSchema = z
  .strictObject({
    user_id: uuidField('user_id', ' (omit it for an anonymous journey)')
      .optional()
      .describe('User identifier. NULL/omitted for anonymous journey.'),
  })
  .describe('Whose journey to return; without user_id a new anonymous journey is created.');

export const GetOrCreateJourneyOutputSchema = z
  .object({
    journey_id: z.uuid().describe('The journey.'),
    user_id: z.uuid().nullable().optional().describe('Its user; null for an anonymous journey.'),
    created_at: TimestampSchema.describe('When the journey was created.'),
    session_count: z.number().int().describe('How many sessions the journey has (exact).'),
    is_new: z.boolean().describe('True if journey was just created'),
  })
  .describe('The journey.');

// query_journey_history
export const QueryJourneyHistoryInputSchema = z
  .strictObject({
    journey_id: JourneyIdSchema.describe('Journey to search within'),
    query: z
      .string()
      .optional()
      .describe(
        'Keywords to find in session summaries: every word must occur (stemmed, case- and accent-insensitive); ' +
          'any text is accepted.',
      ),
    from_date: dateTimeField('from_date').optional().describe('Start of time range filter'),
    to_date: dateTimeField('to_date').optional().describe('End of time range filter'),
    limit: z
      .number({ error: 'limit must be an integer from 1 to 100' })
      .int({ error: 'limit must be an integer from 1 to 100' })
      .min(1, { error: 'limit must be an integer from 1 to 100' })
      .max(100, { error: 'limit must be an integer from 1 to 100' })
      .default(10)
      .describe('Most sessions (and, with include_documents, documents) to return.'),
    include_documents: z
      .boolean({ error: 'include_documents must be true or false' })
      .default(false)
      .describe('Include linked documents in results'),
    cursor: z
      .string({ error: 'cursor must be the next_cursor of an earlier answer' })
      .max(200, { error: 'cursor must be the next_cursor of an earlier answer' })
      .optional()
      .describe('The next_cursor of an earlier answer to the same search: its next page.'),
  })
  .refine(
    (input) =>
      input.from_date === undefined ||
      input.to_date === undefined ||
      compareInstants(input.from_date, input.to_date) <= 0,
    { path: ['from_date'], message: 'from_date must be before to_date' },
  )
  .describe('Search or list one journey’s sessions, newest first or by relevance.');

export const SessionResultSchema = z
  .object({
    session_id: z.uuid().optional().describe('The session.'),
    created_at: TimestampSchema.optional().describe('When the session took place.'),
    summary: z
      .string()
      .optional()
      .describe(
        'The session summary, as a snippet: its start, cut where it is long (summary_truncated). The whole ' +
          'session reads as the resource journey://sessions/{session_id}.',
      ),
    summary_truncated: z
      .literal(true)
      .optional()
      .describe('Present when summary is only the start of a longer summary (additive).'),
    summary_bytes: z
      .number()
      .int()
      .optional()
      .describe('With summary_truncated: the whole summary’s size in UTF-8 bytes (additive).'),
    has_diagnosis: z.boolean().optional().describe('Whether the session recorded a diagnosis.'),
    relevance_score: z
      .number()
      .optional()
      .describe(
        'With a query only: bm25 relevance scaled to (0, 1] against the best match of this search (1 = best).',
      ),
    snippet: z
      .string()
      .optional()
      .describe('With a query only (additive): a short excerpt of the summary with matches in **bold**.'),
  })
  .describe('A session of the journey.');

export const DocumentResultSchema = z
  .object({
    document_id: z.uuid().optional().describe('The document.'),
    document_type: z.string().optional().describe('woop_plan, file_upload, artifact or note.'),
    title: z.string().optional().describe('The title, when it has one; its start, where it is long.'),
    title_truncated: z
      .literal(true)
      .optional()
      .describe('Present when title is only the start of a longer title (additive).'),
    created_at: TimestampSchema.optional().describe('When the document was added.'),
    snippet: z
      .string()
      .optional()
      .describe(
        'With a query only (additive): a short excerpt of the title or content with matches in **bold**.',
      ),
  })
  .describe('A document linked to the journey.');

export const QueryJourneyHistoryOutputSchema = z
  .object({
    journey_id: z.uuid().describe('The journey searched.'),
    sessions: z
      .array(SessionResultSchema)
      .describe('Matching sessions: by relevance with a query, else newest first.'),
    documents: z
      .array(DocumentResultSchema)
      .optional()
      .describe('With include_documents: matching documents, newest first.'),
    total_results: z.number().int().describe('How many sessions match, before limit.'),
    next_cursor: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Pass as cursor (with the same search) for the next page: more sessions or documents match than ' +
          'this answer holds (past limit, or past the answer size limit); null when none are left (additive: ' +
          'Switchyard always sends it).',
      ),
  })
  .describe('The journey’s matching history.');

// add_document_to_journey
export const AddDocumentToJourneyInputSchema = z
  .strictObject({
    journey_id: JourneyIdSchema.describe('Journey to link document to'),
    document_type: z
      .enum(DOCUMENT_TYPES, { error: fieldError('document_type', DOCUMENT_TYPE_MESSAGE) })
      .describe('Type of document'),
    title: z.string({ error: 'title must be a string' }).optional().describe('Document title'),
    content: z
      .string({ error: 'content must be a string' })
      .optional()
      .describe('Document content or file path'),
    metadata: z
      .record(z.string(), z.unknown(), { error: 'metadata must be a JSON object' })
      .optional()
      .describe('Additional metadata'),
  })
  .describe('A document to keep with the journey.');

export const AddDocumentToJourneyOutputSchema = z
  .object({
    document_id: z.uuid().describe('The new document.'),
    journey_id: z.uuid().describe('Its journey.'),
    document_type: z.string().describe('Its type.'),
    created_at: TimestampSchema.describe('When it was added.'),
    title: z.string().optional().describe('Its title, when it has one (additive).'),
    content_bytes: z.number().int().optional().describe('Size of its content in UTF-8 bytes (additive).'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('Its metadata (additive).'),
  })
  .describe('The created document.');

// record_session (additive)
export const RecordSessionInputSchema = z
  .strictObject({
    journey_id: JourneyIdSchema.describe('Journey the session belongs to.'),
    summary: z
      .string({ error: fieldError('summary', 'summary must be a string') })
      .refine((summary) => summary.trim() !== '', { error: 'summary must not be empty' })
      .describe('What the session was about; this is what query_journey_history searches.'),
    messages: z
      .array(z.unknown(), { error: 'messages must be a JSON array' })
      .optional()
      .describe('The conversation, as a JSON array (stored, not searched).'),
    diagnosis: z
      .record(z.string(), z.unknown(), { error: 'diagnosis must be a JSON object' })
      .optional()
      .describe('A structured diagnosis, as a JSON object; its presence is has_diagnosis.'),
    confidence_score: z
      .number({ error: 'confidence_score must be a number from 0 to 100' })
      .min(0, { error: 'confidence_score must be a number from 0 to 100' })
      .max(100, { error: 'confidence_score must be a number from 0 to 100' })
      .optional()
      .describe('Confidence in the diagnosis, 0..100.'),
    created_at: dateTimeField('created_at')
      .optional()
      .describe('When the session took place; default now (set it to import past sessions).'),
  })
  .describe('A finished session to add to the journey’s history.');

export const RecordSessionOutputSchema = z
  .object({
    session_id: z.uuid().describe('The new session.'),
    journey_id: z.uuid().describe('Its journey.'),
    created_at: TimestampSchema.describe('When it took place.'),
    has_diagnosis: z.boolean().describe('Whether it has a diagnosis.'),
    confidence_score: z.number().optional().describe('Its confidence score, when given.'),
    session_count: z.number().int().describe('How many sessions the journey has now.'),
  })
  .describe('The recorded session.');

// delete_journey (additive)
export const DeleteJourneyInputSchema = z
  .strictObject({
    journey_id: JourneyIdSchema.describe('Journey to delete, with all its sessions and documents.'),
  })
  .describe('Which journey to forget.');

export const DeleteJourneyOutputSchema = z
  .object({
    journey_id: z.uuid().describe('The deleted journey.'),
    deleted: z.literal(true).describe('Always true.'),
    sessions_deleted: z.number().int().describe('How many sessions were deleted with it.'),
    documents_deleted: z.number().int().describe('How many documents were deleted with it.'),
  })
  .describe('What was deleted.');

export const JOURNEY_TOOL_SCHEMAS = {
  get_or_create_journey: { input: GetOrCreateJourneyInputSchema, output: GetOrCreateJourneyOutputSchema },
  query_journey_history: { input: QueryJourneyHistoryInputSchema, output: QueryJourneyHistoryOutputSchema },
  add_document_to_journey: {
    input: AddDocumentToJourneyInputSchema,
    output: AddDocumentToJourneyOutputSchema,
  },
  record_session: { input: RecordSessionInputSchema, output: RecordSessionOutputSchema },
  delete_journey: { input: DeleteJourneyInputSchema, output: DeleteJourneyOutputSchema },
} as const;
nameToolSchemas(JOURNEY_TOOL_SCHEMAS);

export type GetOrCreateJourneyInput = z.input<typeof GetOrCreateJourneyInputSchema>;
export type GetOrCreateJourneyOutput = z.output<typeof GetOrCreateJourneyOutputSchema>;
export type QueryJourneyHistoryInput = z.input<typeof QueryJourneyHistoryInputSchema>;
export type QueryJourneyHistoryParams = z.output<typeof QueryJourneyHistoryInputSchema>;
export type QueryJourneyHistoryOutput = z.output<typeof QueryJourneyHistoryOutputSchema>;
export type SessionResult = z.output<typeof SessionResultSchema>;
export type DocumentResult = z.output<typeof DocumentResultSchema>;
export type AddDocumentToJourneyInput = z.input<typeof AddDocumentToJourneyInputSchema>;
export type AddDocumentToJourneyOutput = z.output<typeof AddDocumentToJourneyOutputSchema>;
export type RecordSessionInput = z.input<typeof RecordSessionInputSchema>;
export type RecordSessionOutput = z.output<typeof RecordSessionOutputSchema>;
export type DeleteJourneyInput = z.input<typeof DeleteJourneyInputSchema>;
export type DeleteJourneyOutput = z.output<typeof DeleteJourneyOutputSchema>;
