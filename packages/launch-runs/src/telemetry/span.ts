import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FailureStage } from '@switchyard/server-kit';

/** What a span is about: stored in its own columns, exported as attributes. */
export interface SpanFields {
  kind: 'tool' | 'worker';
  tool?: string;
  worker?: string;
  runId?: string;
  correlationId?: string;
}

/**
 * A span: W3C ids (32 and 16 lowercase hex characters), Unix epoch milliseconds and its fields; all
 * launch-runs needs. Not OpenTelemetry's SDK, which takes tens of milliseconds to load: queries are answered
 * without it (test/cold-start.test.ts); it is loaded only to export over OTLP (otlp-export.ts).
 */
export interface Span extends SpanFields {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly startMs: number;
  /** Set when the work failed: its wire error code. */
  errorCode?: string;
  /** On a failed tool call: `input` (its arguments were refused) or `handler`. Exported, not stored. */
  failureStage?: FailureStage;
}

export type FinishedSpan = Readonly<Span> & { readonly endMs: number };

export const nowMs = () => performance.timeOrigin + performance.now();

/** Random W3C ids; an all-zero id is invalid, so one is drawn again (1 in 2^64 at worst). */
function randomId(bytes: number): string {
  for (;;) {
    const id = randomBytes(bytes).toString('hex');
    if (!/^0+$/.test(id)) return id;
  }
}

/** A new span; a child shares its parent's trace id. */
export function startSpan(name: string, fields: SpanFields, parent: Span | undefined): Span {
  const ids = { traceId: parent?.traceId ?? randomId(16), spanId: randomId(8), parentSpanId: parent?.spanId };
  return { name, ...fields, ...ids, startMs: nowMs() };
}
