import {
  formatIssuePath,
  isWellFormedText,
  notWellFormedMessage,
  SwitchyardError,
} from '@switchyard/contracts/errors';

/** Not in any domain's error table, like ARGUMENTS_TOO_DEEP: each payload shows its own validation code. */
export const ARGUMENT_NOT_TEXT = 'ARGUMENT_NOT_TEXT';

/** An object or array still to check, and how it was reached: the path is spelled out only for a fault. */
interface Pending {
  value: object;
  parent: Pending | undefined;
  key: PropertyKey;
}

/**
 * Where the arguments hold a string, or an object key, that is not text every store keeps as given
 * (`textFault`: an unpaired UTF-16 surrogate, valid in JSON but stored as U+FFFD, so what a user saved would
 * come back changed; or a NUL character, which PostgreSQL cannot store in text at all). The message says
 * where and what, never echoing the text. Iterative, like the depth check that runs before it; it runs on
 * every call, so a string is checked where it is met and nothing is kept for it.
 */
export function notTextArgument(args: Record<string, unknown>): TextFault | undefined {
  const pending: Pending[] = [{ value: args, parent: undefined, key: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value } = next;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        const fault = visitChild(value[index], index, next, pending);
        if (fault !== undefined) return fault;
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      if (!isWellFormedText(key)) {
        const where = formatIssuePath(pathOf(next));
        return {
          path: where,
          message: notWellFormedMessage(where === '' ? 'an argument name' : `a key in ${where}`, key),
        };
      }
      const fault = visitChild((value as Record<string, unknown>)[key], key, next, pending);
      if (fault !== undefined) return fault;
    }
  }
  return undefined;
}

interface TextFault {
  path: string;
  message: string;
}

/** Checks a string child at once; queues an object or array child. */
function visitChild(
  child: unknown,
  key: PropertyKey,
  parent: Pending,
  pending: Pending[],
): TextFault | undefined {
  if (typeof child === 'string') {
    if (isWellFormedText(child)) return undefined;
    const where = formatIssuePath([...pathOf(parent), key]);
    return { path: where, message: notWellFormedMessage(where, child) };
  }
  if (child !== null && typeof child === 'object') pending.push({ value: child, parent, key });
  return undefined;
}

/** The keys from the arguments down to `reached`. */
function pathOf(reached: Pending): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Pending | undefined = reached; at?.parent !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** Throws the validation error every contract maps to its own payload when an argument is not text. */
export function assertTextArguments(args: Record<string, unknown>): void {
  const found = notTextArgument(args);
  if (found === undefined) return;
  const { path, message } = found;
  throw new SwitchyardError('validation', message, {
    code: ARGUMENT_NOT_TEXT,
    hint: 'Send well-formed Unicode text: no unpaired surrogate (send both halves of a character) and no NUL.',
    details: { issues: [{ path, message }] },
  });
}
