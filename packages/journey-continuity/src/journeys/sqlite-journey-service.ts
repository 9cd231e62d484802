// The journey service over journey-continuity.sqlite (the embedded default). Loaded with the first tool call
// that needs it (see open.ts), so drizzle's query builder stays off the start path.
import { DEFAULT_EXCERPT_BYTES, DEFAULT_SNIPPET_SCAN_BYTES } from '../config.js';
import type { JourneyDatabase } from '../db/database.js';
import { FAILED_STEP, withDatabaseErrors } from './database-errors.js';
import { HistorySearch } from './history-search.js';
import type { JourneyService, JourneyServiceOptions } from './journey-service.js';
import { SqliteJourneyStore } from './sqlite-journey-store.js';

/** SQLite answers synchronously; the interface is asynchronous for PostgreSQL's sake. */
export class SqliteJourneyService implements JourneyService {
  private readonly store: SqliteJourneyStore;
  private readonly history: HistorySearch;

  constructor(database: JourneyDatabase, options: JourneyServiceOptions) {
    this.store = new SqliteJourneyStore(database, options);
    this.history = new HistorySearch(database.sqlite, {
      snippetScanBytes: options.snippetScanBytes ?? DEFAULT_SNIPPET_SCAN_BYTES,
      excerptBytes: options.excerptBytes ?? DEFAULT_EXCERPT_BYTES,
    });
  }

  close(): void {
    this.store.fts.close();
    this.history.close();
  }

  async getOrCreateJourney(...args: Parameters<JourneyService['getOrCreateJourney']>) {
    return this.store.getOrCreate(...args);
  }

  async queryHistory(...[query, caller]: Parameters<JourneyService['queryHistory']>) {
    return withDatabaseErrors(FAILED_STEP.queryHistory, () =>
      this.store.read(() => {
        this.store.assertOwned(query.journeyId, caller);
        return this.history.search(query);
      }),
    );
  }

  async userIds(...args: Parameters<JourneyService['userIds']>) {
    return this.store.userIds(...args);
  }

  async ownerOf(...[journeyId, operation]: Parameters<JourneyService['ownerOf']>) {
    return this.store.ownerOf(journeyId, FAILED_STEP[operation]);
  }

  async adoptJourneys(...[from, to, operation]: Parameters<JourneyService['adoptJourneys']>) {
    this.store.adoptJourneys(from, to, FAILED_STEP[operation]);
  }

  async readSession(...[sessionId, caller]: Parameters<JourneyService['readSession']>) {
    return this.store.readSession(sessionId, caller);
  }

  async ownerOfSession(...[sessionId]: Parameters<JourneyService['ownerOfSession']>) {
    return this.store.ownerOfSession(sessionId);
  }

  async addDocument(...args: Parameters<JourneyService['addDocument']>) {
    return this.store.addDocument(...args);
  }

  async recordSession(...args: Parameters<JourneyService['recordSession']>) {
    return this.store.recordSession(...args);
  }

  async deleteJourney(...args: Parameters<JourneyService['deleteJourney']>) {
    return this.store.deleteJourney(...args);
  }
}
