import { SwitchyardError } from '@switchyard/contracts/errors';

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
/** Suffix of an artifact's bytes waiting to be renamed into place (see artifact-store.ts). */
export const PENDING_SUFFIX = '.pending';

/**
 * Why `name` is not an acceptable artifact name, or undefined when it is. Names are relative paths of
 * plain segments (`page_plan.json`, `drafts/docs/index.md`): no absolute paths, no `.`/`..`, no
 * backslashes, no hidden or empty segments, at most 255 characters.
 */
export function artifactNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 255) return 'artifact names are 1..255 characters';
  if (name.startsWith('/')) return 'artifact names are relative (no leading "/")';
  const segments = name.split('/');
  for (const segment of segments) {
    if (segment === '..' || segment === '.') return 'artifact names must not contain "." or ".." segments';
    if (!SEGMENT.test(segment)) {
      return `artifact name segment "${segment.slice(0, 40)}" may only use letters, digits, ".", "_" and "-" and must not start with "." or "-"`;
    }
  }
  if (name.endsWith(PENDING_SUFFIX)) return `artifact names must not end in "${PENDING_SUFFIX}"`;
  return undefined;
}

/** Throws INVALID_INPUT for a name that could escape the run's artifact folder. */
export function assertArtifactName(name: string): void {
  const problem = artifactNameProblem(name);
  if (problem !== undefined) {
    throw new SwitchyardError('validation', `Invalid artifact name: ${problem}`, {
      code: 'INVALID_INPUT',
      details: { reason: 'invalid_artifact_name' },
    });
  }
}
