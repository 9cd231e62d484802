import { SwitchyardError, type ErrorKind } from '@switchyard/contracts/errors';
import { redactSecrets } from '@switchyard/resilience/context';
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

/**
 * How a launch task ended, as JSON for its row (tasks.outcome): an output, or a refusal; registered secrets
 * redacted, as in every error the tools answer.
 */
export function encodeTaskEnd(outcome: Extract<TaskOutcome, { kind: 'output' | 'refusal' }>): string {
  if (outcome.kind === 'output') return JSON.stringify(outcome satisfies StoredEnd);
  const { kind, message, code, retryable, hint, details } = outcome.error;
  const error: StoredRefusal = { kind, message, code, retryable, hint, details };
  return redactSecrets(JSON.stringify({ kind: 'refusal', error } satisfies StoredEnd));
}

/** The row's end, read back. */
export function decodeTaskEnd(text: string): TaskOutcome {
  const stored = JSON.parse(text) as StoredEnd;
  if (stored.kind === 'output') return stored;
  const { kind, message, ...options } = stored.error;
  return { kind: 'refusal', error: new SwitchyardError(kind, message, options) };
}
