// Time-zone conversions: TfL answers in London wall-clock time without an offset; callers get ISO 8601 instants
// with the offset that was in force. The zone's offset at an instant comes from @date-fns/tz's `tzOffset` (the
// platform's IANA database through Intl); the rest is arithmetic on UTC fields, with one `Intl` call per zone
// and UTC hour at most, because formatting an instant through Intl costs more than a whole tool call's JSON work.
import { tzOffset } from '@date-fns/tz';

export const LONDON = 'Europe/London';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Hours remembered per zone (a year); the map starts over when full. */
const CACHED_HOURS_PER_ZONE = 8_784;
const offsetsByHour = new Map<string, Map<number, number>>();

/**
 * The zone's offset from UTC at an instant, in minutes (60 for BST). An hour whose two ends share an offset has
 * that offset throughout (no zone changes its offset twice within an hour), so it is remembered per UTC hour;
 * an hour with a change in it is asked exactly.
 */
export function offsetMinutesAt(epochMs: number, timeZone: string): number {
  const hour = Math.floor(epochMs / HOUR);
  let zone = offsetsByHour.get(timeZone);
  if (zone === undefined) offsetsByHour.set(timeZone, (zone = new Map()));
  const known = zone.get(hour);
  if (known !== undefined) return known;
  const atStart = tzOffset(timeZone, new Date(hour * HOUR));
  if (atStart !== tzOffset(timeZone, new Date(hour * HOUR + HOUR - 1))) {
    return tzOffset(timeZone, new Date(epochMs));
  }
  if (zone.size >= CACHED_HOURS_PER_ZONE) zone.clear();
  zone.set(hour, atStart);
  return atStart;
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** False for a date or hour that does not exist in the calendar (2025-02-30, 24:00), which Date would roll over. */
function sameWallClock(wallAsUtc: number, year: number, month: number, day: number, hour: number): boolean {
  const asUtc = new Date(wallAsUtc);
  return (
    asUtc.getUTCFullYear() === year &&
    asUtc.getUTCMonth() + 1 === month &&
    asUtc.getUTCDate() === day &&
    asUtc.getUTCHours() === hour
  );
}

/**
 * The instant of a wall-clock time in `timeZone` ("2015-10-21T16:30:00" in London is 15:30Z), with Temporal's
 * "compatible" disambiguation: a time repeated when clocks go back is the earlier instant, a time skipped
 * when clocks go forward is read with the offset before the change. Undefined when unparseable.
 *
 * The offsets a day before and a day after are the only two in force near the time (no zone changes twice in
 * two days); each is a candidate when the instant it gives really has that offset.
 */
export function zonedLocalToEpochMs(local: string, timeZone: string): number | undefined {
  const match = LOCAL_DATE_TIME.exec(local);
  if (match === null) return undefined;
  // Field by field: an array of the parts, its destructuring and a second array to compare them with were 40%
  // of what mapping a TfL journey answer allocated.
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const second = Number(match[6] ?? 0);
  if (minute > 59 || second > 59) return undefined; // Date would roll them over into the next minute or hour
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (!sameWallClock(wallAsUtc, year, month, day, hour)) return undefined;
  const offsetBefore = offsetMinutesAt(wallAsUtc - DAY, timeZone);
  const withOffsetBefore = wallAsUtc - offsetBefore * MINUTE;
  if (offsetMinutesAt(withOffsetBefore, timeZone) === offsetBefore) return withOffsetBefore;
  const offsetAfter = offsetMinutesAt(wallAsUtc + DAY, timeZone);
  const withOffsetAfter = wallAsUtc - offsetAfter * MINUTE;
  if (offsetMinutesAt(withOffsetAfter, timeZone) === offsetAfter) return withOffsetAfter;
  return withOffsetBefore; // skipped: neither offset gives this wall-clock time
}

const twoDigits = (value: number): string => String(value).padStart(2, '0');

/** ISO 8601 with the zone's offset, seconds precision: `2015-10-21T16:30:00+01:00` (`+00:00`, never `Z`). */
export function formatZoned(epochMs: number, timeZone: string): string {
  const instant = Math.floor(epochMs / 1000) * 1000;
  const offset = Math.round(offsetMinutesAt(instant, timeZone));
  const wallClock = new Date(instant + offset * MINUTE).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const size = Math.abs(offset);
  return `${wallClock}${sign}${twoDigits(Math.floor(size / 60))}:${twoDigits(size % 60)}`;
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
