import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, SpanContext } from '@opentelemetry/api';
import type * as OtelExporter from '@opentelemetry/exporter-trace-otlp-http';
import type * as OtelResources from '@opentelemetry/resources';
import type * as OtelSdk from '@opentelemetry/sdk-trace-node';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { lazy } from '@switchyard/server-kit/runtime';
import type { FinishedSpan } from './span.js';

export interface OpenTelemetry {
  api: typeof OtelApi;
  resources: typeof OtelResources;
  sdk: typeof OtelSdk;
  exporter: typeof OtelExporter;
}

/** OpenTelemetry's SDK and OTLP/HTTP exporter (a few hundred milliseconds to load): only when exporting. */
const loadOpenTelemetry = lazy<OpenTelemetry>(async () => {
  const [api, resources, sdk, exporter] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  return { api, resources, sdk, exporter };
});

export interface OtlpExportOptions {
  /** Full OTLP/HTTP traces URL (…/v1/traces). */
  url: string;
  serviceName: string;
  serviceVersion: string;
  onError: (message: string, error: unknown) => void;
  /** Loads the SDK; the real packages by default (tests pass a failing loader). */
  load?: () => Promise<OpenTelemetry>;
}

interface Exporting {
  processor: SpanProcessor;
  readable(span: FinishedSpan): ReadableSpan;
}

function hrTime(ms: number): [number, number] {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

/** Our finished span in the shape OpenTelemetry's span processors and exporters take. */
function readableSpanFactory(otel: OpenTelemetry, options: OtlpExportOptions): Exporting['readable'] {
  const { SpanKind, SpanStatusCode, TraceFlags } = otel.api;
  const resource = otel.resources.resourceFromAttributes({
    'service.name': options.serviceName,
    'service.version': options.serviceVersion,
  });
  const instrumentationScope = { name: '@switchyard/launch-runs', version: options.serviceVersion };
  return (span) => {
    const context: SpanContext = {
      traceId: span.traceId,
      spanId: span.spanId,
      traceFlags: TraceFlags.SAMPLED,
    };
    const attributes: Attributes = { ...span.attributes };
    return {
      name: span.name,
      kind: SpanKind.INTERNAL,
      spanContext: () => context,
      ...(span.parentSpanId === undefined
        ? {}
        : {
            parentSpanContext: {
              traceId: span.traceId,
              spanId: span.parentSpanId,
              traceFlags: TraceFlags.SAMPLED,
            },
          }),
      startTime: hrTime(span.startMs),
      endTime: hrTime(span.endMs),
      duration: hrTime(span.endMs - span.startMs),
      status:
        span.errorCode === undefined
          ? { code: SpanStatusCode.OK }
          : { code: SpanStatusCode.ERROR, message: span.errorCode },
      attributes,
      links: [],
      events: [],
      ended: true,
      resource,
      instrumentationScope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  };
}

/**
 * Exports finished spans over OTLP/HTTP through OpenTelemetry's batch processor and exporter. The SDK is
 * loaded with the first span, not at startup; if it cannot be loaded, that is reported once and spans are
 * still stored in SQLite.
 */
export class OtlpSpanExport {
  private exporting: Promise<Exporting | undefined> | undefined;

  constructor(private readonly options: OtlpExportOptions) {}

  private start(): Promise<Exporting | undefined> {
    this.exporting ??= (this.options.load ?? loadOpenTelemetry)().then(
      (otel) => {
        const exporter = new otel.exporter.OTLPTraceExporter({ url: this.options.url });
        return {
          processor: new otel.sdk.BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 }),
          readable: readableSpanFactory(otel, this.options),
        };
      },
      (error: unknown) => {
        this.options.onError('OpenTelemetry could not be loaded: spans are stored but not exported', error);
        return undefined;
      },
    );
    return this.exporting;
  }

  /** Queues `span` for export (in the order spans end). */
  export(span: FinishedSpan): void {
    this.start()
      .then((exporting) => exporting?.processor.onEnd(exporting.readable(span)))
      .catch((error: unknown) => this.options.onError('could not export a span', error));
  }

  async flush(): Promise<void> {
    await (await this.exporting)?.processor.forceFlush();
  }

  async shutdown(): Promise<void> {
    await (await this.exporting)?.processor.shutdown();
  }
}
