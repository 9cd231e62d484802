import { SwitchyardError } from '@switchyard/contracts/errors';

/**
 * Not in any domain's error table, so each payload shows its own validation code; it marks the failure as
 * already classified (launch-runs would otherwise re-read a too-deep run_config as a schema failure).
 */
export const ARGUMENTS_TOO_DEEP = 'ARGUMENTS_TOO_DEEP';

/**
 * A top-level argument that nests objects and arrays deeper than `maxDepth` (the arguments object is level
 * 1; the last in key order when several do), or undefined. Iterative, so no input
 * can exhaust the stack: validators, the stores' `JSON.stringify` and the SDK recurse, and a few thousand
 * levels throw RangeError in them. Arguments of plain values (the usual call) are passed without building
 * anything.
 */
export function tooDeepArgument(args: Record<string, unknown>, maxDepth: number): string | undefined {
  const fields = Object.keys(args);
  for (let index = fields.length - 1; index >= 0; index -= 1) {
    const field = fields[index]!;
    const value = args[field];
    if (isObject(value) && nestsBeyond(value, 2, maxDepth)) return field;
  }
  return undefined;
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

/** Whether `root`, at level `rootDepth`, holds an object or array deeper than `maxDepth`. */
function nestsBeyond(root: object, rootDepth: number, maxDepth: number): boolean {
  if (rootDepth > maxDepth) return true;
  // A list or record of plain values (the usual argument) needs no walk.
  if (!(Array.isArray(root) ? root : Object.values(root)).some(isObject)) return false;
  const values: object[] = [root];
  const depths: number[] = [rootDepth];
  for (let value = values.pop(); value !== undefined; value = values.pop()) {
    const depth = depths.pop()!;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (isObject(child)) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
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
