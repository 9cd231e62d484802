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

/**
 * `body` with its first non-empty list (depth first) grown, by repeating that list's first item, until the whole
 * document is at least `bytes` long; a body without a list gets a `padding` list of 1 KiB strings.
 */
export function repeatedJson(body: unknown, bytes: number): RepeatedJson {
  let list: unknown[] | undefined;
  // The document with the list replaced by a marker string, where the repeated items will go.
  const marked = (value: unknown) =>
    JSON.stringify(value, (_key, node: unknown) => {
      if (list !== undefined || !Array.isArray(node) || node.length === 0) return node;
      list = node;
      return MARKER;
    });
  let text = marked(body);
  if (list === undefined) {
    const object = body !== null && typeof body === 'object' ? body : {};
    text = marked({ ...object, padding: ['x'.repeat(1024)] });
  }
  const [before, after] = text.split(JSON.stringify(MARKER)) as [string, string];
  const prefix = `${before}[`;
  const suffix = `]${after}`;
  const element = JSON.stringify(list![0]);
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
