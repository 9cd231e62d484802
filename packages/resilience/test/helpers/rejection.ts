import { SwitchyardError } from '@switchyard/contracts/errors';
import { expect } from 'vitest';

/** What `promise` rejects with, checked to be a SwitchyardError (a resolution fails the test). */
export async function rejection(promise: Promise<unknown>): Promise<SwitchyardError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SwitchyardError);
  return error as SwitchyardError;
}
