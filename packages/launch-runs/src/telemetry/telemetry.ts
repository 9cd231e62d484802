import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import type Database from 'better-sqlite3';
import type { TraceIds } from '../store/event-log.js';
import { ATTR, SqliteSpanProcessor } from './span-sink.js';

export interface TelemetryOptions {
  sqlite: Database.Database;
  serviceName: string;
  serviceVersion: string;
  /** Full OTLP/HTTP traces URL (…/v1/traces); spans are exported there as well when set. */
  otlpTracesUrl?: string;
  /** The wire error code of anything thrown inside a span. */
  errorCodeOf: (error: unknown) => string;
  onError: (message: string, error: unknown) => void;
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
 * Spans through OpenTelemetry's SDK (own provider, never registered globally, so a host application's
 * tracing is untouched): every span is stored in SQLite and, when an OTLP endpoint is configured,
 * exported over OTLP/HTTP too. The current span travels in an AsyncLocalStorage, so worker spans become
 * children of the tool call that triggered them, also when the work continues in the background.
 */
export class LaunchTelemetry {
  private readonly provider: NodeTracerProvider;
  private readonly tracer: Tracer;
  private readonly active = new AsyncLocalStorage<Span>();
  readonly exportsOtlp: boolean;

  constructor(private readonly options: TelemetryOptions) {
    const processors: SpanProcessor[] = [
      new SqliteSpanProcessor(options.sqlite, (error) => options.onError('could not store a span', error)),
    ];
    if (options.otlpTracesUrl !== undefined) {
      processors.push(
        new BatchSpanProcessor(new OTLPTraceExporter({ url: options.otlpTracesUrl }), {
          scheduledDelayMillis: 1000,
        }),
      );
    }
    this.exportsOtlp = options.otlpTracesUrl !== undefined;
    this.provider = new NodeTracerProvider({
      resource: resourceFromAttributes({
        'service.name': options.serviceName,
        'service.version': options.serviceVersion,
      }),
      spanProcessors: processors,
    });
    this.tracer = this.provider.getTracer('@switchyard/launch-runs', options.serviceVersion);
  }

  /** Trace and span id of the span the caller runs in, if any (stamped on events). */
  current(): TraceIds | undefined {
    const span = this.active.getStore();
    if (span === undefined) return undefined;
    const { traceId, spanId } = span.spanContext();
    return { traceId, spanId };
  }

  private start(name: string, fields: SpanFields): Span {
    const parent = this.active.getStore();
    const context = parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, parent);
    const span = this.tracer.startSpan(name, {}, context);
    span.setAttribute(ATTR.kind, fields.kind);
    if (fields.tool !== undefined) span.setAttribute(ATTR.tool, fields.tool);
    if (fields.worker !== undefined) span.setAttribute(ATTR.worker, fields.worker);
    if (fields.runId !== undefined) span.setAttribute(ATTR.runId, fields.runId);
    if (fields.correlationId !== undefined) span.setAttribute(ATTR.correlationId, fields.correlationId);
    return span;
  }

  private static finish(span: Span, errorCode: string | undefined): void {
    span.setAttribute(ATTR.outcome, errorCode === undefined ? 'ok' : 'error');
    if (errorCode !== undefined) {
      span.setAttribute(ATTR.errorCode, errorCode);
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorCode });
    } else {
      span.setStatus({ code: SpanStatusCode.OK });
    }
    span.end();
  }

  /** Runs `fn` in a new span (child of the current one); records outcome and error code. */
  async inSpan<T>(name: string, fields: SpanFields, fn: (span: ActiveSpan) => Promise<T>): Promise<T> {
    const span = this.start(name, fields);
    const handle: ActiveSpan = {
      ids: { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId },
      setRunId: (runId) => span.setAttribute(ATTR.runId, runId),
    };
    try {
      const result = await this.active.run(span, () => fn(handle));
      LaunchTelemetry.finish(span, undefined);
      return result;
    } catch (error) {
      LaunchTelemetry.finish(span, this.options.errorCodeOf(error));
      throw error;
    }
  }

  /** A call that failed before any work started (input validation): a span with its error code. */
  recordRejected(name: string, fields: SpanFields, errorCode: string): void {
    LaunchTelemetry.finish(this.start(name, fields), errorCode);
  }

  async flush(): Promise<void> {
    await this.provider.forceFlush();
  }

  async shutdown(): Promise<void> {
    try {
      await this.provider.shutdown();
    } catch (error) {
      this.options.onError('could not flush spans on shutdown', error);
    }
  }
}
