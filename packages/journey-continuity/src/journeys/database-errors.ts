import { SwitchyardError } from '@switchyard/contracts/errors';

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
  return { detail: 'unexpected database error', retryable: false };
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
    const { detail, retryable } = describeDatabaseFailure(error);
    throw new SwitchyardError('internal', `${step}: ${detail}`, {
      code: 'DATABASE_ERROR',
      retryable,
      cause: error,
    });
  }
}
