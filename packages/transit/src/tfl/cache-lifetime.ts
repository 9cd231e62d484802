// How long TfL says an answer stays current: its `Cache-Control` (max-age less the `Age` a shared cache on
// the way added; none for no-store or no-cache) and, for predictions, the earliest `timeToLive`.

import type { AnswerHeaders } from '@switchyard/resilience';

const MAX_AGE = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(?:,|$)/i;
const NOT_STORABLE = /(?:^|,)\s*(?:no-store|no-cache)\s*(?:[,=]|$)/i;

/** Milliseconds of freshness left by the response headers; undefined when they give no max-age. */
export function headerLifetimeMs(headers: AnswerHeaders): number | undefined {
  const cacheControl = headers.get('cache-control') ?? '';
  if (NOT_STORABLE.test(cacheControl)) return 0;
  const maxAge = MAX_AGE.exec(cacheControl);
  if (maxAge === null) return undefined;
  const age = Number(headers.get('age') ?? 0);
  return Math.max(0, Number(maxAge[1]) - (Number.isFinite(age) && age > 0 ? age : 0)) * 1000;
}

/**
 * The lifetime of an answer: the earliest of the header's max-age and the expiry instants (epoch ms) it
 * carries; 0 (keep nothing) when neither says anything.
 */
export function answerLifetimeMs(headers: AnswerHeaders, expiries: readonly number[], nowMs: number): number {
  let earliest = headerLifetimeMs(headers) ?? Number.POSITIVE_INFINITY;
  for (const expiry of expiries) {
    const left = expiry - nowMs;
    if (Number.isFinite(left) && left < earliest) earliest = left;
  }
  return Number.isFinite(earliest) ? Math.max(0, earliest) : 0;
}
