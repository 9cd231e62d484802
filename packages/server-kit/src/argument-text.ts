import {
  formatIssuePath,
  isWellFormedText,
  notWellFormedMessage,
  SwitchyardError,
} from '@switchyard/contracts/errors';

/** Not in any domain's error table, like ARGUMENTS_TOO_DEEP: each payload shows its own validation code. */
export const ARGUMENT_NOT_TEXT = 'ARGUMENT_NOT_TEXT';

/**
 * Where the arguments hold a string, or an object key, that is not text every store keeps as given
 * (`textFault`: an unpaired UTF-16 surrogate, valid in JSON but stored as U+FFFD, so what a user saved would
 * come back changed; or a NUL character, which PostgreSQL cannot store in text at all). The message says
 * where and what, never echoing the text. Iterative, like the depth check that runs before it.
 */
export function notTextArgument(
  args: Record<string, unknown>,
): { path: string; message: string } | undefined {
  const pending: { value: unknown; path: PropertyKey[] }[] = [{ value: args, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (isWellFormedText(value)) continue;
      const where = formatIssuePath(path);
      return { path: where, message: notWellFormedMessage(where, value) };
    }
    if (value === null || typeof value !== 'object') continue;
    const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
    for (const [key, child] of entries) {
      if (typeof key === 'string' && !isWellFormedText(key)) {
        const where = formatIssuePath(path);
        return {
          path: where,
          message: notWellFormedMessage(where === '' ? 'an argument name' : `a key in ${where}`, key),
        };
      }
      if (typeof child === 'string' || (child !== null && typeof child === 'object'))
        pending.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
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
