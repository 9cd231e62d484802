// TfL line status: `GET /Line/{ids}/Status`, `GET /Line/{ids}/Status/{StartDate}/to/{EndDate}` and
// `GET /Line/Mode/{modes}/Status`, each answering `Tfl.Api.Presentation.Entities.Line[]` as TfL does (the
// `$type`s, `created` placeholders and empty lists included), with validity periods relative to now.
import { tflType } from './entities.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A status a line has now, or over planned days (a weekend closure starting on the next Saturday). */
interface StatusSpec {
  readonly severity: number;
  readonly description: string;
  readonly reason?: string;
  readonly category?: 'RealTime' | 'PlannedWork' | 'Information';
  readonly closureText?: string;
  /** Whether it holds now (a real-time disruption) or only over `plannedDays` from the next Saturday. */
  readonly when: 'now' | { readonly plannedDays: number };
}

interface LineSpec {
  readonly id: string;
  readonly name: string;
  readonly modeName: string;
  readonly statuses: readonly StatusSpec[];
}

const GOOD: StatusSpec = { severity: 10, description: 'Good Service', when: 'now' };
const NO_ISSUES: StatusSpec = { severity: 18, description: 'No Issues', when: 'now' };

/** The lines the mock knows: good service, real-time delays, a planned weekend closure, and buses. */
export const STATUS_LINES: readonly LineSpec[] = [
  { id: 'victoria', name: 'Victoria', modeName: 'tube', statuses: [GOOD] },
  {
    id: 'central',
    name: 'Central',
    modeName: 'tube',
    statuses: [
      {
        severity: 9,
        description: 'Minor Delays',
        reason:
          'Central Line: Minor delays between White City and Ealing Broadway due to an earlier signal failure ' +
          'at North Acton. GOOD SERVICE on the rest of the line.',
        category: 'RealTime',
        closureText: 'minorDelays',
        when: 'now',
      },
    ],
  },
  {
    id: 'northern',
    name: 'Northern',
    modeName: 'tube',
    statuses: [
      GOOD,
      {
        severity: 5,
        description: 'Part Closure',
        reason:
          'Northern line: Saturday and Sunday, no service between Camden Town and Edgware. Replacement buses ' +
          'operate.',
        category: 'PlannedWork',
        closureText: 'partClosure',
        when: { plannedDays: 2 },
      },
    ],
  },
  { id: 'bakerloo', name: 'Bakerloo', modeName: 'tube', statuses: [GOOD] },
  { id: 'dlr', name: 'DLR', modeName: 'dlr', statuses: [GOOD] },
  { id: 'elizabeth', name: 'Elizabeth line', modeName: 'elizabeth-line', statuses: [GOOD] },
  { id: 'liberty', name: 'Liberty', modeName: 'overground', statuses: [GOOD] },
  { id: '25', name: '25', modeName: 'bus', statuses: [NO_ISSUES] },
  { id: 'n29', name: 'N29', modeName: 'bus', statuses: [NO_ISSUES] },
];

export const KNOWN_STATUS_LINES: ReadonlySet<string> = new Set(STATUS_LINES.map((line) => line.id));
export const KNOWN_STATUS_MODES: ReadonlySet<string> = new Set(STATUS_LINES.map((line) => line.modeName));

/** Midnight UTC of the next Saturday after `nowMs` (a planned closure's first day). */
function nextSaturday(nowMs: number): number {
  const today = Math.floor(nowMs / DAY) * DAY;
  const weekday = new Date(today).getUTCDay();
  return today + ((6 - weekday + 7) % 7 || 7) * DAY;
}

interface Period {
  readonly fromMs: number;
  readonly toMs: number;
}

function periodOf(status: StatusSpec, nowMs: number): Period {
  if (status.when === 'now') return { fromMs: nowMs - 2 * HOUR, toMs: nowMs + 6 * HOUR };
  const start = nextSaturday(nowMs);
  return { fromMs: start + 4 * HOUR, toMs: start + status.when.plannedDays * DAY };
}

function lineStatusEntity(line: LineSpec, status: StatusSpec, period: Period, nowMs: number) {
  const validity = status === GOOD || status === NO_ISSUES ? [] : [period];
  return {
    $type: tflType('LineStatus'),
    id: 0,
    ...(status === GOOD || status === NO_ISSUES ? {} : { lineId: line.id }),
    statusSeverity: status.severity,
    statusSeverityDescription: status.description,
    ...(status.reason === undefined ? {} : { reason: status.reason }),
    created: '0001-01-01T00:00:00',
    validityPeriods: validity.map((p) => ({
      $type: tflType('ValidityPeriod'),
      fromDate: new Date(p.fromMs).toISOString().replace('.000Z', 'Z'),
      toDate: new Date(p.toMs).toISOString().replace('.000Z', 'Z'),
      isNow: p.fromMs <= nowMs && nowMs < p.toMs,
    })),
    ...(status.category === undefined
      ? {}
      : {
          disruption: {
            $type: tflType('Disruption'),
            category: status.category,
            categoryDescription: status.category,
            description: status.reason,
            affectedRoutes: [],
            affectedStops: [],
            closureText: status.closureText,
          },
        }),
  };
}

/**
 * Each line's statuses that overlap the window (now, or the days asked for); a line with none that does has
 * good service there, as TfL answers.
 */
function lineEntity(line: LineSpec, window: Period, nowMs: number) {
  const overlapping = line.statuses
    .map((status) => ({ status, period: periodOf(status, nowMs) }))
    .filter(({ status, period }) =>
      status.when === 'now'
        ? window.fromMs <= nowMs && nowMs <= window.toMs
        : period.fromMs < window.toMs && window.fromMs < period.toMs,
    );
  const disrupted = overlapping.filter(({ status }) => status !== GOOD && status !== NO_ISSUES);
  const shown =
    disrupted.length > 0
      ? disrupted
      : [{ status: line.modeName === 'bus' ? NO_ISSUES : GOOD, period: window }];
  return {
    $type: tflType('Line'),
    id: line.id,
    name: line.name,
    modeName: line.modeName,
    disruptions: [],
    created: '2026-11-20T13:47:15.627Z',
    modified: '2026-11-20T13:47:15.627Z',
    lineStatuses: shown.map(({ status, period }) => lineStatusEntity(line, status, period, nowMs)),
    routeSections: [],
    serviceTypes: [
      {
        $type: tflType('LineServiceTypeInfo'),
        name: 'Regular',
        uri: `/Line/Route?ids=${line.name}&serviceTypes=Regular`,
      },
    ],
    crowding: { $type: tflType('Crowding') },
  };
}

export type StatusSelection =
  | {
      readonly lineIds: readonly string[];
      readonly range?: { readonly fromMs: number; readonly toMs: number };
    }
  | { readonly modes: readonly string[] };

/** The Line[] TfL answers for a selection (in the order the mock lists its lines). */
export function buildLineStatus(selection: StatusSelection, nowMs: number): Record<string, unknown>[] {
  const window: Period =
    'lineIds' in selection && selection.range !== undefined
      ? { fromMs: selection.range.fromMs, toMs: selection.range.toMs }
      : { fromMs: nowMs, toMs: nowMs };
  const wanted =
    'modes' in selection
      ? STATUS_LINES.filter((line) => selection.modes.includes(line.modeName))
      : STATUS_LINES.filter((line) => selection.lineIds.includes(line.id));
  return wanted.map((line) => lineEntity(line, window, nowMs));
}
