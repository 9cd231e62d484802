// Time-zone conversions with date-fns and @date-fns/tz (the IANA rules come from the platform's tz database):
// TfL answers in London wall-clock time without an offset; callers get ISO 8601 instants with the offset that
// was in force.
import { TZDate, tzOffset } from '@date-fns/tz';
import { format } from 'date-fns/format';

export const LONDON = 'Europe/London';

/** The zone's offset from UTC at an instant, in minutes (60 for BST). */
export function offsetMinutesAt(epochMs: number, timeZone: string): number {
  return tzOffset(timeZone, new Date(epochMs));
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** False for a date-time that does not exist in the calendar (2025-02-30, 24:00), which Date would roll over. */
function sameWallClock(asUtc: Date, parts: readonly number[]): boolean {
  const actual = [
    asUtc.getUTCFullYear(),
    asUtc.getUTCMonth() + 1,
    asUtc.getUTCDate(),
    asUtc.getUTCHours(),
    asUtc.getUTCMinutes(),
    asUtc.getUTCSeconds(),
  ];
  return actual.every((value, index) => value === parts[index]);
}

/**
 * The instant of a wall-clock time in `timeZone` ("2015-10-21T16:30:00" in London is 15:30Z), with Temporal's
 * "compatible" disambiguation: a time repeated when clocks go back is the earlier instant, a time skipped
 * when clocks go forward is read with the offset before the change. Undefined when unparseable.
 */
export function zonedLocalToEpochMs(local: string, timeZone: string): number | undefined {
  const match = LOCAL_DATE_TIME.exec(local);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (!sameWallClock(new Date(wallAsUtc), [year, month, day, hour, minute, second])) return undefined;
  // TZDate resolves a skipped time as "compatible" does, but a repeated one to the later instant.
  const resolved = +new TZDate(year, month - 1, day, hour, minute, second, timeZone);
  const offsetBefore = offsetMinutesAt(resolved - 86_400_000, timeZone);
  const earlier = wallAsUtc - offsetBefore * 60_000;
  const repeated = earlier < resolved && offsetMinutesAt(earlier, timeZone) === offsetBefore;
  return repeated ? earlier : resolved;
}

/** ISO 8601 with the zone's offset, seconds precision: `2015-10-21T16:30:00+01:00` (`+00:00`, never `Z`). */
export function formatZoned(epochMs: number, timeZone: string): string {
  return format(new TZDate(Math.floor(epochMs / 1000) * 1000, timeZone), "yyyy-MM-dd'T'HH:mm:ssxxx");
}

/** ISO 8601 in UTC, seconds precision: `2025-09-15T10:05:00Z`. */
export function formatUtc(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * A TfL date-time as an ISO 8601 instant with the London offset. TfL sends London wall-clock time
 * (`2025-07-15T08:00:00`); a value that already carries `Z` or an offset is read as the instant it names.
 */
export function londonLocalToIso(value: string): string | undefined {
  const text = value.trim();
  const epoch = LOCAL_DATE_TIME.test(text) ? zonedLocalToEpochMs(text, LONDON) : instantWithZone(text);
  return epoch === undefined ? undefined : formatZoned(epoch, LONDON);
}

const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

function instantWithZone(text: string): number | undefined {
  if (!ZONED_DATE_TIME.test(text)) return undefined;
  const epoch = Date.parse(text);
  return Number.isNaN(epoch) ? undefined : epoch;
}
