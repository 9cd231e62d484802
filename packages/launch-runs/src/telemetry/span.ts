import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';

/** A finished span: stored in SQLite and, when an OTLP endpoint is configured, exported there. */
export interface FinishedSpan {
  name: string;
  /** 32 lowercase hex characters (W3C trace context). */
  traceId: string;
  /** 16 lowercase hex characters. */
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Readonly<Record<string, string>>;
  /** Unix epoch milliseconds, sub-millisecond precision. */
  startMs: number;
  endMs: number;
  /** The error code when the work failed; undefined when it succeeded. */
  errorCode: string | undefined;
}

function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** Random W3C ids; an all-zero id is invalid, so one is drawn again (1 in 2^64 at worst). */
function randomId(bytes: number): string {
  for (;;) {
    const id = randomBytes(bytes).toString('hex');
    if (!/^0+$/.test(id)) return id;
  }
}

/**
 * A span being recorded: ids, timing and string attributes, nothing more. A child shares its parent's
 * trace id. This is the whole of what launch-runs needs to trace its work; OpenTelemetry's SDK is loaded
 * only to export spans over OTLP (otlp-export.ts).
 */
export class LiveSpan {
  readonly traceId: string;
  readonly spanId = randomId(8);
  private readonly parentSpanId: string | undefined;
  private readonly attributes: Record<string, string> = {};
  private readonly startMs = nowMs();

  constructor(
    private readonly name: string,
    parent: LiveSpan | undefined,
  ) {
    this.traceId = parent?.traceId ?? randomId(16);
    this.parentSpanId = parent?.spanId;
  }

  setAttribute(key: string, value: string): void {
    this.attributes[key] = value;
  }

  end(errorCode: string | undefined): FinishedSpan {
    return {
      name: this.name,
      traceId: this.traceId,
      spanId: this.spanId,
      parentSpanId: this.parentSpanId,
      attributes: { ...this.attributes },
      startMs: this.startMs,
      endMs: Math.max(this.startMs, nowMs()),
      errorCode,
    };
  }
}
