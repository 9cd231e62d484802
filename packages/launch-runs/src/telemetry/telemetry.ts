import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { FailureStage } from '@switchyard/server-kit';
import { lazy } from '@switchyard/server-kit/runtime';
import type { TraceIds } from '../store/event-chain.js';
import type * as OtlpExportModule from './otlp-export.js';
import { nowMs, startSpan, type FinishedSpan, type Span, type SpanFields } from './span.js';
import { sqliteSpanSink } from './span-sink.js';

export interface TelemetryOptions {
  sqlite: Database.Database;
  serviceName: string;
  serviceVersion: string;
  /** Full OTLP/HTTP traces URL (…/v1/traces); spans are exported there as well when set. */
  otlpTracesUrl?: string;
  /** The wire error code of anything thrown inside a span. */
  errorCodeOf: (error: unknown) => string;
  onError: (message: string, error: unknown) => void;
  /** How otlp-export.ts, with OpenTelemetry's SDK, is loaded (tests); the real module by default. */
  loadOpenTelemetry?: () => Promise<typeof OtlpExportModule>;
}

/** The span a piece of work runs in. */
export interface ActiveSpan {
  /**
   * Records the work as failed when it ends without throwing: a tool call answered with an error payload.
   * `stage` says whether its arguments were refused (no work was done) or its handler failed.
   */
  fail(errorCode: string, stage: FailureStage): void;
}

/** OpenTelemetry's SDK, which otlp-export.ts imports, takes a few hundred milliseconds to load. */
const loadOtlpExport = lazy(() => import('./otlp-export.js'));

const EXPORT_INTERVAL_MS = 250;
const EXPORT_AT = 256;

/**
 * Spans for every tool call and worker execution: each is stored in SQLite and, when an OTLP endpoint is
 * configured, exported over OTLP/HTTP too. The current span travels in an AsyncLocalStorage, so worker
 * spans become children of the tool call that triggered them, also when the work continues in the
 * background. Finished spans are exported every 250 ms (or every 256 spans, and on flush/shutdown), so a
 * read-only tool call such as launch_get_status does not pay for an SQLite write of its own. A crash loses
 * at most the last quarter second of spans; events, runs and artifacts are written synchronously and are
 * not affected.
 */
export class LaunchTelemetry {
  private readonly active = new AsyncLocalStorage<Span>();
  private readonly writeToSqlite: ReturnType<typeof sqliteSpanSink>;
  /** The OTLP export, started with the first spans to export (see startOtlpExport). */
  private otlp: Promise<ReturnType<typeof OtlpExportModule.otlpExport> | undefined> | undefined;
  private readonly finished: FinishedSpan[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Spans that end after shutdown are dropped (the database is about to close). */
  private closed = false;

  constructor(private readonly options: TelemetryOptions) {
    this.writeToSqlite = sqliteSpanSink(options);
  }

  /** The span the caller runs in, if any: its trace and span id are stamped on events. */
  current(): TraceIds | undefined {
    return this.active.getStore();
  }

  /**
   * Runs `fn` in a new span (child of the current one); records outcome and error code: the code of what
   * it throws, or the one it reports with `span.fail`.
   */
  async inSpan<T>(name: string, fields: SpanFields, fn: (span: ActiveSpan) => Promise<T>): Promise<T> {
    const span = startSpan(name, fields, this.active.getStore());
    const fail = (errorCode: string, stage: FailureStage) => {
      span.errorCode = errorCode;
      span.failureStage = stage;
    };
    try {
      return await this.active.run(span, () => fn({ fail }));
    } catch (error) {
      span.errorCode = this.options.errorCodeOf(error);
      throw error;
    } finally {
      this.finish(span);
    }
  }

  private finish(span: Span): void {
    if (this.closed) return;
    // A copy: later changes to the live span (its run id) reach no exporter.
    this.finished.push({ ...span, endMs: Math.max(span.startMs, nowMs()) });
    if (this.finished.length >= EXPORT_AT) this.exportFinished();
    else this.timer ??= setTimeout(() => this.exportFinished(), EXPORT_INTERVAL_MS).unref();
  }

  private exportFinished(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const finished = this.finished.splice(0);
    if (finished.length === 0) return;
    this.writeToSqlite(finished);
    const url = this.options.otlpTracesUrl;
    if (url === undefined) return;
    (this.otlp ??= this.startOtlpExport(url))
      .then((otlp) => otlp?.export(finished))
      .catch((error: unknown) => this.options.onError('could not export a span', error));
  }

  /**
   * Loads otlp-export.ts with the first spans to export, not at startup; if it cannot be loaded, that is
   * reported once (spans are still stored in SQLite).
   */
  private async startOtlpExport(url: string) {
    const loaded = await (this.options.loadOpenTelemetry ?? loadOtlpExport)().catch((error: unknown) => {
      this.options.onError('OpenTelemetry could not be loaded: spans are stored but not exported', error);
      return undefined;
    });
    return loaded?.otlpExport(url, this.options);
  }

  /** Sets the run id of the span the caller runs in (a tool call that learns it late: launch_start_run). */
  setCurrentRunId(runId: string): void {
    const span = this.active.getStore();
    if (span !== undefined) span.runId = runId;
  }

  /** Writes finished spans to SQLite and has the OTLP exporter send what it has queued now. */
  async flush(): Promise<void> {
    this.exportFinished();
    await (await this.otlp)?.flush();
  }

  async shutdown(): Promise<void> {
    this.exportFinished();
    this.closed = true;
    try {
      await (await this.otlp)?.shutdown();
    } catch (error) {
      this.options.onError('could not flush spans on shutdown', error);
    }
  }
}
