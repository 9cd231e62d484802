import { SwitchyardError, toSwitchyardError } from '@switchyard/contracts/errors';
import { launchErrorPayload, type RunState } from '@switchyard/contracts/launch-runs';

/** The contract's error code of anything thrown (INTERNAL for what is not a SwitchyardError). */
export function errorCodeOf(error: unknown): string {
  return launchErrorPayload(toSwitchyardError(error)).error.code;
}

/** What a tool needs of the run's state: the contract's words and the concrete states that satisfy them. */
export interface StateRequirement {
  required: string;
  allowed: readonly RunState[];
}

export interface IllegalStateRefusal {
  message: string;
  current: RunState;
  /** Fills details.required_state and details.allowed_states. */
  rule: StateRequirement;
  hint?: string | undefined;
  details?: Record<string, unknown> | undefined;
  retryable?: boolean;
}

/** ILLEGAL_STATE with the details the contract asks for: current_state, required_state, allowed_states. */
export function illegalState(refusal: IllegalStateRefusal): SwitchyardError {
  const { message, current, rule, hint } = refusal;
  return new SwitchyardError('conflict', message, {
    code: 'ILLEGAL_STATE',
    retryable: refusal.retryable ?? false,
    hint,
    details: {
      current_state: current,
      required_state: rule.required,
      allowed_states: [...rule.allowed],
      ...refusal.details,
    },
  });
}

/** Another executor (a background run, a concurrent call, another process) holds the run right now. */
export function runBusy(current: RunState, rule: StateRequirement): SwitchyardError {
  return illegalState({
    message: `Run is busy (state ${current}): another step is executing on it; retry when it has finished`,
    current,
    rule,
    retryable: true,
    details: { reason: 'run_busy' },
  });
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
