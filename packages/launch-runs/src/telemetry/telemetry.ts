import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { TraceIds } from '../store/event-chain.js';
import { OtlpSpanExport, type OtlpExportOptions } from './otlp-export.js';
import { LiveSpan, type FinishedSpan } from './span.js';
import { ATTR, SqliteSpanSink } from './span-sink.js';

export interface TelemetryOptions {
  sqlite: Database.Database;
  serviceName: string;
  serviceVersion: string;
  /** Full OTLP/HTTP traces URL (…/v1/traces); spans are exported there as well when set. */
  otlpTracesUrl?: string;
  /** The wire error code of anything thrown inside a span. */
  errorCodeOf: (error: unknown) => string;
  onError: (message: string, error: unknown) => void;
  /** How the OpenTelemetry SDK is loaded for OTLP export (tests); the real packages by default. */
  loadOpenTelemetry?: OtlpExportOptions['load'];
}

export interface SpanFields {
  kind: 'tool' | 'worker';
  tool?: string;
  worker?: string;
  runId?: string;
  correlationId?: string;
}

/** The span a piece of work runs in: it may learn its run id late (launch_start_run). */
export interface ActiveSpan {
  readonly ids: TraceIds;
  setRunId(runId: string): void;
}

/**
 * Spans for every tool call and worker execution: each is stored in SQLite and, when an OTLP endpoint is
 * configured, exported over OTLP/HTTP through OpenTelemetry's SDK too (loaded only then; never registered
 * globally, so a host application's tracing is untouched). The current span travels in an
 * AsyncLocalStorage, so worker spans become children of the tool call that triggered them, also when the
 * work continues in the background.
 */
export class LaunchTelemetry {
  private readonly active = new AsyncLocalStorage<LiveSpan>();
  private readonly sink: SqliteSpanSink;
  private readonly otlp: OtlpSpanExport | undefined;
  readonly exportsOtlp: boolean;

  constructor(private readonly options: TelemetryOptions) {
    this.sink = new SqliteSpanSink(options.sqlite, (error) =>
      options.onError('could not store a span', error),
    );
    this.otlp =
      options.otlpTracesUrl === undefined
        ? undefined
        : new OtlpSpanExport({
            url: options.otlpTracesUrl,
            serviceName: options.serviceName,
            serviceVersion: options.serviceVersion,
            onError: options.onError,
            ...(options.loadOpenTelemetry === undefined ? {} : { load: options.loadOpenTelemetry }),
          });
    this.exportsOtlp = this.otlp !== undefined;
  }

  /** Trace and span id of the span the caller runs in, if any (stamped on events). */
  current(): TraceIds | undefined {
    const span = this.active.getStore();
    return span === undefined ? undefined : { traceId: span.traceId, spanId: span.spanId };
  }

  private start(name: string, fields: SpanFields): LiveSpan {
    const span = new LiveSpan(name, this.active.getStore());
    span.setAttribute(ATTR.kind, fields.kind);
    if (fields.tool !== undefined) span.setAttribute(ATTR.tool, fields.tool);
    if (fields.worker !== undefined) span.setAttribute(ATTR.worker, fields.worker);
    if (fields.runId !== undefined) span.setAttribute(ATTR.runId, fields.runId);
    if (fields.correlationId !== undefined) span.setAttribute(ATTR.correlationId, fields.correlationId);
    return span;
  }

  private finish(span: LiveSpan, errorCode: string | undefined): void {
    span.setAttribute(ATTR.outcome, errorCode === undefined ? 'ok' : 'error');
    if (errorCode !== undefined) span.setAttribute(ATTR.errorCode, errorCode);
    const finished: FinishedSpan = span.end(errorCode);
    this.sink.add(finished);
    this.otlp?.export(finished);
  }

  /** Runs `fn` in a new span (child of the current one); records outcome and error code. */
  async inSpan<T>(name: string, fields: SpanFields, fn: (span: ActiveSpan) => Promise<T>): Promise<T> {
    const span = this.start(name, fields);
    const handle: ActiveSpan = {
      ids: { traceId: span.traceId, spanId: span.spanId },
      setRunId: (runId) => span.setAttribute(ATTR.runId, runId),
    };
    try {
      const result = await this.active.run(span, () => fn(handle));
      this.finish(span, undefined);
      return result;
    } catch (error) {
      this.finish(span, this.options.errorCodeOf(error));
      throw error;
    }
  }

  /** A call that failed before any work started (input validation): a span with its error code. */
  recordRejected(name: string, fields: SpanFields, errorCode: string): void {
    this.finish(this.start(name, fields), errorCode);
  }

  /** Writes buffered spans to SQLite and hands queued ones to the OTLP exporter now. */
  async flush(): Promise<void> {
    this.sink.flush();
    await this.otlp?.flush();
  }

  async shutdown(): Promise<void> {
    this.sink.shutdown();
    try {
      await this.otlp?.shutdown();
    } catch (error) {
      this.options.onError('could not flush spans on shutdown', error);
    }
  }
}
