import type Database from 'better-sqlite3';
import type { spans } from '../db/schema.js';
import { ATTR, type FinishedSpan, type SpanDestination } from './span.js';

type SpanInsert = typeof spans.$inferInsert;

function text(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

function toRow({ attributes, ...span }: FinishedSpan): SpanInsert {
  return {
    spanId: span.spanId,
    traceId: span.traceId,
    parentSpanId: span.parentSpanId ?? null,
    name: span.name,
    kind: text(attributes[ATTR.kind]) ?? 'internal',
    tool: text(attributes[ATTR.tool]),
    worker: text(attributes[ATTR.worker]),
    runId: text(attributes[ATTR.runId]),
    correlationId: text(attributes[ATTR.correlationId]),
    startedAt: new Date(span.startMs).toISOString(),
    durationMs: span.endMs - span.startMs,
    outcome: text(attributes[ATTR.outcome]) ?? 'ok',
    errorCode: text(attributes[ATTR.errorCode]),
  };
}

/** How often buffered spans are written (and how many trigger an early write). */
const FLUSH_INTERVAL_MS = 250;
const FLUSH_AT = 256;

/**
 * Writes every finished span into the `spans` table. Spans are buffered and written in one transaction
 * every 250 ms (or every 256 spans, and on flush/shutdown), so a read-only tool call such as
 * launch_get_status does not pay for a write of its own. A crash loses at most the last quarter second of
 * spans; events, runs and artifacts are written synchronously and are not affected.
 */
export class SqliteSpanSink implements SpanDestination {
  private closed = false;
  private buffer: SpanInsert[] = [];
  private timer: NodeJS.Timeout | undefined;
  /**
   * A raw prepared statement (columns as in db/schema.ts): a batch of a few hundred spans is written in
   * about a millisecond, where building each insert through the query builder would stall the event loop.
   */
  private readonly insertAll: (rows: SpanInsert[]) => void;

  constructor(
    sqlite: Database.Database,
    private readonly onError: (error: unknown) => void,
  ) {
    const insert = sqlite.prepare(
      `INSERT OR IGNORE INTO spans (span_id, trace_id, parent_span_id, name, kind, tool, worker, run_id, correlation_id,
         started_at, duration_ms, outcome, error_code)
       VALUES (@spanId, @traceId, @parentSpanId, @name, @kind, @tool, @worker, @runId, @correlationId,
         @startedAt, @durationMs, @outcome, @errorCode)`,
    );
    this.insertAll = sqlite.transaction((rows: SpanInsert[]) => {
      for (const row of rows) insert.run(row);
    });
  }

  add(span: FinishedSpan): void {
    if (this.closed) return;
    this.buffer.push(toRow(span));
    if (this.buffer.length >= FLUSH_AT) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.buffer.splice(0);
    if (rows.length === 0) return;
    try {
      this.insertAll(rows);
    } catch (error) {
      this.onError(error);
    }
  }

  /** Writes what is buffered; spans that end later are dropped (the database is about to close). */
  shutdown(): void {
    this.flush();
    this.closed = true;
  }
}
