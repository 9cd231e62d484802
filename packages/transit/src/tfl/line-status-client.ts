// Line status from TfL, through the answer cache (cached-answers.ts).
import { SwitchyardError } from '@switchyard/contracts/errors';
import type { LineStatusMode } from '@switchyard/contracts/transit';
import type { CachedTflGet, Fetched } from './cached-answers.js';
import { parseTfl } from './client.js';
import { LineListSchema, type LineWire } from './line-status-wire.js';
import { tflListSegment } from './path-segment.js';
import type { Cached } from './response-cache.js';

/** Lines (lower-case ids, sorted) or modes, and for lines optionally a range of London days. */
export type LineStatusQuery =
  { lineIds: readonly string[]; days?: { from: string; to: string } } | { modes: readonly LineStatusMode[] };

export interface LineStatusAnswer {
  lines: LineWire[];
}

export interface LineStatusSource {
  status(query: LineStatusQuery, signal?: AbortSignal): Promise<Cached<Fetched<LineStatusAnswer>>>;
}

/** The TfL path for a query: by line ids (over whole days for a range), or by mode. */
export function lineStatusPath(query: LineStatusQuery): string {
  if ('modes' in query) return `Line/Mode/${tflListSegment(query.modes, 'modes')}/Status`;
  const lines = tflListSegment(query.lineIds, 'lines');
  if (query.days === undefined) return `Line/${lines}/Status`;
  const { from, to } = query.days;
  return `Line/${lines}/Status/${from}T00:00:00/to/${to}T23:59:59`;
}

function unknownLine(query: LineStatusQuery): SwitchyardError {
  const asked =
    'modes' in query ? `the modes ${query.modes.join(', ')}` : `the lines ${query.lineIds.join(', ')}`;
  return new SwitchyardError('not-found', `TfL does not know ${asked}`, {
    hint: 'Check the line ids (e.g. victoria, hammersmith-city, elizabeth, 25).',
    retryable: false,
  });
}

/** Kept for TfL's max-age: line status changes far less often than arrivals. */
export function createLineStatusSource(get: CachedTflGet): LineStatusSource {
  return {
    status: (query, signal) =>
      get(
        { path: lineStatusPath(query), searchParams: {} },
        {
          notFound: () => unknownLine(query),
          read: (body) => ({ value: { lines: parseTfl(LineListSchema, body, 'line status answer') } }),
        },
        signal,
      ),
  };
}
