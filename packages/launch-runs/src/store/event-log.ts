import type { EventRow } from '../db/schema.js';
import type { RunEvent } from './event-chain.js';

/** An events table row as the chain's event (both dialects store the same columns). */
export function toRunEvent(row: EventRow): RunEvent {
  return {
    event_id: row.eventId,
    run_id: row.runId,
    seq: row.runSeq,
    ts: row.ts,
    type: row.type,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    trace_id: row.traceId,
    span_id: row.spanId,
    prev_hash: row.prevHash,
    event_hash: row.eventHash,
  };
}
