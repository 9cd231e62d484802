import { ROOT_CONTEXT, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { FinishedSpan } from './span.js';

/** The attributes a collector sees: a field the span does not have is left out. */
const attributesOf = (span: FinishedSpan) => ({
  'launch.span_kind': span.kind,
  'launch.tool': span.tool,
  'launch.worker': span.worker,
  'launch.run_id': span.runId,
  'switchyard.correlation_id': span.correlationId,
  'launch.failure_stage': span.failureStage,
  'launch.outcome': span.errorCode === undefined ? 'ok' : 'error',
  'launch.error_code': span.errorCode,
});

const parentOf = ({ traceId, parentSpanId: spanId }: FinishedSpan) =>
  spanId === undefined
    ? ROOT_CONTEXT
    : trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, traceFlags: TraceFlags.SAMPLED });

/**
 * Exports finished spans to `url` (…/v1/traces) over OTLP/HTTP: each is replayed through a Tracer of
 * OpenTelemetry's own provider, batched to an OTLP exporter. The provider is private (never registered
 * globally, so a host application's tracing is untouched), and its id generator hands out the ids the span
 * already has: they are stored in SQLite and stamped on events.
 */
export function otlpExport(
  url: string,
  { serviceName, serviceVersion }: { serviceName: string; serviceVersion: string },
) {
  let ids: Pick<FinishedSpan, 'traceId' | 'spanId'> = { traceId: '', spanId: '' };
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'service.version': serviceVersion }),
    idGenerator: { generateTraceId: () => ids.traceId, generateSpanId: () => ids.spanId },
    spanProcessors: [
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }), scheduledDelayMillis: 1000 }),
    ],
  });
  const tracer = provider.getTracer('@switchyard/launch-runs', serviceVersion);
  const replay = (span: FinishedSpan) => {
    const attributes = attributesOf(span);
    ids = span;
    const replayed = tracer.startSpan(span.name, { startTime: span.startMs, attributes }, parentOf(span));
    const code = span.errorCode === undefined ? SpanStatusCode.OK : SpanStatusCode.ERROR;
    replayed.setStatus({ code, message: span.errorCode });
    replayed.end(span.endMs);
  };
  return {
    export: (finished: readonly FinishedSpan[]) => finished.forEach(replay),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
