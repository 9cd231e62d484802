// The one way a tool argument becomes part of a TfL URL path: every TfL client builds its path segments here.
import { SwitchyardError } from '@switchyard/contracts/errors';

/**
 * `value` as one whole path segment: percent-encoded, so `/`, `?`, `#` and `%` stay inside it. "." and ".."
 * come through encoding unchanged and URL resolution would drop or climb them (a keyed request to another
 * TfL path); encoding the dots does not help, as `%2e` segments are dot segments too. Such a value names
 * nothing TfL could look up: it is the caller's validation error, naming `field`.
 */
export function tflPathSegment(value: string, field: string): string {
  if (value === '.' || value === '..') {
    throw new SwitchyardError(
      'validation',
      `${field} must be a name, id or code, not "${value}" (a lone "." or ".." cannot be sent to TfL)`,
    );
  }
  return encodeURIComponent(value);
}

/** A comma-separated list (line ids, modes) as one path segment, each item checked as a segment. */
export function tflListSegment(values: readonly string[], field: string): string {
  return values.map((value) => tflPathSegment(value, field)).join(',');
}
