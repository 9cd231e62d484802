import { SwitchyardError } from '@switchyard/contracts/errors';
import { databaseErrorCode, isDatabaseUnreachable } from '@switchyard/server-kit/runtime';

/** Each operation's words for its failures: `<step>: <detail>` (seed 004's messages). */
export const FAILED_STEP = {
  getOrCreateJourney: 'Failed to access journey',
  queryHistory: 'Failed to query history',
  addDocument: 'Failed to add document',
  recordSession: 'Failed to record session',
  deleteJourney: 'Failed to delete journey',
  readSession: 'Failed to read session',
} as const;

/** An operation of the journey service, as its failures name it. */
export type JourneyOperation = keyof typeof FAILED_STEP;

type Failure = { detail: string; retryable: boolean };

const BUSY: Failure = { detail: 'database is busy', retryable: true };
const FULL: Failure = { detail: 'disk is full', retryable: false };
const READ_ONLY: Failure = { detail: 'database is read-only', retryable: false };
const DAMAGED: Failure = { detail: 'database file is damaged', retryable: false };
const CLOSED: Failure = { detail: 'database is closed', retryable: false };
const UNREACHABLE: Failure = { detail: 'database is unreachable', retryable: true };

/** SQLite's result codes (better-sqlite3's `code`, extended codes included by prefix). */
const SQLITE_FAILURES: readonly [prefix: string, failure: Failure][] = [
  ['SQLITE_BUSY', BUSY],
  ['SQLITE_LOCKED', BUSY],
  ['SQLITE_FULL', FULL],
  ['SQLITE_READONLY', READ_ONLY],
  ['SQLITE_CORRUPT', DAMAGED],
  ['SQLITE_NOTADB', DAMAGED],
  ['SQLITE_IOERR', { detail: 'disk I/O error', retryable: true }],
  ['SQLITE_CANTOPEN', { detail: 'database cannot be opened', retryable: false }],
];

/**
 * PostgreSQL's SQLSTATEs (node-postgres' `code`), in the same words. A lost or unreachable database is
 * server-kit's one classification (`isDatabaseUnreachable`), shared with the other domains.
 */
const POSTGRES_FAILURES: Readonly<Record<string, Failure>> = {
  '40001': BUSY, // serialization failure
  '40P01': BUSY, // deadlock detected
  '55P03': BUSY, // lock not available
  '57014': BUSY, // statement timeout
  '53100': FULL,
  '25006': READ_ONLY,
  XX001: DAMAGED,
  XX002: DAMAGED,
  '54000': { detail: 'text is too large to index', retryable: false },
};

/** Messages of failures that carry no code. */
const MESSAGE_FAILURES: readonly [pattern: RegExp, failure: Failure][] = [
  [/database connection is not open/i, CLOSED], // better-sqlite3, after close()
  [/Cannot use a pool after calling end/i, CLOSED], // node-postgres, after end()
];

const UNEXPECTED_DATABASE_ERROR = 'unexpected database error';

/**
 * What a caller may be told about a database failure: short, no SQL, no file paths, no credentials. The
 * driver's error is read through drizzle's wrapper (its `cause`).
 */
export function describeDatabaseFailure(error: unknown): Failure {
  if (isDatabaseUnreachable(error)) return UNREACHABLE;
  const code = databaseErrorCode(error) ?? '';
  const sqlite = SQLITE_FAILURES.find(([prefix]) => code.startsWith(prefix));
  if (sqlite !== undefined) return sqlite[1];
  const postgres = POSTGRES_FAILURES[code];
  if (postgres !== undefined) return postgres;
  const message = error instanceof Error ? error.message : '';
  const byMessage = MESSAGE_FAILURES.find(([pattern]) => pattern.test(message));
  return byMessage?.[1] ?? { detail: UNEXPECTED_DATABASE_ERROR, retryable: false };
}

/** The contract's 500 for a failed step: `<step>: <detail>` with code DATABASE_ERROR. */
function databaseError(step: string, failure: Failure, cause: unknown) {
  return new SwitchyardError('internal', `${step}: ${failure.detail}`, {
    code: 'DATABASE_ERROR',
    retryable: failure.retryable,
    cause,
  });
}

/**
 * What a failure of `step` answers: a SwitchyardError as it is, anything else the contract's 500,
 * `<step>: <detail>` with code DATABASE_ERROR (e.g. "Failed to query history: database is busy").
 */
function asDatabaseError(step: string, error: unknown): SwitchyardError {
  return error instanceof SwitchyardError
    ? error
    : databaseError(step, describeDatabaseFailure(error), error);
}

/** Runs `work` (SQLite answers at once), its failure as `asDatabaseError`. */
export function withDatabaseErrors<T>(step: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw asDatabaseError(step, error);
  }
}

/** `withDatabaseErrors` for work that answers later (PostgreSQL). */
export async function withDatabaseErrorsAsync<T>(step: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asDatabaseError(step, error);
  }
}

/**
 * The journey store (loaded by the first call that needs it) could not be loaded for `operation`, as that
 * operation's 500. A database failure while setting it up (e.g. the database was closed) is described as usual;
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
