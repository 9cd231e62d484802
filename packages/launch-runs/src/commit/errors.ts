import { SwitchyardError } from '@switchyard/contracts/errors';
import { redactSecrets } from '@switchyard/resilience/context';

/** COMMIT_SERVICE_ERROR with a truthful `retryable` and a redacted message. */
export function commitServiceError(
  message: string,
  retryable: boolean,
  details: Record<string, unknown> = {},
  cause?: unknown,
): SwitchyardError {
  return new SwitchyardError(retryable ? 'upstream-error' : 'validation', redactSecrets(message), {
    code: 'COMMIT_SERVICE_ERROR',
    retryable,
    details,
    cause,
  });
}
