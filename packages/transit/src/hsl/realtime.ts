// Realtime rules shared by get_departures (seed 001) and plan_trip (seed 003).
import { TRANSIT_MODES, type DepartureStatus, type TransitMode } from '@switchyard/contracts/transit';
import { formatUtc } from '../time.js';

/** OTP realtime states that mean realtime data exists for a trip (CANCELED is handled on its own). */
export const REALTIME_STATES: ReadonlySet<string> = new Set(['UPDATED', 'ADDED', 'MODIFIED']);

/** Beyond this many seconds either way a departure is `delayed` (seed 001 rule 2, seed 003 realtime mapping). */
export const ON_TIME_TOLERANCE_SECONDS = 60;

export interface RealtimeFacts {
  /** An explicit cancellation flag (OTP realtimeState CANCELED). */
  cancelled: boolean;
  /** Realtime minus scheduled, in seconds; undefined without realtime data. */
  delaySeconds: number | undefined;
}

/** cancelled > delayed (|delay| > 60 s) > on_time (|delay| <= 60 s) > scheduled_only (no realtime). */
export function departureStatus(facts: RealtimeFacts): DepartureStatus {
  if (facts.cancelled) return 'cancelled';
  if (facts.delaySeconds === undefined) return 'scheduled_only';
  return Math.abs(facts.delaySeconds) > ON_TIME_TOLERANCE_SECONDS ? 'delayed' : 'on_time';
}

/** max(every realtime update timestamp, the time the request was received), as an ISO 8601 instant. */
export function dataFreshness(
  requestReceivedMs: number,
  updateTimestamps: readonly (string | undefined)[],
): string {
  let latest = requestReceivedMs;
  for (const stamp of updateTimestamps) {
    const ms = stamp === undefined ? NaN : Date.parse(stamp);
    if (Number.isFinite(ms) && ms > latest) latest = ms;
  }
  return formatUtc(latest);
}

const KNOWN_MODES = new Set<string>(TRANSIT_MODES);

/** An OTP mode as the contract's TransitMode (a mode this contract does not know is OTHER). */
export function toTransitMode(mode: string | null | undefined): TransitMode {
  const upper = mode?.trim().toUpperCase();
  if (upper === 'FLEXIBLE') return 'FLEX';
  return upper !== undefined && KNOWN_MODES.has(upper) ? (upper as TransitMode) : 'OTHER';
}
