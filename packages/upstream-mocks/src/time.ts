// Time-zone arithmetic with Intl only (no dependency): the upstreams speak local time.
// TfL: London local time without an offset. OTP: ISO offset date-times in the feed's zone,
// service days as epoch seconds of local midnight, durations as ISO-8601 strings.

export const LONDON = 'Europe/London';
export const HELSINKI = 'Europe/Helsinki';

interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Wall-clock fields of an instant in a time zone. */
export function zonedParts(epochMs: number, timeZone: string): ZonedParts {
  const parts = formatterFor(timeZone).formatToParts(new Date(epochMs));
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
    weekday: WEEKDAYS.indexOf(get('weekday')),
  };
}

/** Offset of the zone from UTC at that instant, in seconds (e.g. 10800 for EEST). */
export function offsetSeconds(epochMs: number, timeZone: string): number {
  const p = zonedParts(epochMs, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 1000);
}

/** The instant (ms) at which the given wall-clock time occurs in the zone. */
export function zonedToEpochMs(
  local: { year: number; month: number; day: number; hour?: number; minute?: number; second?: number },
  timeZone: string,
): number {
  const naive = Date.UTC(
    local.year,
    local.month - 1,
    local.day,
    local.hour ?? 0,
    local.minute ?? 0,
    local.second ?? 0,
  );
  let guess = naive - offsetSeconds(naive, timeZone) * 1000;
  guess = naive - offsetSeconds(guess, timeZone) * 1000;
  return guess;
}

/** Epoch seconds of local midnight of the day the instant falls on (OTP's `serviceDay`). */
export function serviceDayStart(epochMs: number, timeZone: string): number {
  const p = zonedParts(epochMs, timeZone);
  return Math.round(zonedToEpochMs({ year: p.year, month: p.month, day: p.day }, timeZone) / 1000);
}

const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

/** `2025-06-02T08:15:00`: local wall-clock time without an offset (TfL). */
export function localDateTime(epochMs: number, timeZone: string): string {
  const p = zonedParts(epochMs, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** `2025-06-02T08:15:00+03:00`, Java's ISO_OFFSET_DATE_TIME for whole seconds (OTP's OffsetDateTime). */
export function offsetDateTime(epochMs: number, timeZone: string): string {
  const offset = offsetSeconds(epochMs, timeZone);
  const zone =
    offset === 0
      ? 'Z'
      : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 3600))}:${pad(Math.floor((Math.abs(offset) % 3600) / 60))}`;
  return `${localDateTime(epochMs, timeZone)}${zone}`;
}

/** `20250602`: the local calendar date (OTP's `Leg.serviceDate`, TfL's `date` parameter). */
export function compactDate(epochMs: number, timeZone: string): string {
  const p = zonedParts(epochMs, timeZone);
  return `${p.year}${pad(p.month)}${pad(p.day)}`;
}

/** Day of week (0 = Sunday) of the instant in the zone. */
export function localWeekday(epochMs: number, timeZone: string): number {
  return zonedParts(epochMs, timeZone).weekday;
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
