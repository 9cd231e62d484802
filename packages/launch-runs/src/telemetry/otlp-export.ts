import type * as OtelApi from '@opentelemetry/api';
import type * as OtelExporter from '@opentelemetry/exporter-trace-otlp-http';
import type * as OtelResources from '@opentelemetry/resources';
import type * as OtelSdk from '@opentelemetry/sdk-trace-node';
import { lazy } from '@switchyard/server-kit/runtime';
import { ATTR, type FinishedSpan, type SpanDestination } from './span.js';

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

export interface OpenTelemetry {
  api: typeof OtelApi;
  resources: typeof OtelResources;
  sdk: typeof OtelSdk;
  exporter: typeof OtelExporter;
}

export interface OtlpExportOptions {
  serviceName: string;
  serviceVersion: string;
  onError: (message: string, error: unknown) => void;
  /** How the OpenTelemetry SDK is loaded for OTLP export (tests); the real packages by default. */
  loadOpenTelemetry?: () => Promise<OpenTelemetry>;
}

/**
 * Replays finished spans through a Tracer of OpenTelemetry's own provider, batched to an OTLP exporter. The
 * provider is private (never registered globally, so a host application's tracing is untouched), and its
 * id generator hands out the ids the span already has: they are stored in SQLite and stamped on events.
 */
function otlpTracer(
  { api, resources, sdk, exporter }: OpenTelemetry,
  url: string,
  options: OtlpExportOptions,
) {
  let ids: Pick<FinishedSpan, 'traceId' | 'spanId'> = { traceId: '', spanId: '' };
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': options.serviceName,
      'service.version': options.serviceVersion,
    }),
    idGenerator: { generateTraceId: () => ids.traceId, generateSpanId: () => ids.spanId },
    spanProcessors: [
      new sdk.BatchSpanProcessor(new exporter.OTLPTraceExporter({ url }), { scheduledDelayMillis: 1000 }),
    ],
  });
  const tracer = provider.getTracer('@switchyard/launch-runs', options.serviceVersion);
  const parentOf = ({ traceId, parentSpanId: spanId }: FinishedSpan) =>
    spanId === undefined
      ? api.ROOT_CONTEXT
      : api.trace.setSpanContext(api.ROOT_CONTEXT, { traceId, spanId, traceFlags: api.TraceFlags.SAMPLED });
  const replay = (span: FinishedSpan) => {
    const parent = parentOf(span);
    ids = span;
    const replayed = tracer.startSpan(
      span.name,
      { startTime: span.startMs, attributes: span.attributes },
      parent,
    );
    const errorCode = span.attributes[ATTR.errorCode];
    replayed.setStatus(
      errorCode === undefined
        ? { code: api.SpanStatusCode.OK }
        : { code: api.SpanStatusCode.ERROR, message: errorCode },
    );
    replayed.end(span.endMs);
  };
  return { replay, provider };
}

/**
 * Exports finished spans to `url` (…/v1/traces) over OTLP/HTTP through OpenTelemetry's SDK, loaded with the
 * first span, not at startup; if it cannot be loaded, that is reported once (spans are still stored in
 * SQLite).
 */
export function otlpExport(url: string, options: OtlpExportOptions): SpanDestination {
  let exporting: Promise<ReturnType<typeof otlpTracer> | undefined> | undefined;
  const start = () =>
    (exporting ??= (options.loadOpenTelemetry ?? loadOpenTelemetry)().then(
      (otel) => otlpTracer(otel, url, options),
      (error: unknown) => {
        options.onError('OpenTelemetry could not be loaded: spans are stored but not exported', error);
        return undefined;
      },
    ));
  return {
    add(span) {
      start()
        .then((otel) => otel?.replay(span))
        .catch((error: unknown) => options.onError('could not export a span', error));
    },
    flush: async () => (await exporting)?.provider.forceFlush(),
    shutdown: async () => (await exporting)?.provider.shutdown(),
  };
}
