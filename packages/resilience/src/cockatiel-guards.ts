import { BrokenCircuitError, TaskCancelledError } from 'cockatiel';

// cockatiel 3.2.1 ships `isTaskCancelledError` and `isIsolatedCircuitError` testing the wrong marker
// property (`isBulkheadRejectedError`), so they are always false. These check the markers each error sets.

/** A cockatiel timeout (or cancellation) error. */
export function isCockatielTimeout(error: unknown): boolean {
  return error instanceof TaskCancelledError || (error instanceof Error && 'isTaskCancelledError' in error);
}

/** A cockatiel open-circuit error (also the isolated variant). */
export function isCockatielCircuitOpen(error: unknown): boolean {
  return (
    error instanceof BrokenCircuitError ||
    (error instanceof Error && ('isBrokenCircuitError' in error || 'isIsolatedCircuitError' in error))
  );
}
