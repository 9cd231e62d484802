import { asc, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/open.js';
import { events, type EventRow } from '../db/schema.js';
import { canonicalJson, sha256Hex } from './canonical-json.js';

export const GENESIS_HASH = '0'.repeat(64);

/** Event types the runtime appends (WORK_ITEM_* and ARTIFACT_WRITTEN are the design's own names). */
export type EventType =
  | 'RUN_CREATED'
  | 'STATE_CHANGED'
  | 'WORK_ITEM_STARTED'
  | 'WORK_ITEM_FINISHED'
  | 'WORK_ITEM_FAILED'
  | 'ARTIFACT_WRITTEN'
  | 'VALIDATION_RECORDED'
  | 'FIX_APPLIED'
  | 'PR_OPENED'
  | 'RUN_INTERRUPTED'
  | 'RUN_REWOUND'
  | 'RUN_HALTED';

export interface TraceIds {
  traceId: string;
  spanId: string;
}

export interface RunEvent {
  event_id: string;
  run_id: string;
  seq: number;
  ts: string;
  type: string;
  payload: Record<string, unknown>;
  trace_id: string | null;
  span_id: string | null;
  prev_hash: string;
  event_hash: string;
}

/** The bytes an event hash covers: everything but the hash itself, canonically. */
function hashedText(event: Omit<RunEvent, 'event_hash'>): string {
  return canonicalJson(event);
}

export function computeEventHash(event: Omit<RunEvent, 'event_hash'>): string {
  return sha256Hex(event.prev_hash + '\n' + hashedText(event));
}

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

export interface ChainVerification {
  ok: boolean;
  count: number;
  /** The first event whose link or hash does not match, when the chain is broken. */
  broken_at?: { seq: number; reason: 'prev_hash' | 'event_hash' | 'sequence' };
}

/** Recomputes every hash of a run's chain from the genesis hash. */
export function verifyEventChain(list: readonly RunEvent[]): ChainVerification {
  let prev = GENESIS_HASH;
  for (const [index, event] of list.entries()) {
    if (event.seq !== index + 1)
      return { ok: false, count: list.length, broken_at: { seq: event.seq, reason: 'sequence' } };
    if (event.prev_hash !== prev)
      return { ok: false, count: list.length, broken_at: { seq: event.seq, reason: 'prev_hash' } };
    const { event_hash: _hash, ...rest } = event;
    if (computeEventHash(rest) !== event.event_hash) {
      return { ok: false, count: list.length, broken_at: { seq: event.seq, reason: 'event_hash' } };
    }
    prev = event.event_hash;
  }
  return { ok: true, count: list.length };
}

/** NDJSON export: one canonical JSON event per line, oldest first. */
export function eventsToNdjson(list: readonly RunEvent[]): string {
  return list.map((event) => canonicalJson(event) + '\n').join('');
}
