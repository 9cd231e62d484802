// Canonical JSON: object keys sorted by code point at every depth (undefined entries dropped), arrays in their
// order, so that the same value always serialises to the same bytes: compact for hashes and identities (the
// event chain, a run's config), indented for artifacts people read.
import { createHash } from 'node:crypto';

/** Locale-independent ordering (plain `<` on UTF-16 code units, which is stable across machines). */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareCodePoints)) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) out[key] = sortKeys(item);
    }
    return out;
  }
  return value;
}

/** Compact canonical JSON: equal values give equal text (hashes, config identity). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** Canonical JSON as an artifact file: two-space indent and one trailing newline. */
export function canonicalJsonDocument(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
