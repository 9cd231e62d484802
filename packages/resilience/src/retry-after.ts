const DELAY_SECONDS = /^\d+(?:\.\d+)?$/;
/** IMF-fixdate / RFC 850 (`Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 ...`) and asctime. */
const HTTP_DATE =
  /^(?:[A-Za-z]{3,9}, \d{1,2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * A `Retry-After` value in milliseconds: delay-seconds (`2`, leniently `1.5`) or an HTTP-date (a date in the
 * past means "now", 0). Anything else (garbage, negative numbers, empty) is undefined.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (DELAY_SECONDS.test(text)) {
    const ms = Math.round(Number(text) * 1000);
    return Number.isFinite(ms) ? ms : undefined;
  }
  if (!HTTP_DATE.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

const TRY_AGAIN_IN = /try again in (\d+(?:\.\d+)?) ?(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i;

/** Azure API Management's quota answer: "Quota will be replenished in 00:00:42" (a .NET TimeSpan, [d.]hh:mm:ss). */
const REPLENISHED_IN = /replenished in (?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})\b/i;

function fromTimeSpan(message: string): number | undefined {
  const match = REPLENISHED_IN.exec(message);
  if (match === null) return undefined;
  const [days, hours, minutes, seconds] = match.slice(1, 5).map((part) => Number(part ?? 0)) as number[];
  return ((((days ?? 0) * 24 + (hours ?? 0)) * 60 + (minutes ?? 0)) * 60 + (seconds ?? 0)) * 1000;
}

function fromMessage(message: string): number | undefined {
  const match = TRY_AGAIN_IN.exec(message);
  if (match === null) return fromTimeSpan(message);
  const amount = Number(match[1]);
  const unit = (match[2] ?? 's').toLowerCase();
  if (unit.startsWith('ms') || unit.startsWith('milli')) return Math.round(amount);
  if (unit.startsWith('m')) return Math.round(amount * 60_000);
  return Math.round(amount * 1000);
}

function fromField(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.round(value * 1000);
  if (typeof value === 'string') return parseRetryAfter(value);
  return undefined;
}

/**
 * The wait an API gateway puts in a 429 or quota body: `{"retryAfter": 5}` / `{"retry_after": 5}` (seconds) or a
 * message such as `{"statusCode": 429, "message": "Rate limit is exceeded. Try again in 5 seconds."}` or
 * `{"statusCode": 403, "message": "Out of call volume quota. Quota will be replenished in 00:00:42."}`
 * (Azure API Management, which fronts TfL and Digitransit). Plain-text bodies with those sentences work too.
 */
export function retryAfterFromBody(body: string | undefined): number | undefined {
  if (body === undefined || body.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return fromMessage(body);
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record = parsed as Record<string, unknown>;
  const field =
    fromField(record.retryAfter) ?? fromField(record.retry_after) ?? fromField(record.retryAfterSeconds);
  if (field !== undefined) return field;
  return typeof record.message === 'string' ? fromMessage(record.message) : undefined;
}
