// The rule a TZif file's footer gives for every instant after its last transition (RFC 8536, section 3.3): a
// POSIX TZ string such as `GMT0BST,M3.5.0/1,M10.5.0`, with RFC 8536's extensions (hours up to 167, negative
// times of day).

const HOUR = 3600;
const DAY = 86_400;

/** The day a rule names in a year, and the local time of day (seconds, may be negative or past 24 h). */
type DayRule =
  | { kind: 'month'; month: number; week: number; weekday: number; time: number }
  | { kind: 'julian'; day: number; time: number } // Jn: 1..365, February 29 never counted
  | { kind: 'zero-based'; day: number; time: number }; // n: 0..365, February 29 counted

/** Offsets are seconds east of UTC (POSIX writes them west of it). */
export interface PosixRule {
  standard: number;
  daylight?: { offset: number; start: DayRule; end: DayRule };
}

const NAME = '(?:<[^>]{1,32}>|[A-Za-z]{3,32})';
const CLOCK = '[+-]?\\d{1,3}(?::\\d{1,2}){0,2}';
const DAY_OF_YEAR = '(?:J\\d{1,3}|\\d{1,3}|M\\d{1,2}\\.\\d\\.\\d)';
const POSIX_TZ = new RegExp(
  `^${NAME}(${CLOCK})(?:${NAME}(${CLOCK})?,(${DAY_OF_YEAR})(?:/(${CLOCK}))?,(${DAY_OF_YEAR})(?:/(${CLOCK}))?)?$`,
);

/** `[+-]hh[:mm[:ss]]` as seconds (POSIX writes offsets west of UTC: negate them, `0 -` so that 0 stays +0). */
function clockSeconds(text: string): number {
  const sign = text.startsWith('-') ? -1 : 1;
  const [hours = 0, minutes = 0, seconds = 0] = text.replace(/^[+-]/, '').split(':').map(Number);
  return sign * (hours * HOUR + minutes * 60 + seconds);
}

function dayRule(text: string, time: string | undefined): DayRule | undefined {
  const seconds = time === undefined ? 2 * HOUR : clockSeconds(time);
  if (text.startsWith('M')) {
    const [month = 0, week = 0, weekday = 0] = text.slice(1).split('.').map(Number);
    if (month < 1 || month > 12 || week < 1 || week > 5 || weekday > 6) return undefined;
    return { kind: 'month', month, week, weekday, time: seconds };
  }
  if (text.startsWith('J')) {
    const day = Number(text.slice(1));
    return day >= 1 && day <= 365 ? { kind: 'julian', day, time: seconds } : undefined;
  }
  const day = Number(text);
  return day <= 365 ? { kind: 'zero-based', day, time: seconds } : undefined;
}

/**
 * The rule of a TZ string, or undefined for one this reader does not take (a daylight time without the dates
 * it starts and ends, whose defaults POSIX leaves to the implementation).
 */
export function parsePosixRule(text: string): PosixRule | undefined {
  const match = POSIX_TZ.exec(text);
  if (match === null) return undefined;
  const [, standardClock = '', daylightClock, start, startTime, end, endTime] = match;
  const standard = 0 - clockSeconds(standardClock);
  if (start === undefined || end === undefined) return { standard };
  const startRule = dayRule(start, startTime);
  const endRule = dayRule(end, endTime);
  if (startRule === undefined || endRule === undefined) return undefined;
  const offset = daylightClock === undefined ? standard + HOUR : 0 - clockSeconds(daylightClock);
  return { standard, daylight: { offset, start: startRule, end: endRule } };
}

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Seconds from the epoch to 00:00 of the rule's day in `year`, read as if local time were UTC. */
function dayStart(rule: DayRule, year: number): number {
  const january1 = Date.UTC(year, 0, 1) / 1000;
  if (rule.kind === 'julian')
    return january1 + (rule.day - 1 + (isLeap(year) && rule.day >= 60 ? 1 : 0)) * DAY;
  if (rule.kind === 'zero-based') return january1 + rule.day * DAY;
  const first = Date.UTC(year, rule.month - 1, 1);
  const firstWeekday = new Date(first).getUTCDay();
  const daysInMonth = new Date(Date.UTC(year, rule.month, 0)).getUTCDate();
  let day = 1 + ((rule.weekday - firstWeekday + 7) % 7) + (rule.week - 1) * 7;
  while (day > daysInMonth) day -= 7; // week 5 is the last such weekday of the month
  return first / 1000 + (day - 1) * DAY;
}

/** The offset (seconds east of UTC) the rule gives at `epochSeconds`. */
export function posixOffsetAt(rule: PosixRule, epochSeconds: number): number {
  const { standard, daylight } = rule;
  if (daylight === undefined) return standard;
  const year = new Date((epochSeconds + standard) * 1000).getUTCFullYear();
  // The start is written in standard time, the end in daylight time.
  const start = dayStart(daylight.start, year) + daylight.start.time - standard;
  const end = dayStart(daylight.end, year) + daylight.end.time - daylight.offset;
  const inDaylight =
    start < end ? epochSeconds >= start && epochSeconds < end : epochSeconds < end || epochSeconds >= start; // southern hemisphere: daylight time spans the new year
  return inDaylight ? daylight.offset : standard;
}
