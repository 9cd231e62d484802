/**
 * Canonical JSON for artifacts: object keys sorted by code point at every depth, two-space indent, one
 * trailing newline. Arrays keep their order (callers sort them where order is not meaningful), so the same
 * value always serialises to the same bytes.
 */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
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

/** Locale-independent ordering (plain `<` on UTF-16 code units, which is stable across machines). */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
