import type { ErrorObject } from 'ajv/dist/2020.js';
import { describeIssues, formatIssuePath, type IssueLike } from '@switchyard/contracts/errors';

// A JSON Schema validator's errors as the issues zod reports, so that a stated schema's refusal reads like a zod
// contract's (`describeIssues`): each names the field to fix, as a caller writes its path.

type Path = (string | number)[];

/** Keywords whose failure only says that their branches failed: their branches' issues say why. */
const ALTERNATIVES: ReadonlySet<string> = new Set(['anyOf', 'oneOf']);

/** The instance path (a JSON pointer) as issue path segments; array positions as numbers, read off `data`. */
function pathOf(pointer: string, data: unknown): Path {
  const path: Path = [];
  let node: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    const segment = Array.isArray(node) ? Number(key) : key;
    path.push(segment);
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return path;
}

/** What one failed keyword asks of the value at its path, in words a caller acts on. */
const WORDS: Readonly<Record<string, (error: ErrorObject, field: string) => string>> = {
  required: (_error, field) => `${field} is required`,
  additionalProperties: (_error, field) => `${field} is not a field this tool takes`,
  enum: (error) =>
    `must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`,
  const: (error) => `must be ${JSON.stringify(error.params.allowedValue)}`,
};

/** The field a keyword names beside the value it checks (a missing or an unexpected property). */
function namedField(error: ErrorObject): string | undefined {
  const { missingProperty, additionalProperty } = error.params as Record<string, unknown>;
  const field = missingProperty ?? additionalProperty;
  return typeof field === 'string' ? field : undefined;
}

function issueOf(error: ErrorObject, data: unknown): IssueLike {
  const path = pathOf(error.instancePath, data);
  const field = namedField(error);
  if (field !== undefined) path.push(field);
  const words = WORDS[error.keyword];
  return { path, message: words?.(error, formatIssuePath(path)) ?? error.message ?? 'is not valid' };
}

function isUnder(error: ErrorObject, parent: ErrorObject): boolean {
  return error !== parent && error.schemaPath.startsWith(`${parent.schemaPath}/`);
}

/**
 * The validator's errors as issues. An `anyOf`/`oneOf` whose branches all failed becomes one issue listing
 * what each branch wanted ("phone is required, or email is required"); an `if` only repeats its `then` or
 * `else`, whose own errors are kept.
 */
export function schemaIssues(errors: readonly ErrorObject[], data: unknown): IssueLike[] {
  const alternatives = errors.filter((error) => ALTERNATIVES.has(error.keyword));
  const outermost = alternatives.filter((error) => !alternatives.some((other) => isUnder(error, other)));
  const issues: IssueLike[] = [];
  for (const error of errors) {
    if (error.keyword === 'if' || outermost.some((parent) => isUnder(error, parent))) continue;
    if (!outermost.includes(error)) {
      issues.push(issueOf(error, data));
      continue;
    }
    const branches = schemaIssues(
      errors.filter((other) => isUnder(other, error)),
      data,
    );
    const path = pathOf(error.instancePath, data);
    const either = branches.map((branch) => describeIssues([branch])).join(', or ');
    issues.push({
      path,
      message:
        branches.length === 0 ? (error.message ?? 'is not valid') : `one of these must hold: ${either}`,
    });
  }
  return issues;
}
