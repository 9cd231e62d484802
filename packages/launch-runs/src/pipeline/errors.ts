import { SwitchyardError } from '@switchyard/contracts/errors';

/** The run was cancelled (or the server is shutting down): stop without further writes. */
export function cancelledError(): SwitchyardError {
  return new SwitchyardError('cancelled', 'The run was cancelled', { code: 'CANCELLED' });
}

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancelledError();
}

/** A write the run_config's allowed_paths does not permit; nothing has been written when this is thrown. */
export function allowedPathsViolation(
  paths: readonly string[],
  allowedPaths: readonly string[],
): SwitchyardError {
  const list = paths.slice(0, 10).join(', ');
  return new SwitchyardError(
    'validation',
    `Refusing to write outside allowed_paths: ${list}. Add a matching glob to run_config.allowed_paths or change the target.`,
    { code: 'ALLOWED_PATHS_VIOLATION', details: { paths: [...paths], allowed_paths: [...allowedPaths] } },
  );
}

/** An artifact an earlier worker should have written is missing: the worker was called out of order. */
export function missingArtifact(name: string, producer: string): SwitchyardError {
  return new SwitchyardError('conflict', `Artifact ${name} is missing; ${producer} must run first`, {
    code: 'ILLEGAL_STATE',
    details: { missing_artifact: name, required_worker: producer },
  });
}

/** An artifact exists but does not match its schema. */
export function invalidArtifact(name: string, problems: string): SwitchyardError {
  return new SwitchyardError('validation', `Artifact ${name} fails schema validation: ${problems}`, {
    code: 'SCHEMA_VALIDATION_FAILED',
    details: { artifact: name },
  });
}
