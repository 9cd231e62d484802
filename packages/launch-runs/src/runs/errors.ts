import { SwitchyardError } from '@switchyard/contracts/errors';
import type { RunState } from '@switchyard/contracts/launch-runs';

/**
 * ILLEGAL_STATE with the details the contract asks for: the current state, the requirement in the
 * contract's words (`required_state`) and the concrete states that satisfy it (`allowed_states`).
 */
export function illegalState(
  message: string,
  current: RunState,
  required: string,
  allowed: readonly RunState[],
  extra: { retryable?: boolean; details?: Record<string, unknown>; hint?: string } = {},
): SwitchyardError {
  return new SwitchyardError('conflict', message, {
    code: 'ILLEGAL_STATE',
    retryable: extra.retryable ?? false,
    ...(extra.hint === undefined ? {} : { hint: extra.hint }),
    details: {
      current_state: current,
      required_state: required,
      allowed_states: [...allowed],
      ...extra.details,
    },
  });
}

/** Another executor (a background run, a concurrent call, another process) holds the run right now. */
export function runBusy(current: RunState, required: string, allowed: readonly RunState[]): SwitchyardError {
  return illegalState(
    `Run is busy (state ${current}): another step is executing on it; retry when it has finished`,
    current,
    required,
    allowed,
    { retryable: true, details: { reason: 'run_busy' } },
  );
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
