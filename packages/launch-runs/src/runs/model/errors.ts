import {
  LAUNCH_ERROR_TABLE,
  SwitchyardError,
  toSwitchyardError,
  type ErrorKind,
} from '@switchyard/contracts/errors';
import { launchErrorPayload } from '@switchyard/contracts/launch-runs';

/** A failure as the run records it (its last error; status details.error), secrets redacted. */
export type RunFailure = {
  code: string;
  message: string;
  retryable: boolean;
  details: Record<string, unknown>;
};

/** The contract's error code of anything thrown (INTERNAL for what is not a SwitchyardError). */
export function errorCodeOf(error: unknown): string {
  return launchErrorPayload(toSwitchyardError(error)).error.code;
}

export function runNotFound(runId: string): SwitchyardError {
  return new SwitchyardError('not-found', `No run with run_id ${runId}`, { code: 'RUN_NOT_FOUND' });
}

export function runCancelled(runId: string): SwitchyardError {
  return new SwitchyardError('cancelled', `Run ${runId} was cancelled; start a new run to continue`, {
    code: 'CANCELLED',
    details: { current_state: 'CANCELLED' },
  });
}

/**
 * The runs' database could not be reached, or the connection to it was lost during the call (before, during
 * or after its commit): INTERNAL, retryable, as every method of the PostgreSQL store answers it.
 */
export function runDatabaseUnreachable(cause: unknown): SwitchyardError {
  return new SwitchyardError('internal', 'The launch runs database is unreachable; retry the call', {
    retryable: true,
    details: { reason: 'database_unreachable', cause_class: 'DatabaseUnreachable' },
    cause,
  });
}

/** The executor lost its lease (cancelled or taken over): it must stop without touching the run. */
export class LeaseLostError extends Error {
  constructor(runId: string) {
    super(`Lost the execution lease of run ${runId}`);
    this.name = 'LeaseLostError';
  }
}

/**
 * The owner already has `limit` active runs (LAUNCH_MAX_ACTIVE_RUNS: unfinished ones, and DONE ones a lease
 * holds, almost always a validation, for a moment the removal of the rebuilt workspace or a refused call's
 * check): a refused start or launch_validate of a DONE run, retryable once one of them ends.
 */
export function activeRunLimit(limit: number, active: number): SwitchyardError {
  return new SwitchyardError(
    'validation',
    `You have ${active} active launch runs (unfinished, or DONE with a workspace in use by a validation or ` +
      'its clean-up), the most this server allows at once; finish or cancel one, or wait for a validation to ' +
      'end, before starting another or validating a DONE run',
    {
      code: 'INVALID_INPUT',
      retryable: true,
      hint: 'launch_list_runs lists your runs; launch_cancel ends one, launch_open_pr finishes a run READY_FOR_PR.',
      details: { reason: 'active_run_limit', setting: 'LAUNCH_MAX_ACTIVE_RUNS', limit, active },
    },
  );
}

/** The failure a run recorded (its last error), as the error a tool answers with: the same code and details. */
export function runFailureError(failure: RunFailure): SwitchyardError {
  const kinds = Object.entries(LAUNCH_ERROR_TABLE.byKind) as [ErrorKind, string][];
  const kind = kinds.find(([, code]) => code === failure.code)?.[0] ?? 'internal';
  return new SwitchyardError(kind, failure.message, {
    code: failure.code,
    retryable: failure.retryable,
    details: failure.details,
  });
}
