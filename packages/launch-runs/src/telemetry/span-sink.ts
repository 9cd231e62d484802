import type Database from 'better-sqlite3';
import type { spans } from '../db/schema.js';
import type { FinishedSpan } from './span.js';

/** Absent and empty texts are stored as NULL. */
const text = (value: string | undefined) => (value === undefined || value === '' ? null : value);

function toRow(span: FinishedSpan): typeof spans.$inferInsert {
  return {
    spanId: span.spanId,
    traceId: span.traceId,
    parentSpanId: span.parentSpanId ?? null,
    name: span.name,
    kind: span.kind,
    tool: text(span.tool),
    worker: text(span.worker),
    runId: text(span.runId),
    correlationId: text(span.correlationId),
    startedAt: new Date(span.startMs).toISOString(),
    durationMs: span.endMs - span.startMs,
    outcome: span.errorCode === undefined ? 'ok' : 'error',
    errorCode: text(span.errorCode),
  };
}

/**
 * Writes each batch of finished spans into the `spans` table in one transaction, through a raw prepared
 * statement (columns as in db/schema.ts): a few hundred spans are written in about a millisecond, where
 * building each insert through the query builder would stall the event loop.
 */
export function sqliteSpanSink({
  sqlite,
  onError,
}: {
  sqlite: Database.Database;
  onError: (message: string, error: unknown) => void;
}) {
  const insert = sqlite.prepare(
    `INSERT OR IGNORE INTO spans (span_id, trace_id, parent_span_id, name, kind, tool, worker, run_id, correlation_id,
       started_at, duration_ms, outcome, error_code)
     VALUES (@spanId, @traceId, @parentSpanId, @name, @kind, @tool, @worker, @runId, @correlationId,
       @startedAt, @durationMs, @outcome, @errorCode)`,
  );
  const insertAll = sqlite.transaction((finished: readonly FinishedSpan[]) => {
    for (const span of finished) insert.run(toRow(span));
  });
  return (finished: readonly FinishedSpan[]) => {
    try {
      insertAll(finished);
    } catch (error) {
      onError('could not store a span', error);
    }
  };
}
