// Time-zone conversions: TfL answers in London wall-clock time without an offset; callers get ISO 8601 instants
// with the offset that was in force. The zone's offset at an instant comes from the system's time-zone database
// (zones/zone-offsets.ts); the rest is arithmetic on UTC fields, with one lookup per zone and UTC hour at most.
import { zoneOffsetMinutes } from './zones/zone-offsets.js';

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
  const atStart = zoneOffsetMinutes(timeZone, hour * HOUR);
  if (atStart !== zoneOffsetMinutes(timeZone, hour * HOUR + HOUR - 1)) {
    return zoneOffsetMinutes(timeZone, epochMs);
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

const DIGIT = 0x30;
const HYPHEN = 0x2d;
const COLON = 0x3a;
const LETTER_T = 0x54;
const LETTER_Z = 0x5a;

/** Days from 1970-01-01 to 10000-01-01: the instants whose year ISO 8601 writes in four digits. */
const DAYS_BEFORE_YEAR_10000 = 2_932_897;

/**
 * ISO 8601 in UTC, seconds precision: `2025-09-15T10:05:00Z`. Written from the UTC fields computed here, not
 * through a Date and toISOString (a plan_trip answer formats some seventy instants: a Date, its string and the
 * string without its milliseconds took 0.5 µs and 220 bytes each; this 0.1 µs and one string); instants
 * before 1970 or after 9999, and NaN (a RangeError), go through Date as before.
 */
export function formatUtc(epochMs: number): string {
  const seconds = Math.floor(epochMs / 1000);
  const days = Math.floor(seconds / 86_400);
  if (!(days >= 0 && days < DAYS_BEFORE_YEAR_10000)) {
    return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  }
  // The civil date of a day count (Howard Hinnant's civil_from_days): years of 400 (an era, 146,097 days)
  // counted from 0000-03-01, so that the leap day is the last day of its year.
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = era * 400 + yearOfEra + (month <= 2 ? 1 : 0);
  const second = seconds - days * 86_400;
  const hour = Math.floor(second / 3600);
  const minute = Math.floor(second / 60) % 60;
  // One string from its character codes: joining the parts built one string per part and per join.
  return String.fromCharCode(
    DIGIT + Math.floor(year / 1000),
    DIGIT + (Math.floor(year / 100) % 10),
    DIGIT + (Math.floor(year / 10) % 10),
    DIGIT + (year % 10),
    HYPHEN,
    DIGIT + Math.floor(month / 10),
    DIGIT + (month % 10),
    HYPHEN,
    DIGIT + Math.floor(day / 10),
    DIGIT + (day % 10),
    LETTER_T,
    DIGIT + Math.floor(hour / 10),
    DIGIT + (hour % 10),
    COLON,
    DIGIT + Math.floor(minute / 10),
    DIGIT + (minute % 10),
    COLON,
    DIGIT + Math.floor((second % 60) / 10),
    DIGIT + (second % 10),
    LETTER_Z,
  );
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
