// TfL line status: `GET /Line/{ids}/Status`, `GET /Line/{ids}/Status/{StartDate}/to/{EndDate}` and
// `GET /Line/Mode/{modes}/Status` answer `Tfl.Api.Presentation.Entities.Line[]`: the lines recorded in
// fixtures/tfl/line-status.json (on a Monday) with their undisrupted status and their disruptions, Central's
// real-time delays and Northern's weekend part closure, moved to the clock.
import { readFixture } from '../recorded.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RECORDED_AT_MS = Date.parse('2025-06-02T05:15:30Z');

interface Period {
  readonly fromMs: number;
  readonly toMs: number;
}

interface LineStatus {
  readonly validityPeriods: readonly { readonly fromDate: string; readonly toDate: string }[];
  readonly disruption?: { readonly category: 'RealTime' | 'PlannedWork' };
}

interface Line {
  readonly id: string;
  readonly modeName: string;
  readonly lineStatuses: readonly LineStatus[];
}

const LINES = readFixture<Line[]>('tfl/line-status.json');

export const KNOWN_STATUS_LINES: ReadonlySet<string> = new Set(LINES.map((line) => line.id));
export const KNOWN_STATUS_MODES: ReadonlySet<string> = new Set(LINES.map((line) => line.modeName));

/** Midnight UTC of the next Saturday after `nowMs` (a planned closure's first day). */
function nextSaturday(nowMs: number): number {
  const today = Math.floor(nowMs / DAY) * DAY;
  const weekday = new Date(today).getUTCDay();
  return today + ((6 - weekday + 7) % 7 || 7) * DAY;
}

const utc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * A disruption at the clock, when it is in force within the window: a real-time one holds now (and the window
 * must hold now), planned work moves to the same days of the coming weekend (and must overlap the window).
 */
function inForce(status: LineStatus, window: Period, nowMs: number): LineStatus | undefined {
  const realTime = status.disruption?.category === 'RealTime';
  const shift = realTime ? nowMs - RECORDED_AT_MS : nextSaturday(nowMs) - nextSaturday(RECORDED_AT_MS);
  const periods = status.validityPeriods.map((p) => {
    const fromMs = Date.parse(p.fromDate) + shift;
    const toMs = Date.parse(p.toDate) + shift;
    const isNow = fromMs <= nowMs && nowMs < toMs;
    return { fromMs, toMs, entity: { ...p, fromDate: utc(fromMs), toDate: utc(toMs), isNow } };
  });
  const holds = realTime
    ? window.fromMs <= nowMs && nowMs <= window.toMs
    : periods.some((p) => p.fromMs < window.toMs && window.fromMs < p.toMs);
  return holds ? { ...status, validityPeriods: periods.map((p) => p.entity) } : undefined;
}

export type StatusSelection =
  | {
      readonly lineIds: readonly string[];
      readonly range?: { readonly fromMs: number; readonly toMs: number };
    }
  | { readonly modes: readonly string[] };

/**
 * The Line[] TfL answers for a selection (in the order of the recording): each line's disruptions in force
 * within the window (now, or the days asked for), else its undisrupted status.
 */
export function buildLineStatus(selection: StatusSelection, nowMs: number): Line[] {
  const window = ('range' in selection && selection.range) || { fromMs: nowMs, toMs: nowMs };
  const wanted =
    'modes' in selection
      ? LINES.filter((line) => selection.modes.includes(line.modeName))
      : LINES.filter((line) => selection.lineIds.includes(line.id));
  return wanted.map((line) => {
    const disruptions = line.lineStatuses.flatMap((status) =>
      status.disruption === undefined ? [] : (inForce(status, window, nowMs) ?? []),
    );
    const shown = disruptions.length > 0 ? disruptions : line.lineStatuses.filter((s) => !s.disruption);
    return { ...line, lineStatuses: shown };
  });
}
