import { DEFAULT_SNIPPET_SCAN_BYTES } from '../config.js';
import type { JourneyDatabase } from '../db/database.js';
import { FAILED_STEP, withDatabaseErrors } from './database-errors.js';
import { HistorySearch, type HistoryQuery, type HistoryResult } from './history-search.js';
import { JourneyStore, type Caller, type JourneyStoreOptions } from './journey-store.js';

export type { HistoryQuery, HistoryResult } from './history-search.js';

export interface JourneyServiceOptions extends JourneyStoreOptions {
  /** Most bytes of long texts one search reads for its snippets (default DEFAULT_SNIPPET_SCAN_BYTES). */
  snippetScanBytes?: number;
}
export type {
  AddedDocument,
  Caller,
  DeletedJourney,
  JourneySummary,
  NewDocument,
  NewSession,
  RecordedSession,
} from './journey-store.js';

/** The journey domain as the tools see it: plain inputs and outputs, SwitchyardErrors on failure. */
export class JourneyService {
  private readonly store: JourneyStore;
  private readonly history: HistorySearch;

  constructor(database: JourneyDatabase, options: JourneyServiceOptions) {
    this.store = new JourneyStore(database, options);
    this.history = new HistorySearch(database.sqlite, {
      snippetScanBytes: options.snippetScanBytes ?? DEFAULT_SNIPPET_SCAN_BYTES,
    });
  }

  /** Frees what the service holds beside the database (which its owner closes). */
  close(): void {
    this.history.close();
  }

  getOrCreateJourney(caller: Caller, userId?: string) {
    return this.store.getOrCreate(caller, userId);
  }

  /** 404 for an unknown journey or another's; the check and the search read one snapshot. */
  queryHistory(query: HistoryQuery, caller: Caller): HistoryResult {
    return withDatabaseErrors(FAILED_STEP.queryHistory, () =>
      this.store.read(() => {
        this.store.assertOwned(query.journeyId, caller);
        return this.history.search(query);
      }),
    );
  }

  ownerOf(journeyId: string, operation: keyof typeof FAILED_STEP): string | undefined {
    return this.store.ownerOf(journeyId, FAILED_STEP[operation]);
  }

  addDocument(...args: Parameters<JourneyStore['addDocument']>) {
    return this.store.addDocument(...args);
  }

  recordSession(...args: Parameters<JourneyStore['recordSession']>) {
    return this.store.recordSession(...args);
  }

  deleteJourney(...args: Parameters<JourneyStore['deleteJourney']>) {
    return this.store.deleteJourney(...args);
  }
}
