// The upstreams speak local time. Time-zone arithmetic is date-fns with @date-fns/tz (TZDate: a Date whose
// fields are read in an IANA zone); on top of it, the formats the upstreams use.
// TfL: London local time without an offset. OTP: ISO offset date-times in the feed's zone, service days as
// epoch seconds of local midnight, durations as ISO-8601 strings.
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { startOfDay } from 'date-fns/startOfDay';

export const LONDON = 'Europe/London';
export const HELSINKI = 'Europe/Helsinki';

/** Wall-clock fields of an instant in a time zone (`weekday`: 0 = Sunday). */
export function zonedParts(epochMs: number, timeZone: string) {
  const date = new TZDate(epochMs, timeZone);
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
    weekday: date.getDay(),
  };
}

/** The instant (ms) at which the given wall-clock time occurs in the zone. */
export function zonedToEpochMs(
  local: { year: number; month: number; day: number; hour?: number; minute?: number; second?: number },
  timeZone: string,
): number {
  return +new TZDate(
    local.year,
    local.month - 1,
    local.day,
    local.hour ?? 0,
    local.minute ?? 0,
    local.second ?? 0,
    timeZone,
  );
}

/** Epoch seconds of local midnight of the day the instant falls on (OTP's `serviceDay`). */
export function serviceDayStart(epochMs: number, timeZone: string): number {
  return Math.round(+startOfDay(new TZDate(epochMs, timeZone)) / 1000);
}

/** `2025-06-02T08:15:00`: local wall-clock time without an offset (TfL). */
export function localDateTime(epochMs: number, timeZone: string): string {
  return format(new TZDate(epochMs, timeZone), "yyyy-MM-dd'T'HH:mm:ss");
}

/** The instant of a `localDateTime` string in the zone. */
export function localDateTimeMs(text: string, timeZone: string): number {
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = text.split(/\D/).map(Number);
  return zonedToEpochMs({ year, month, day, hour, minute, second }, timeZone);
}

/** `2025-06-02T08:15:00+03:00`, Java's ISO_OFFSET_DATE_TIME for whole seconds (OTP's OffsetDateTime). */
export function offsetDateTime(epochMs: number, timeZone: string): string {
  return format(new TZDate(Math.floor(epochMs / 1000) * 1000, timeZone), "yyyy-MM-dd'T'HH:mm:ssXXX");
}

/** `20250602`: the local calendar date (OTP's `Leg.serviceDate`, TfL's `date` parameter). */
export function compactDate(epochMs: number, timeZone: string): string {
  return format(new TZDate(epochMs, timeZone), 'yyyyMMdd');
}

/** ISO-8601 duration as OTP prints it: `PT10M`, `PT1H2M3S`, `PT0S`, `-PT1M30S`. */
export function isoDuration(totalSeconds: number): string {
  const seconds = Math.round(totalSeconds);
  if (seconds === 0) return 'PT0S';
  const abs = Math.abs(seconds);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  const body = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s ? `${s}S` : ''}`;
  return `${seconds < 0 ? '-' : ''}PT${body}`;
}

/** .NET's round-trip format with 7 fractional digits, as in TfL's `timestampUtc`. */
export function dotNetUtcTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.(\d{3})Z$/, '.$10000Z');
}
