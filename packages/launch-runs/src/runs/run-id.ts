import { randomBytes } from 'node:crypto';

/** `r_<UTC time as YYYY-MM-DDTHH-MM-SSZ>_<8 hex>`, e.g. r_2026-01-21T10-00-00Z_0f3a9c1e. */
export function newRunId(nowMs: number = Date.now()): string {
  const stamp = new Date(nowMs).toISOString().slice(0, 19).replace(/:/g, '-') + 'Z';
  return `r_${stamp}_${randomBytes(4).toString('hex')}`;
}

export const RUN_ID_PATTERN = /^r_\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z_[0-9a-f]{8}$/;
