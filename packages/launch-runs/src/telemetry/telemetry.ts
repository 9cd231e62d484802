import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { FailureStage } from '@switchyard/server-kit';
import type { TraceIds } from '../store/event-chain.js';
import { otlpExport, type OtlpExportOptions } from './otlp-export.js';
import { ATTR, endSpan, startSpan, type LiveSpan, type SpanDestination } from './span.js';
import { SqliteSpanSink } from './span-sink.js';

export interface TelemetryOptions extends OtlpExportOptions {
  sqlite: Database.Database;
  /** Full OTLP/HTTP traces URL (…/v1/traces); spans are exported there as well when set. */
  otlpTracesUrl?: string;
  /** The wire error code of anything thrown inside a span. */
  errorCodeOf: (error: unknown) => string;
}

/** What a span is about: each field becomes the attribute ATTR names for it. */
export interface SpanFields {
  kind: 'tool' | 'worker';
  tool?: string;
  worker?: string;
  runId?: string;
  correlationId?: string;
}

/** The span a piece of work runs in. */
export interface ActiveSpan {
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
  private readonly destinations: SpanDestination[];

  constructor(private readonly options: TelemetryOptions) {
    const sqlite = new SqliteSpanSink(options.sqlite, (error) =>
      options.onError('could not store a span', error),
    );
    const url = options.otlpTracesUrl;
    this.destinations = url === undefined ? [sqlite] : [sqlite, otlpExport(url, options)];
  }

  /** Trace and span id of the span the caller runs in, if any (stamped on events). */
  current(): TraceIds | undefined {
    const span = this.active.getStore();
    return span === undefined ? undefined : { traceId: span.traceId, spanId: span.spanId };
  }

  private finish(span: LiveSpan, errorCode: string | undefined): void {
    span.attributes[ATTR.outcome] = errorCode === undefined ? 'ok' : 'error';
    if (errorCode !== undefined) span.attributes[ATTR.errorCode] = errorCode;
    const finished = endSpan(span);
    for (const destination of this.destinations) destination.add(finished);
  }

  /**
   * Runs `fn` in a new span (child of the current one); records outcome and error code: the code of what
   * it throws, or the one it reports with `span.fail`.
   */
  async inSpan<T>(name: string, fields: SpanFields, fn: (span: ActiveSpan) => Promise<T>): Promise<T> {
    const span = startSpan(name, this.active.getStore());
    for (const [field, value] of Object.entries(fields)) {
      if (value !== undefined) span.attributes[ATTR[field as keyof SpanFields]] = value;
    }
    let failure: string | undefined;
    const fail = (errorCode: string, stage: FailureStage) => {
      failure = errorCode;
      span.attributes[ATTR.failureStage] = stage;
    };
    try {
      const result = await this.active.run(span, () => fn({ fail }));
      this.finish(span, failure);
      return result;
    } catch (error) {
      this.finish(span, this.options.errorCodeOf(error));
      throw error;
    }
  }

  /** Sets the run id of the span the caller runs in (a tool call that learns it late: launch_start_run). */
  setCurrentRunId(runId: string): void {
    const span = this.active.getStore();
    if (span !== undefined) span.attributes[ATTR.runId] = runId;
  }

  /** Writes buffered spans to SQLite and hands queued ones to the OTLP exporter now. */
  async flush(): Promise<void> {
    for (const destination of this.destinations) await destination.flush();
  }

  async shutdown(): Promise<void> {
    for (const destination of this.destinations) {
      try {
        await destination.shutdown();
      } catch (error) {
        this.options.onError('could not flush spans on shutdown', error);
      }
    }
  }
}
