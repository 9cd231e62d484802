import {
  QueryJourneyHistoryInputSchema,
  QueryJourneyHistoryOutputSchema,
} from '@switchyard/contracts/journey';
import { toIso, toMillisRange } from '../journeys/time.js';
import { actorForJourney } from './acting-for.js';
import { decodeCursor, encodeCursor } from './history-cursor.js';
import { JOURNEY_ERRORS } from './shared.js';
import { tool } from './spec.js';

export const queryJourneyHistoryTool = tool({
  name: 'query_journey_history',
  title: 'Search a journey’s history',
  description:
    'Find what was said in earlier sessions of a journey. With query, sessions whose summary matches come ' +
    'back best match first, with a relevance_score and a snippet; without query, the latest sessions come ' +
    'first. from_date/to_date (inclusive, ISO 8601 with a time zone) narrow the time range. ' +
    "include_documents adds the journey's documents (matching the same words in title or content), newest " +
    'first. Summaries and titles are excerpts (a whole session reads as journey://sessions/{session_id}).',
  input: QueryJourneyHistoryInputSchema,
  output: QueryJourneyHistoryOutputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  view: 'journey-timeline',
  ...JOURNEY_ERRORS,
  // Documents are cut first, then sessions; the cursor starts the next page where this one stopped.
  paging: {
    lists: ['documents', 'sessions'],
    rest: (cut, input) => {
      const offsets = decodeCursor(input, input.cursor);
      return {
        next_cursor: encodeCursor(input, {
          sessions: offsets.sessions + (cut.kept.sessions ?? 0),
          documents: offsets.documents + (cut.kept.documents ?? 0),
        }),
      };
    },
  },
  handler: async (input, call) => {
    const offsets = decodeCursor(input, input.cursor);
    const query = {
      journeyId: input.journey_id,
      text: input.query,
      range: toMillisRange(input.from_date, input.to_date),
      limit: input.limit,
      includeDocuments: input.include_documents,
      offsets,
    };
    const service = await call.state.service('queryHistory');
    const result = await service.queryHistory(
      query,
      await actorForJourney(call, service, input.journey_id, 'queryHistory'),
    );
    return {
      journey_id: input.journey_id.toLowerCase(),
      sessions: result.sessions.map((session) => ({
        session_id: session.id,
        created_at: toIso(session.createdAt),
        summary: session.summary,
        summary_truncated: session.summaryTruncated ? (true as const) : undefined,
        summary_bytes: session.summaryTruncated ? session.summaryBytes : undefined,
        has_diagnosis: session.hasDiagnosis,
        relevance_score: session.relevance,
        snippet: session.snippet,
      })),
      documents: result.documents?.map((document) => ({
        document_id: document.id,
        document_type: document.documentType,
        title: document.title ?? undefined,
        title_truncated: document.titleTruncated ? (true as const) : undefined,
        created_at: toIso(document.createdAt),
        snippet: document.snippet,
      })),
      total_results: result.total,
      next_cursor:
        offsets.sessions + result.sessions.length < result.total || result.moreDocuments
          ? encodeCursor(input, {
              sessions: offsets.sessions + result.sessions.length,
              documents: offsets.documents + (result.documents?.length ?? 0),
            })
          : null,
    };
  },
});
