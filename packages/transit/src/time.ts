// Time-zone conversions with the platform's own tz database (Intl): TfL answers in London wall-clock time
// without an offset; callers get ISO 8601 instants with the offset that was in force.

export const LONDON = 'Europe/London';

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

function wallClockAt(epochMs: number, timeZone: string): WallClock {
  const parts = formatter(timeZone).formatToParts(new Date(epochMs));
  const get = (type: Intl.DateTimeFormatPartTypes): number =>
    Number(parts.find((part) => part.type === type)?.value ?? NaN);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** The zone's offset from UTC at an instant, in minutes (60 for BST). */
export function offsetMinutesAt(epochMs: number, timeZone: string): number {
  const wall = wallClockAt(epochMs, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/**
 * The instant of a wall-clock time in `timeZone` ("2015-10-21T16:30:00" in London is 15:30Z). Like
 * Temporal's "compatible" disambiguation: a time repeated when clocks go back is the earlier instant, a
 * time skipped when clocks go forward is read with the offset before the change. Undefined when unparseable.
 */
export function zonedLocalToEpochMs(local: string, timeZone: string): number | undefined {
  const match = LOCAL_DATE_TIME.exec(local);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s] = match;
  const asUtc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  if (Number.isNaN(asUtc)) return undefined;
  // The two offsets in force around that wall-clock time (equal away from a change).
  const before = offsetMinutesAt(asUtc - 86_400_000, timeZone);
  const after = offsetMinutesAt(asUtc + 86_400_000, timeZone);
  const candidates = [...new Set([before, after])]
    .map((offset) => asUtc - offset * 60_000)
    .filter((epoch) => offsetMinutesAt(epoch, timeZone) * 60_000 === asUtc - epoch)
    .sort((a, b) => a - b);
  return candidates[0] ?? asUtc - before * 60_000;
}

function pad(value: number, width = 2): string {
  return String(Math.abs(value)).padStart(width, '0');
}

/** ISO 8601 with the zone's offset, seconds precision: `2015-10-21T16:30:00+01:00`. */
export function formatZoned(epochMs: number, timeZone: string): string {
  const offset = offsetMinutesAt(epochMs, timeZone);
  const wall = wallClockAt(epochMs, timeZone);
  const sign = offset < 0 ? '-' : '+';
  return (
    `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:` +
    `${pad(wall.second)}${sign}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  );
}

/** ISO 8601 in UTC, seconds precision: `2025-09-15T10:05:00Z`. */
export function formatUtc(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** London wall-clock time from TfL as an ISO 8601 instant with the London offset. */
export function londonLocalToIso(local: string): string | undefined {
  const epoch = zonedLocalToEpochMs(local, LONDON);
  return epoch === undefined ? undefined : formatZoned(epoch, LONDON);
}
