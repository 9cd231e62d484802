// Huge answers without huge memory: a real body with one of its lists repeated until the document has the
// requested size, generated while it is written (one 64 KiB batch is all the mock ever holds).
import type { ServerResponse } from 'node:http';

/** The default size of the `oversized-*` scenarios' bodies: 200 MiB. */
export const DEFAULT_OVERSIZED_BYTES = 200 * 1024 * 1024;

/** A JSON document of `prefix`, `count` copies of `element` separated by commas, and `suffix`. */
export interface RepeatedJson {
  readonly prefix: string;
  readonly element: string;
  readonly suffix: string;
  readonly count: number;
}

const MARKER = '\u0000oversized\u0000';
const BATCH_BYTES = 64 * 1024;

/** The path to the first non-empty array in `value` (depth first), or undefined when it has none. */
function firstListPath(
  value: unknown,
  path: readonly (string | number)[] = [],
): (string | number)[] | undefined {
  if (Array.isArray(value)) {
    if (value.length > 0) return [...path];
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = firstListPath(child, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A copy of `value` with the node at `path` replaced by `replacement`. */
function replaceAt(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  const record = value as Record<string, unknown>;
  return { ...record, [head]: replaceAt(record[head], rest, replacement) };
}

/**
 * `body` with its first non-empty list grown (by repeating that list's first item) until the whole document
 * is at least `bytes` long; a body without a list gets a `padding` list of 1 KiB strings.
 */
export function repeatedJson(body: unknown, bytes: number): RepeatedJson {
  const listPath = firstListPath(body);
  const base =
    listPath !== undefined
      ? body
      : { ...(body !== null && typeof body === 'object' ? body : {}), padding: ['x'.repeat(1024)] };
  const path = listPath ?? ['padding'];
  const list = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], base) as unknown[];
  const text = JSON.stringify(replaceAt(base, path, MARKER));
  const [before, after] = text.split(JSON.stringify(MARKER)) as [string, string];
  const prefix = `${before}[`;
  const suffix = `]${after}`;
  const element = JSON.stringify(list[0]);
  const fixed = Buffer.byteLength(prefix) + Buffer.byteLength(suffix) - 1;
  const count = Math.max(1, Math.ceil((bytes - fixed) / (Buffer.byteLength(element) + 1)));
  return { prefix, element, suffix, count };
}

/** The document's length in bytes. */
export function repeatedJsonLength(json: RepeatedJson): number {
  return (
    Buffer.byteLength(json.prefix) +
    json.count * (Buffer.byteLength(json.element) + 1) -
    1 +
    Buffer.byteLength(json.suffix)
  );
}

/**
 * Writes the document in batches, waiting for the client to drain each one, and stops as soon as the client
 * goes away: an aborted request costs the mock nothing more.
 */
export function writeRepeatedJson(res: ServerResponse, json: RepeatedJson): void {
  const unit = Buffer.from(`,${json.element}`);
  const perBatch = Math.max(1, Math.floor(BATCH_BYTES / unit.length));
  const batch = Buffer.concat(Array.from({ length: perBatch }, () => unit));
  let remaining = json.count - 1;
  const pump = (): void => {
    while (remaining > 0) {
      if (res.destroyed) return;
      const units = Math.min(perBatch, remaining);
      remaining -= units;
      if (!res.write(units === perBatch ? batch : batch.subarray(0, units * unit.length))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end(json.suffix);
  };
  res.write(`${json.prefix}${json.element}`);
  pump();
}
