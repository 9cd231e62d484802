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

/** Where a failed tool call failed: its arguments were refused, or its handler failed. */
export type FailureStage = 'input' | 'handler';

/** The span a piece of work runs in. */
export interface ActiveSpan {
  readonly ids: TraceIds;
  /**
   * Records the work as failed when it ends without throwing: a tool call answered with an error payload.
   * `stage` says whether its arguments were refused (no work was done) or its handler failed.
   */
  fail(errorCode: string, stage: FailureStage): void;
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

  /**
   * Runs `fn` in a new span (child of the current one); records outcome and error code: the code of what
   * it throws, or the one it reports with `span.fail`.
   */
  async inSpan<T>(name: string, fields: SpanFields, fn: (span: ActiveSpan) => Promise<T>): Promise<T> {
    const span = this.start(name, fields);
    let failure: string | undefined;
    const handle: ActiveSpan = {
      ids: { traceId: span.traceId, spanId: span.spanId },
      fail: (errorCode, stage) => {
        failure = errorCode;
        span.setAttribute(ATTR.failureStage, stage);
      },
    };
    try {
      const result = await this.active.run(span, () => fn(handle));
      this.finish(span, failure);
      return result;
    } catch (error) {
      this.finish(span, this.options.errorCodeOf(error));
      throw error;
    }
  }

  /** Sets the run id of the span the caller runs in (a tool call that learns it late: launch_start_run). */
  setCurrentRunId(runId: string): void {
    this.active.getStore()?.setAttribute(ATTR.runId, runId);
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
