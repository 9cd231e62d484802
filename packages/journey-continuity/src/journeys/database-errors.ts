import { SwitchyardError } from '@switchyard/contracts/errors';

/** Each operation's words for its failures: `<step>: <detail>` (seed 004's messages). */
export const FAILED_STEP = {
  getOrCreateJourney: 'Failed to access journey',
  queryHistory: 'Failed to query history',
  addDocument: 'Failed to add document',
  recordSession: 'Failed to record session',
  deleteJourney: 'Failed to delete journey',
} as const;

/** An operation of the journey service, as its failures name it. */
export type JourneyOperation = keyof typeof FAILED_STEP;

const UNEXPECTED_DATABASE_ERROR = 'unexpected database error';

/** What a caller may be told about a database failure: short, no SQL, no file paths. */
export function describeDatabaseFailure(error: unknown): { detail: string; retryable: boolean } {
  const code =
    typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return { detail: 'database is busy', retryable: true };
  }
  if (code.startsWith('SQLITE_FULL')) return { detail: 'disk is full', retryable: false };
  if (code.startsWith('SQLITE_READONLY')) return { detail: 'database is read-only', retryable: false };
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return { detail: 'database file is damaged', retryable: false };
  }
  if (code.startsWith('SQLITE_IOERR')) return { detail: 'disk I/O error', retryable: true };
  if (code.startsWith('SQLITE_CANTOPEN')) return { detail: 'database cannot be opened', retryable: false };
  if (error instanceof TypeError && /database connection is not open/i.test(error.message)) {
    return { detail: 'database is closed', retryable: false };
  }
  return { detail: UNEXPECTED_DATABASE_ERROR, retryable: false };
}

/** The contract's 500 for a failed step: `<step>: <detail>` with code DATABASE_ERROR. */
function databaseError(step: string, failure: { detail: string; retryable: boolean }, cause: unknown) {
  return new SwitchyardError('internal', `${step}: ${failure.detail}`, {
    code: 'DATABASE_ERROR',
    retryable: failure.retryable,
    cause,
  });
}

/**
 * Runs `work`; a SwitchyardError passes through, anything else becomes the contract's 500:
 * `<step>: <detail>` with code DATABASE_ERROR (e.g. "Failed to query history: database is busy").
 */
export function withDatabaseErrors<T>(step: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof SwitchyardError) throw error;
    throw databaseError(step, describeDatabaseFailure(error), error);
  }
}

/**
 * The journey store (loaded by the first call that needs it) could not be loaded for `operation`, as that
 * operation's 500. A SQLite failure while setting it up (e.g. the database was closed) is described as usual;
 * anything else means its code could not be loaded ("journey store could not be loaded"), retryable because
 * the next call loads it again.
 */
export function storeUnavailable(cause: unknown, operation: JourneyOperation): SwitchyardError {
  if (cause instanceof SwitchyardError) return cause;
  const failure = describeDatabaseFailure(cause);
  return databaseError(
    FAILED_STEP[operation],
    failure.detail === UNEXPECTED_DATABASE_ERROR
      ? { detail: 'journey store could not be loaded', retryable: true }
      : failure,
    cause,
  );
}
