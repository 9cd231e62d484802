import { SwitchyardError, type ErrorKind } from '@switchyard/contracts/errors';
import type { TaskOutcome } from '@switchyard/server-kit';

/** A refusal as the task row keeps it: what rebuilds the SwitchyardError the tool would have thrown. */
interface StoredRefusal {
  kind: ErrorKind;
  message: string;
  code?: string;
  retryable?: boolean;
  hint?: string;
  details?: Record<string, unknown>;
}

type StoredEnd =
  { kind: 'output'; output: Record<string, unknown> } | { kind: 'refusal'; error: StoredRefusal };

/** How a launch task ended, as JSON for its row (tasks.outcome): an output, or a refusal. */
export function encodeTaskEnd(outcome: Extract<TaskOutcome, { kind: 'output' | 'refusal' }>): string {
  if (outcome.kind === 'output') return JSON.stringify(outcome satisfies StoredEnd);
  const { kind, message, code, retryable, hint, details } = outcome.error;
  return JSON.stringify({ kind: 'refusal', error: { kind, message, code, retryable, hint, details } });
}

/** The row's end, read back. */
export function decodeTaskEnd(text: string): TaskOutcome {
  const stored = JSON.parse(text) as StoredEnd;
  if (stored.kind === 'output') return stored;
  const { kind, message, ...options } = stored.error;
  return { kind: 'refusal', error: new SwitchyardError(kind, message, options) };
}
