import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';

/** Attribute names Switchyard puts on its spans (also what an OTLP collector sees). */
export const ATTR = {
  kind: 'launch.span_kind',
  tool: 'launch.tool',
  worker: 'launch.worker',
  runId: 'launch.run_id',
  outcome: 'launch.outcome',
  errorCode: 'launch.error_code',
  /** On a failed tool call: `input` (its arguments were refused) or `handler`. Exported, not stored. */
  failureStage: 'launch.failure_stage',
  correlationId: 'switchyard.correlation_id',
} as const;

/**
 * A span: W3C ids (32 and 16 lowercase hex characters), string attributes and Unix epoch milliseconds; all
 * launch-runs needs. Not OpenTelemetry's SDK, which takes tens of milliseconds to load: queries are answered
 * without it (test/cold-start.test.ts); it is loaded only to export over OTLP (otlp-export.ts).
 */
export interface LiveSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly attributes: Record<string, string>;
  readonly startMs: number;
}

export interface FinishedSpan extends LiveSpan {
  readonly endMs: number;
}

/** Where finished spans go: SQLite always, an OTLP collector when one is configured. */
export interface SpanDestination {
  add(span: FinishedSpan): void;
  flush(): Promise<void> | void;
  /** Flushes; spans added later are dropped. */
  shutdown(): Promise<void> | void;
}

const nowMs = () => performance.timeOrigin + performance.now();

/** Random W3C ids; an all-zero id is invalid, so one is drawn again (1 in 2^64 at worst). */
function randomId(bytes: number): string {
  for (;;) {
    const id = randomBytes(bytes).toString('hex');
    if (!/^0+$/.test(id)) return id;
  }
}

/** A new span; a child shares its parent's trace id. */
export function startSpan(name: string, parent: LiveSpan | undefined): LiveSpan {
  const traceId = parent?.traceId ?? randomId(16);
  return {
    name,
    traceId,
    spanId: randomId(8),
    parentSpanId: parent?.spanId,
    attributes: {},
    startMs: nowMs(),
  };
}

/** The span as it is now, with its attributes copied. */
export function endSpan(span: LiveSpan): FinishedSpan {
  return { ...span, attributes: { ...span.attributes }, endMs: Math.max(span.startMs, nowMs()) };
}
