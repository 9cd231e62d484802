import { SwitchyardError } from '@switchyard/contracts/errors';

/** 429 from TfL without a Retry-After still tells the caller how long to wait. */
function withWait(error: SwitchyardError): SwitchyardError {
  if (error.kind !== 'rate-limited' || error.retryAfterMs !== undefined) return error;
  return new SwitchyardError(
    'rate-limited',
    `${error.message}; TfL gave no Retry-After, so wait at least 1 s before retrying`,
    { retryAfterMs: 1000, retryable: true, cause: error, details: error.details ?? {} },
  );
}

/** What a TfL call answers; its failure as thrown, a rate limit with how long to wait. */
export async function tflAnswer<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof SwitchyardError ? withWait(error) : error;
  }
}
