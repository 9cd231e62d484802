import { asc, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/drizzle.js';
import { events, type EventRow } from '../db/schema.js';
import { canonicalJson } from '../canonical-json.js';
import {
  computeEventHash,
  GENESIS_HASH,
  type EventType,
  type RunEvent,
  type TraceIds,
} from './event-chain.js';

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

/**
 * Appends one event to a run's chain. Call it inside the transaction that makes the change the event
 * records; `(run_id, run_seq)` is unique, so a concurrent writer that read the same tail fails instead of
 * forking the chain.
 */
export function appendEvent(
  db: DbOrTx,
  runId: string,
  type: EventType,
  payload: Record<string, unknown>,
  trace: TraceIds | undefined,
  nowMs: number,
): RunEvent {
  const tail = db
    .select({ runSeq: events.runSeq, eventHash: events.eventHash })
    .from(events)
    .where(eq(events.runId, runId))
    .orderBy(desc(events.runSeq))
    .limit(1)
    .get();
  const seq = (tail?.runSeq ?? 0) + 1;
  const unhashed: Omit<RunEvent, 'event_hash'> = {
    event_id: `${runId}.${seq}`,
    run_id: runId,
    seq,
    ts: new Date(nowMs).toISOString(),
    type,
    payload: JSON.parse(canonicalJson(payload)) as Record<string, unknown>,
    trace_id: trace?.traceId ?? null,
    span_id: trace?.spanId ?? null,
    prev_hash: tail?.eventHash ?? GENESIS_HASH,
  };
  const event: RunEvent = { ...unhashed, event_hash: computeEventHash(unhashed) };
  db.insert(events)
    .values({
      eventId: event.event_id,
      runId,
      runSeq: seq,
      ts: event.ts,
      type,
      payload: canonicalJson(event.payload),
      traceId: event.trace_id,
      spanId: event.span_id,
      prevHash: event.prev_hash,
      eventHash: event.event_hash,
    })
    .run();
  return event;
}

export function listEvents(db: DbOrTx, runId: string): RunEvent[] {
  return db
    .select()
    .from(events)
    .where(eq(events.runId, runId))
    .orderBy(asc(events.runSeq))
    .all()
    .map(toRunEvent);
}
