import { openJourneyDatabase } from './dist/db/database.js';
import { JourneyService } from './dist/journeys/journey-service.js';
const database = openJourneyDatabase({ dataDir: '/tmp/prof/data4' });
const service = new JourneyService(database, { maxDocumentBytes: 1e6 });
const j = database.sqlite.prepare("select journey_id from sessions limit 1").pluck().get();
const q = { journeyId: j, text: 'helsinki trams', range: { from: -8.64e15, to: 8.64e15 }, limit: 10, includeDocuments: false };
const qn = { ...q, text: undefined };
for (const [name, query] of [['search', q], ['newest', qn]]) {
  for (let i = 0; i < 500; i++) service.queryHistory(query);
  const t = performance.now(); for (let i = 0; i < 3000; i++) service.queryHistory(query);
  console.log(name, ((performance.now() - t) / 3000 * 1000).toFixed(0), 'µs');
}
