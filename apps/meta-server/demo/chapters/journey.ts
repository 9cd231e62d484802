import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import {
  AddDocumentToJourneyOutputSchema,
  GetOrCreateJourneyOutputSchema,
  QueryJourneyHistoryOutputSchema,
  RecordSessionOutputSchema,
} from '@switchyard/contracts/journey';
import { callTool } from '../call.js';
import { chapter, line, step } from '../print.js';

const SESSIONS = [
  'Planned a weekend in Helsinki: ferry from Tallinn, trams around the centre',
  'Compared London airport transfers: Elizabeth line to Heathrow versus the express train',
  'Helsinki winter travel: which tram lines run at night and where the heated stops are',
];

/** A journey that outlives one conversation: sessions, a document, and a history search. */
export async function journeyHistory(client: Client): Promise<void> {
  chapter(
    '3. Journey continuity: pick up where the last conversation ended',
    'An assistant keeps one journey per user. Each conversation is recorded as a session; later ones\n' +
      'search the history instead of asking again.',
  );
  const userId = randomUUID();

  step('get_or_create_journey', `for user ${userId.slice(0, 8)}…`);
  const journey = await callTool(
    client,
    'get_or_create_journey',
    { user_id: userId },
    GetOrCreateJourneyOutputSchema,
  );
  line(
    `journey ${journey.journey_id.slice(0, 8)}… (${journey.is_new ? 'new' : 'existing'}, ${journey.session_count} sessions)`,
  );

  step('record_session', `${SESSIONS.length} past conversations`);
  for (const summary of SESSIONS) {
    const session = await callTool(
      client,
      'record_session',
      { journey_id: journey.journey_id, summary },
      RecordSessionOutputSchema,
    );
    line(`#${session.session_count}: ${summary}`);
  }

  step('add_document_to_journey', 'a packing note');
  const note = await callTool(
    client,
    'add_document_to_journey',
    {
      journey_id: journey.journey_id,
      document_type: 'note',
      title: 'Helsinki packing list',
      content: 'Warm gloves, HSL app with a day ticket, ferry booking reference.',
    },
    AddDocumentToJourneyOutputSchema,
  );
  line(`saved ${note.document_type} ${note.document_id.slice(0, 8)}…`);

  step('get_or_create_journey', 'the same user comes back a week later');
  const again = await callTool(
    client,
    'get_or_create_journey',
    { user_id: userId },
    GetOrCreateJourneyOutputSchema,
  );
  line(
    `same journey: ${again.journey_id === journey.journey_id ? 'yes' : 'NO'}, ${again.session_count} sessions so far`,
  );

  step('query_journey_history', 'search "helsinki tram", with documents');
  const history = await callTool(
    client,
    'query_journey_history',
    { journey_id: journey.journey_id, query: 'helsinki tram', include_documents: true },
    QueryJourneyHistoryOutputSchema,
  );
  line(`${history.total_results} matching sessions, most relevant first:`);
  for (const session of history.sessions) line(`- ${session.summary ?? ''}`, 2);
  for (const document of history.documents ?? [])
    line(`document: ${document.title ?? document.document_type}`, 2);
}
