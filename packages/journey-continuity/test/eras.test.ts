// A representative flow in both protocol eras (2026-07-28 without a handshake, and the 2025 handshake):
// create a journey, record a session, add a document, search the history, delete the journey.
import { randomUUID } from 'node:crypto';
import {
  AddDocumentToJourneyOutputSchema,
  DeleteJourneyOutputSchema,
  GetOrCreateJourneyOutputSchema,
  QueryJourneyHistoryOutputSchema,
  RecordSessionOutputSchema,
} from '@switchyard/contracts/journey';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNEY_TOOL_NAMES } from '../src/index.js';
import { DIALECTS, startHarness, storageFor, type Harness } from './helpers.js';

const CASES = (['modern', 'legacy'] as const).flatMap((era) =>
  DIALECTS.map((dialect) => [era, dialect] as const),
);

describe.each(CASES)('journey-continuity in the %s protocol era (%s)', (era, dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ era, storage: await storageFor(dialect) });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('lists the five tools', async () => {
    const { tools } = await h.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...JOURNEY_TOOL_NAMES].sort());
  });

  it('creates a journey, records a session, adds a document, finds both, deletes it all', async () => {
    const user = randomUUID();
    const created = GetOrCreateJourneyOutputSchema.parse(
      await h.ok('get_or_create_journey', { user_id: user }),
    );
    expect(created).toMatchObject({ user_id: user, is_new: true, session_count: 0 });
    const journey_id = created.journey_id;

    const session = RecordSessionOutputSchema.parse(
      await h.ok('record_session', {
        journey_id,
        summary: 'We talked about running before work and a plan for rainy mornings.',
        diagnosis: { focus: 'habits' },
        confidence_score: 70,
      }),
    );
    expect(session).toMatchObject({
      journey_id,
      has_diagnosis: true,
      confidence_score: 70,
      session_count: 1,
    });

    const document = AddDocumentToJourneyOutputSchema.parse(
      await h.ok('add_document_to_journey', {
        journey_id,
        document_type: 'woop_plan',
        title: 'Morning runs',
        content: 'Wish: run three mornings a week. Obstacle: rain. Plan: if it rains, run indoors.',
        metadata: { week: 1 },
      }),
    );
    expect(document).toMatchObject({ journey_id, document_type: 'woop_plan', metadata: { week: 1 } });

    const found = QueryJourneyHistoryOutputSchema.parse(
      await h.ok('query_journey_history', { journey_id, query: 'runs', include_documents: true }),
    );
    expect(found.total_results).toBe(1);
    expect(found.sessions).toMatchObject([{ session_id: session.session_id, relevance_score: 1 }]);
    expect(found.sessions[0]?.snippet).toContain('**running**');
    expect(found.documents).toMatchObject([{ document_id: document.document_id, title: 'Morning runs' }]);

    const again = await h.ok('get_or_create_journey', { user_id: user });
    expect(again).toMatchObject({ journey_id, is_new: false, session_count: 1 });

    const deleted = DeleteJourneyOutputSchema.parse(await h.ok('delete_journey', { journey_id }));
    expect(deleted).toEqual({ journey_id, deleted: true, sessions_deleted: 1, documents_deleted: 1 });
    expect(await h.fails('delete_journey', { journey_id })).toMatchObject({ status: 404 });
    expect(await h.fails('query_journey_history', { journey_id: 'not-a-uuid' })).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
  });
});
