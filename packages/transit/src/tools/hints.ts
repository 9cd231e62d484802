import { SwitchyardError } from '@switchyard/contracts/errors';

/**
 * A hint for a schema validation failure, chosen by the first issue path that has one. Semantic checks in
 * the handlers bring their own hint; schema failures come from the registration helper without one.
 */
export function withValidationHint(
  error: SwitchyardError,
  hints: Readonly<Record<string, string>>,
  fallback: string,
): SwitchyardError {
  if (error.kind !== 'validation' || error.hint !== undefined || error.code !== undefined) return error;
  const issues = error.details?.issues;
  const paths = Array.isArray(issues)
    ? issues.map((issue: unknown) =>
        typeof (issue as { path?: unknown } | null)?.path === 'string'
          ? (issue as { path: string }).path
          : '',
      )
    : [];
  const hint = paths.map((path) => hints[path]).find((value) => value !== undefined) ?? fallback;
  return new SwitchyardError(error.kind, error.message, {
    hint,
    ...(error.details === undefined ? {} : { details: error.details }),
    cause: error,
  });
}
