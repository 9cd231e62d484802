// Issue #40's targets for the transit tools and the verdicts on one run's measurements. Each Switchyard
// measurement is judged against floors measured in the same interleaved rounds: its time against the direct
// upstream request, its server CPU against the bare SDK tool on the same transport with as many callers.
import type { Stats } from './stats.js';

export type Transport = 'stdio' | 'http';

/** Who answered a measured call: the bin, the bare SDK tool, another build's bin, or nobody (direct). */
export type Source = 'switchyard' | 'bare' | 'baseline' | 'direct';

/** One variant of one case in one mode, as measured. */
export interface Measurement {
  /** The benchmark case (a tool, or a tool with particular arguments: `plan_trip/names`). */
  tool: string;
  source: Source;
  /** The transport the server was called over; undefined for the direct request. */
  transport: Transport | undefined;
  /** Calls in flight at once. */
  callers: number;
  stats: Stats;
  cpuPerCallMs: number | undefined;
}

/** A Switchyard measurement with the floors it is judged against. */
export interface Cell {
  switchyard: Measurement;
  direct: Measurement;
  bare: Measurement;
}

export interface Target {
  /** What is judged, as a verdict names it. */
  name: string;
  /** Whether the target speaks of calls made with this many callers in flight. */
  judges(callers: number): boolean;
  value(cell: Cell): number;
  limit(cell: Cell): number;
  /** A value or limit as a verdict states it. */
  show(ms: number): string;
  /** What the limit is, where it is a floor's figure rather than a fixed number. */
  limitOf?: string;
}

const ms = (value: number) => value.toFixed(2);
const added = (value: number) => `${value < 0 ? '-' : '+'}${ms(Math.abs(value))}`;
const cpuOf = (measurement: Measurement) => {
  if (measurement.cpuPerCallMs === undefined)
    throw new Error(`${measurement.tool}: no CPU reading for the ${measurement.source} server`);
  return measurement.cpuPerCallMs;
};
const oneAtATime = (callers: number) => callers === 1;

/**
 * Issue #40's "Goal": time added over the direct upstream request p50 <= +0.5 ms and p95 <= +1.5 ms (for a call
 * made alone: under 16 callers the time is mostly waiting in queues, reported but not a target), and server CPU
 * per call at most the bare SDK tool's, one call at a time and under 16 callers.
 */
export const ISSUE_40_TARGETS: readonly Target[] = [
  {
    name: 'added p50',
    judges: oneAtATime,
    value: (c) => c.switchyard.stats.p50 - c.direct.stats.p50,
    limit: () => 0.5,
    show: added,
  },
  {
    name: 'added p95',
    judges: oneAtATime,
    value: (c) => c.switchyard.stats.p95 - c.direct.stats.p95,
    limit: () => 1.5,
    show: added,
  },
  {
    name: 'server CPU/call',
    judges: () => true,
    value: (c) => cpuOf(c.switchyard),
    limit: (c) => cpuOf(c.bare),
    show: ms,
    limitOf: 'bare',
  },
];

/** Each Switchyard measurement with the direct request and the bare SDK tool of the same case and mode. */
export function cellsOf(measurements: readonly Measurement[]): Cell[] {
  const find = (like: Measurement, source: Source, transport: Transport | undefined) => {
    const found = measurements.find(
      (m) =>
        m.tool === like.tool &&
        m.callers === like.callers &&
        m.source === source &&
        m.transport === transport,
    );
    if (found === undefined)
      throw new Error(`${like.tool}: no ${source} measurement with ${like.callers} callers to judge against`);
    return found;
  };
  return measurements
    .filter((m) => m.source === 'switchyard')
    .map((switchyard) => ({
      switchyard,
      direct: find(switchyard, 'direct', undefined),
      bare: find(switchyard, 'bare', switchyard.transport),
    }));
}

export interface Verdict {
  cell: Cell;
  target: string;
  value: number;
  limit: number;
  /** `2.90 ms <= bare 1.65`, `+0.62 ms <= +0.50`. */
  text: string;
  met: boolean;
}

export function verdicts(cells: readonly Cell[], targets: readonly Target[] = ISSUE_40_TARGETS): Verdict[] {
  return cells.flatMap((cell) =>
    targets
      .filter((target) => target.judges(cell.switchyard.callers))
      .map((target) => {
        const value = target.value(cell);
        const limit = target.limit(cell);
        const limitText = [target.limitOf, target.show(limit)].filter((part) => part !== undefined).join(' ');
        return {
          cell,
          target: target.name,
          value,
          limit,
          text: `${target.show(value)} ms <= ${limitText}`,
          met: value <= limit,
        };
      }),
  );
}
