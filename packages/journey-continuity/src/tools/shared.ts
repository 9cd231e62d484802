import { journeyErrorPayload } from '@switchyard/contracts/errors';
import type { SwitchyardError } from '@switchyard/contracts/errors';

/** Every journey tool answers failures as `{ error: { status, code, message } }` (seed 004). */
export function errorPayload(error: SwitchyardError): Record<string, unknown> {
  return journeyErrorPayload(error);
}
