import { SwitchyardError } from '@switchyard/contracts/errors';
import { HslErrorPayloadSchema, hslErrorPayload } from '@switchyard/contracts/transit';
import type { ErrorPayloadContext } from '@switchyard/server-kit';

/**
 * A hint for a schema validation failure, chosen by the first issue path that has one. Semantic checks in
 * the handlers bring their own hint; schema failures come from the server's validation without one.
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
  return new SwitchyardError(error.kind, error.message, { hint, details: error.details, cause: error });
}

/** Parameters of `hslErrorPayload`'s code table. */
type HslErrorTable = Parameters<typeof hslErrorPayload>[0];

/**
 * The error side of an HSL-style tool spec (`{ error: { code, message, hint?, ... } }`): the payload
 * schema, a hint added to schema failures, and the payload built from the tool's code table.
 */
export function hslErrors(table: HslErrorTable, hints: Readonly<Record<string, string>>, fallback: string) {
  return {
    errorOutput: HslErrorPayloadSchema,
    mapError: (error: SwitchyardError) => withValidationHint(error, hints, fallback),
    errorPayload: (error: SwitchyardError, { correlationId }: ErrorPayloadContext) =>
      hslErrorPayload(table, error, correlationId),
  };
}

/**
 * The error side of a TfL tool spec: a failure answers in the tool's own envelope (`success: false`, every
 * data field null), and an envelope that says `success: false` is an error result.
 */
export function tflErrors<Envelope extends { success: boolean }>(
  envelope: (error: SwitchyardError) => Envelope,
) {
  return {
    errorPayload: (error: SwitchyardError) => envelope(error),
    isErrorOutput: (output: Envelope) => !output.success,
  };
}

/** Annotations of the tools that only read from an upstream. */
export const READS_UPSTREAM = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;
