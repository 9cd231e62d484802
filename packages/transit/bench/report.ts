// What the benchmark prints: a row per measured server (the format packages/hardening's bench report parses
// into docs/benchmarks.md), the verdict block on issue #40's targets and the CPU-by-area tables.
import type { CpuSummary } from '@switchyard/server-kit/testing';
import type { Measurement, Source, Verdict } from './targets.js';

const f = (ms: number | undefined) => (ms === undefined ? '      —' : ms.toFixed(2).padStart(7));

/** `, 16 callers` for a measurement under load; nothing for calls made one at a time (the rows of old). */
const callersTag = (callers: number) => (callers === 1 ? '' : `, ${callers} callers`);

export const modeName = (callers: number) => (callers === 1 ? 'one call at a time' : `${callers} callers`);

const OPERATION: Record<Exclude<Source, 'direct'>, (m: Measurement) => string> = {
  switchyard: (m) => `${m.tool} (${m.transport}${callersTag(m.callers)})`,
  bare: (m) => `${m.tool}, bare SDK tool (${m.transport}${callersTag(m.callers)})`,
  baseline: (m) => `${m.tool}, baseline bin (${m.transport}${callersTag(m.callers)})`,
};

/** A server's measurement beside the direct request of the same round: p50/p95, added time, CPU per call. */
export function row(measured: Measurement, direct: Measurement): string {
  if (measured.source === 'direct') throw new Error('the direct request is the floor of a row, not a row');
  const operation = OPERATION[measured.source](measured);
  return (
    `${operation.padEnd(56)} direct p50 ${f(direct.stats.p50)} p95 ${f(direct.stats.p95)} | ` +
    `tool p50 ${f(measured.stats.p50)} p95 ${f(measured.stats.p95)} | ` +
    `added p50 ${f(measured.stats.p50 - direct.stats.p50)} p95 ${f(measured.stats.p95 - direct.stats.p95)} | ` +
    `cpu/call ${f(measured.cpuPerCallMs)}`
  );
}

const verdictWord = (met: boolean) => (met ? 'met' : 'NOT met');

/** One line per tool, transport and mode with its verdicts, then the overall verdict. */
export function verdictBlock(verdicts: readonly Verdict[]): string[] {
  const lines = new Map<string, string[]>();
  for (const verdict of verdicts) {
    const { tool, transport, callers } = verdict.cell.switchyard;
    const key = `${tool.padEnd(20)} ${String(transport).padEnd(6)} ${`${modeName(callers)}:`.padEnd(20)}`;
    lines.set(key, [
      ...(lines.get(key) ?? []),
      `${verdict.target} ${verdict.text} ${verdictWord(verdict.met)}`,
    ]);
  }
  const missed = verdicts.filter((verdict) => !verdict.met).length;
  return [
    ...[...lines].map(([key, parts]) => `  ${key} ${parts.join(' | ')}`),
    missed === 0
      ? `issue #40 targets: met (all ${verdicts.length} verdicts)`
      : `issue #40 targets: NOT met (${missed} of ${verdicts.length} verdicts not met)`,
  ];
}

/** The rows of the servers measured with `callers` in flight, each beside the direct request of its round. */
export function rows(measurements: readonly Measurement[], callers: number): string[] {
  const inMode = measurements.filter((m) => m.callers === callers);
  return inMode
    .filter((m) => m.source !== 'direct')
    .map((m) => {
      const direct = inMode.find((d) => d.source === 'direct' && d.tool === m.tool);
      if (direct === undefined)
        throw new Error(`${m.tool}: no direct request measured with ${callers} callers`);
      return row(m, direct);
    });
}

/** One profiled server's CPU by area, under its column label. */
export interface AreaColumn {
  label: string;
  summary: Pick<CpuSummary, 'areas' | 'busyMs'>;
}

/** The sampled CPU per call of each area, the servers side by side, and the busy total. */
export function areaTable(name: string, columns: readonly AreaColumn[]): string[] {
  const byArea = columns.map((column) => new Map(column.summary.areas));
  const areas = [...new Set(columns.flatMap((column) => column.summary.areas.map(([area]) => area)))];
  const cells = (values: number[]) => values.map((ms) => f(ms).padStart(11)).join('');
  return [
    `${name.padEnd(24)}${columns.map((column) => column.label.padStart(11)).join('')}`,
    ...areas.map((area) => `  ${area.padEnd(22)}${cells(byArea.map((ms) => ms.get(area) ?? 0))}`),
    `  ${'busy, all areas'.padEnd(22)}${cells(columns.map((column) => column.summary.busyMs))}`,
  ];
}
