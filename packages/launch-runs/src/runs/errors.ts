import { SwitchyardError, toSwitchyardError } from '@switchyard/contracts/errors';
import { launchErrorPayload } from '@switchyard/contracts/launch-runs';

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

/** The executor lost its lease (cancelled or taken over): it must stop without touching the run. */
export class LeaseLostError extends Error {
  constructor(runId: string) {
    super(`Lost the execution lease of run ${runId}`);
    this.name = 'LeaseLostError';
  }
}
