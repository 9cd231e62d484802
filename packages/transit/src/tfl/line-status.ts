// get_line_status: TfL's line statuses as the contract's envelope, disrupted lines first.
import type {
  GetLineStatusOutput,
  GetLineStatusRequest,
  LineStatus,
  LineStatusEntry,
} from '@switchyard/contracts/transit';
import { nonEmpty } from '../wire.js';
import type { LineStatusQuery, LineStatusSource } from './line-status-client.js';
import type { LineStatusWire, LineWire } from './line-status-wire.js';
import { tflAnswer } from './tfl-answer.js';

/** TfL severities that are not a disruption: Good Service, No Issues (buses), Information. */
const UNDISRUPTED_SEVERITIES: ReadonlySet<number> = new Set([10, 18, 19]);

/** The upstream question: lines sorted and once each, or modes sorted (one cache entry per question). */
export function lineStatusQuery(request: GetLineStatusRequest): LineStatusQuery {
  if (request.modes !== undefined) return { modes: [...new Set(request.modes)].sort() };
  const lineIds = [...new Set(request.lines ?? [])].sort();
  return request.from === undefined || request.to === undefined
    ? { lineIds }
    : { lineIds, days: { from: request.from, to: request.to } };
}

function instant(value: string | undefined): string | undefined {
  const ms = Date.parse(value ?? '');
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

function toEntry(status: LineStatusWire): LineStatusEntry {
  return {
    severity: status.statusSeverity,
    description: nonEmpty(status.statusSeverityDescription) ?? `severity ${status.statusSeverity}`,
    reason: nonEmpty(status.reason),
    category: nonEmpty(status.disruption?.category),
    closureText: nonEmpty(status.disruption?.closureText),
    validity: status.validityPeriods.flatMap((period) => {
      const from = instant(period.fromDate);
      const to = instant(period.toDate);
      return from === undefined || to === undefined ? [] : [{ from, to, isNow: period.isNow ?? false }];
    }),
  };
}

function toLine(line: LineWire): LineStatus {
  const statuses = line.lineStatuses.map(toEntry);
  return {
    id: line.id,
    name: nonEmpty(line.name) ?? line.id,
    mode: nonEmpty(line.modeName) ?? 'unknown',
    disrupted: statuses.some((status) => !UNDISRUPTED_SEVERITIES.has(status.severity)),
    statuses,
  };
}

export async function getLineStatus(
  source: LineStatusSource,
  request: GetLineStatusRequest,
  signal?: AbortSignal,
): Promise<GetLineStatusOutput> {
  const cached = await tflAnswer(() => source.status(lineStatusQuery(request), signal));
  const lines = cached.value.lines
    .map(toLine)
    .sort((a, b) => Number(b.disrupted) - Number(a.disrupted) || a.name.localeCompare(b.name));
  const disrupted = lines.filter((line) => line.disrupted).length;
  const range = request.from === undefined ? '' : ` from ${request.from} to ${request.to}`;
  return {
    success: true,
    code: 'OK',
    message:
      lines.length === 0
        ? 'TfL gave no status for this selection.'
        : `${lines.length} ${lines.length === 1 ? 'line' : 'lines'}${range}: ` +
          (disrupted === 0 ? 'good service on all.' : `${disrupted} disrupted, listed first.`),
    lines,
    dataFreshness: new Date(cached.value.fetchedAtMs).toISOString(),
    validUntil: new Date(cached.expiresAtMs).toISOString(),
  };
}
