// A search on PostgreSQL runs its statements on its transaction's client, one after another: sent at once,
// node-postgres 8 warned (`Calling client.query() when the client is already executing a query is
// deprecated`), a process warning the hardening suite counts as a defect, and node-postgres 9 refuses them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { history, newJourney, record, startHarness, storageFor, type Harness } from './helpers.js';

const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);

let h: Harness;
beforeAll(async () => {
  process.on('warning', onWarning);
  h = await startHarness({ storage: await storageFor('postgres') });
});
afterAll(async () => {
  process.off('warning', onWarning);
  await h.stop();
});

it('a search with documents, with and without a query, sends no statement while another runs', async () => {
  const journeyId = await newJourney(h);
  await record(h, journeyId, 'Sleep was short again.');
  await h.ok('add_document_to_journey', {
    journey_id: journeyId,
    document_type: 'note',
    title: 'Sleep plan',
  });
  expect((await history(h, { journey_id: journeyId, include_documents: true })).documents).toHaveLength(1);
  const found = await history(h, { journey_id: journeyId, query: 'sleep', include_documents: true });
  expect([found.sessions.length, found.documents?.length]).toEqual([1, 1]);
  expect(warnings).toEqual([]);
});
