import { canonicalJson, sha256Hex } from '../canonical-json.js';

// The hash chain itself (no database): what an event is, how it is hashed and verified. event-log.ts stores it.

export const GENESIS_HASH = '0'.repeat(64);

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
