import { SwitchyardError } from '@switchyard/contracts/errors';

/**
 * Not in any domain's error table, so each payload shows its own validation code; it marks the failure as
 * already classified (launch-runs would otherwise re-read a too-deep run_config as a schema failure).
 */
export const ARGUMENTS_TOO_DEEP = 'ARGUMENTS_TOO_DEEP';

/**
 * The first top-level argument that nests objects and arrays deeper than `maxDepth` (the arguments object
 * is level 1), or undefined. Iterative, so no input can exhaust the stack: validators, the stores'
 * `JSON.stringify` and the SDK recurse, and a few thousand levels throw RangeError in them.
 */
export function tooDeepArgument(args: Record<string, unknown>, maxDepth: number): string | undefined {
  const pending: { value: unknown; depth: number; field: string }[] = Object.entries(args).map(
    ([field, value]) => ({ value, depth: 2, field }),
  );
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth, field } = next;
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return field;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (child !== null && typeof child === 'object')
        pending.push({ value: child, depth: depth + 1, field });
    }
  }
  return undefined;
}

/** Throws the validation error every contract maps to its own payload when arguments nest too deeply. */
export function assertArgumentDepth(args: Record<string, unknown>, maxDepth: number): void {
  const field = tooDeepArgument(args, maxDepth);
  if (field === undefined) return;
  const message = `nests objects and arrays more than ${maxDepth} levels deep (the limit); send a flatter value`;
  throw new SwitchyardError('validation', `${field} ${message}`, {
    code: ARGUMENTS_TOO_DEEP,
    details: { issues: [{ path: field, message }] },
  });
}
