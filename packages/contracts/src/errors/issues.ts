/** The parts of a zod issue this module reads (zod 4's `$ZodIssue`, kept structural so clients need no zod). */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
}

/** `stop.value`, `legs[2].mode`: the path of an issue as a caller writes it. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function describeIssue(issue: IssueLike): string {
  const where = formatIssuePath(issue.path);
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message) && where !== '') {
    return `${where} is required`;
  }
  if (where === '' || issue.message.startsWith(where)) return issue.message;
  return `${where}: ${issue.message}`;
}

/**
 * One message that tells the caller what to fix, e.g. `limit: Too big: expected number to be <=50`.
 * Messages written by a schema that already name their field are kept as they are.
 */
export function describeIssues(issues: readonly IssueLike[]): string {
  if (issues.length === 0) return 'Invalid input';
  return [...new Set(issues.map(describeIssue))].join('; ');
}

/** Secret-free issue list for error details: `[{ path: 'limit', message: '...' }]`. */
export function summarizeIssues(issues: readonly IssueLike[]): { path: string; message: string }[] {
  return issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message }));
}
