// planConnection itineraries as the contract's Itinerary: realtime mapping (seed 003), fingerprints, walking.
import { hash } from 'node:crypto';
import {
  DISRUPTION_DELAY_SECONDS,
  type Itinerary,
  type ItineraryLeg,
  type ScheduleType,
} from '@switchyard/contracts/transit';
import { z } from 'zod';
import { formatUtc } from '../time.js';
import { everyItem, lenientRecord, recordSchema, required, type ReadValue } from '../wire-record.js';
import { lenientList, nonEmpty, optionalText, readBoolean, readNumber, readText } from '../wire.js';
import { readAlerts, type OtpAlert } from './alerts.js';
import { departureStatus, toTransitMode } from './realtime.js';

// An itinerary is read from field tables (see ../wire-record.ts): OTP sends several per answer, each with a
// dozen fields on every leg, and zod blocks per field were most of plan_trip's own parse time.

// Instants are read as epoch milliseconds, parsed once: mapping parsed each again after reading had parsed it to
// check it.

/** A date-time string Date can read, as its instant; anything else cannot place a leg. */
function readInstantString(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Text (or a number written as text) Date can read, as its instant; undefined for anything else. */
function readInstant(value: unknown): number | undefined {
  const text = readText(value);
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** `LegTime`: without a readable scheduled time a leg cannot be placed, and its itinerary is left out. */
const readLegTime = lenientRecord({
  scheduledTime: required(readInstantString),
  estimated: lenientRecord({ time: readInstant }),
});

/** `Place`: OTP always gives coordinates; a place without them makes its itinerary unusable. */
const readPlace = lenientRecord({
  name: readText,
  lat: required(readNumber),
  lon: required(readNumber),
  stop: lenientRecord({ gtfsId: readText, wheelchairBoarding: readText }),
});

/**
 * A leg as PLAN_CONNECTION_QUERY selects it. Street legs have `route: null` and `trip: null`; so may
 * transit legs of some feeds (flex, added trips), which then have no line.
 */
const readLeg = lenientRecord({
  mode: readText,
  transitLeg: readBoolean,
  realTime: readBoolean,
  realtimeState: readText,
  distance: readNumber,
  duration: readNumber,
  headsign: readText,
  start: required(readLegTime),
  end: required(readLegTime),
  from: required(readPlace),
  to: required(readPlace),
  route: lenientRecord({ shortName: readText }),
  trip: lenientRecord({ gtfsId: readText, wheelchairAccessible: readText }),
  alerts: readAlerts,
});
export type OtpLeg = ReadValue<typeof readLeg>;

/** An itinerary is read whole or not at all: one unreadable leg leaves it out. */
const readItinerary = lenientRecord({
  start: readInstant,
  end: readInstant,
  duration: readNumber,
  walkDistance: readNumber,
  numberOfTransfers: readNumber,
  legs: required(everyItem(readLeg, 1)),
});
export const OtpItinerarySchema = recordSchema(readItinerary);
export type OtpItinerary = ReadValue<typeof readItinerary>;

/** `RoutingError`: `code` is an open set (NO_TRANSIT_CONNECTION, OUTSIDE_BOUNDS, ... and later ones). */
const RoutingErrorSchema = z.object({
  code: z.string(),
  description: optionalText,
  inputField: optionalText,
});
export type RoutingError = z.infer<typeof RoutingErrorSchema>;

export const PlanConnectionDataSchema = z.object({
  planConnection: z.object({
    routingErrors: lenientList(RoutingErrorSchema),
    /** Every edge OTP sent, unread: each is read on its own (see itineraryNodes). */
    edges: z.array(z.unknown()).nullish(),
  }),
});
export type PlanConnectionData = z.infer<typeof PlanConnectionDataSchema>;

const readEdge = lenientRecord({ node: required(readItinerary) });

/** The itineraries of planConnection's edges that can be read, and how many edges there were. */
export function itineraryNodes(edges: readonly unknown[] | null | undefined): {
  nodes: OtpItinerary[];
  received: number;
} {
  const nodes: OtpItinerary[] = [];
  for (const edge of edges ?? []) {
    const read = readEdge(edge);
    if (read !== undefined) nodes.push(read.node);
  }
  return { nodes, received: (edges ?? []).length };
}

/** Street modes: never transit legs, never realtime. */
const STREET_MODES = new Set(['WALK', 'BICYCLE', 'CAR', 'SCOOTER']);

/** An itinerary plus what plan_trip needs to know about it but does not return. */
export interface Candidate {
  itinerary: Itinerary;
  /** A leg is cancelled or delayed by more than 300 s (seed 003 business rule 2). */
  disrupted: boolean;
  /** Every transit leg's trip and stops are known to be wheelchair accessible. */
  accessibilityConfirmed: boolean;
  /** Each leg's service alerts, by leg index. */
  legAlerts: OtpAlert[][];
}

/**
 * One leg as the contract's ItineraryLeg. Its realtime facts are in its fields: cancelled is status
 * `cancelled`, realtime data is a cancellation or a delay (delaySeconds is set exactly when there is an estimate).
 */
function mapLeg(leg: OtpLeg): ItineraryLeg {
  const mode = toTransitMode(leg.mode);
  const transit = leg.transitLeg ?? !STREET_MODES.has(mode);
  const scheduledStart = leg.start.scheduledTime;
  const scheduledEnd = leg.end.scheduledTime;
  const cancelled = transit && leg.realtimeState?.toUpperCase() === 'CANCELED';
  // A leg OTP marks realTime without an estimate runs as scheduled, by realtime data.
  const confirmedOnTime = transit && leg.realTime === true;
  const estimatedStart = transit
    ? (leg.start.estimated?.time ?? (confirmedOnTime ? scheduledStart : undefined))
    : undefined;
  const estimatedEnd = transit
    ? (leg.end.estimated?.time ?? (confirmedOnTime ? scheduledEnd : undefined))
    : undefined;
  const delaySeconds =
    cancelled || estimatedStart === undefined
      ? undefined
      : Math.round((estimatedStart - scheduledStart) / 1000);
  const start = estimatedStart ?? scheduledStart;
  const end = estimatedEnd ?? scheduledEnd;
  // Most legs run as scheduled: their times are formatted once.
  const scheduledStartTime = formatUtc(scheduledStart);
  const scheduledEndTime = formatUtc(scheduledEnd);
  return {
    mode,
    transit,
    from: placeOf(leg.from, 'Origin'),
    to: placeOf(leg.to, 'Destination'),
    startTime: start === scheduledStart ? scheduledStartTime : formatUtc(start),
    endTime: end === scheduledEnd ? scheduledEndTime : formatUtc(end),
    scheduledStartTime,
    scheduledEndTime,
    durationSeconds: Math.max(0, Math.round(leg.duration ?? (end - start) / 1000)),
    distanceMeters: Math.max(0, leg.distance ?? 0),
    line: transit ? nonEmpty(leg.route?.shortName) : undefined,
    headsign: transit ? nonEmpty(leg.headsign) : undefined,
    status: transit ? departureStatus({ cancelled, delaySeconds }) : 'scheduled_only',
    delaySeconds,
  };
}

/** A transit leg whose trip and both stops OTP says can be used in a wheelchair. */
function stepFreeLeg(leg: OtpLeg): boolean {
  return (
    leg.trip?.wheelchairAccessible === 'POSSIBLE' &&
    boardsStepFree(leg.from.stop) &&
    boardsStepFree(leg.to.stop)
  );
}

function placeOf(place: OtpLeg['from'], fallback: string): ItineraryLeg['from'] {
  return {
    name: nonEmpty(place.name) ?? fallback,
    lat: place.lat,
    lon: place.lon,
    stopId: nonEmpty(place.stop?.gtfsId),
  };
}

/** No stop (a street point) or one OTP says can be boarded in a wheelchair. */
function boardsStepFree(stop: OtpLeg['from']['stop']): boolean {
  return stop == null || stop.wheelchairBoarding === 'POSSIBLE';
}

/**
 * Seed 003 rule 4 over an itinerary's transit legs, of which `withRealtime` have realtime data: all realtime,
 * some (mixed) or none (scheduled; also without transit).
 */
export function scheduleTypeOf(withRealtime: number, transitLegs: number): ScheduleType {
  if (withRealtime === 0) return 'scheduled';
  return withRealtime === transitLegs ? 'realtime' : 'mixed';
}

/** fingerprintOf's bytes, reused by every call (it is synchronous); it grows when a fingerprint needs more. */
let fingerprintBytes = Buffer.alloc(2048);
const NEWLINE = 0x0a;
const BAR = 0x7c;
const PRINTABLE_ASCII = /^[ -~]*$/;

/**
 * Equal routes share a fingerprint: mode, line, boarding and alighting stop (or rounded coordinates) and the
 * scheduled times of every leg. Realtime estimates are left out so that one trip is one route. What is hashed is
 * the legs' fields joined by `|` and the legs by newlines, in UTF-8; the bytes are written into one reused
 * buffer and hashed in one call (each call fingerprints every itinerary): a Hash fed field by field made some
 * forty calls into C++ per itinerary (4.6 µs), the joined string allocated 1.8 KB; this takes 2 µs and 0.3 KB.
 */
export function fingerprintOf(legs: readonly ItineraryLeg[]): string {
  let at = 0;
  for (let index = 0; index < legs.length; index += 1) {
    const leg = legs[index]!;
    if (index > 0) fingerprintBytes[at++] = NEWLINE;
    at = writeText(leg.mode, at);
    fingerprintBytes[at++] = BAR;
    at = writeText(leg.line ?? '', at);
    fingerprintBytes[at++] = BAR;
    at = writeWhere(leg.from, at);
    fingerprintBytes[at++] = BAR;
    at = writeWhere(leg.to, at);
    fingerprintBytes[at++] = BAR;
    at = writeText(leg.scheduledStartTime, at);
    fingerprintBytes[at++] = BAR;
    at = writeText(leg.scheduledEndTime, at);
  }
  return `sha1:${hash('sha1', fingerprintBytes.subarray(0, at), 'hex')}`;
}

/**
 * `text` in UTF-8 at `at`; returns where it ends, with room for one more byte (a separator) after it. Printable
 * ASCII (every field but an odd line or stop id) is written as latin1: the same bytes, and faster.
 */
function writeText(text: string, at: number): number {
  const most = at + text.length * 3 + 1;
  if (most > fingerprintBytes.length) {
    const larger = Buffer.alloc(2 * most);
    fingerprintBytes.copy(larger, 0, 0, at);
    fingerprintBytes = larger;
  }
  return at + fingerprintBytes.write(text, at, PRINTABLE_ASCII.test(text) ? 'latin1' : 'utf8');
}

function writeWhere(place: ItineraryLeg['from'], at: number): number {
  if (place.stopId !== undefined) return writeText(place.stopId, at);
  return writeText(`${place.lat.toFixed(5)},${place.lon.toFixed(5)}`, at);
}

export function toCandidate(node: OtpItinerary): Candidate {
  const legs: ItineraryLeg[] = [];
  const legAlerts: OtpAlert[][] = [];
  let transitLegs = 0;
  let withRealtime = 0;
  let walked = 0;
  let disrupted = false;
  let accessibilityConfirmed = true;
  for (const otpLeg of node.legs) {
    const leg = mapLeg(otpLeg);
    legs.push(leg);
    legAlerts.push(otpLeg.alerts);
    if (leg.mode === 'WALK') walked += leg.distanceMeters;
    if (!leg.transit) continue;
    const cancelled = leg.status === 'cancelled';
    transitLegs += 1;
    if (cancelled || leg.delaySeconds !== undefined) withRealtime += 1;
    if (cancelled || (leg.delaySeconds !== undefined && leg.delaySeconds > DISRUPTION_DELAY_SECONDS))
      disrupted = true;
    if (accessibilityConfirmed && !stepFreeLeg(otpLeg)) accessibilityConfirmed = false;
  }
  const first = legs[0];
  const last = legs[legs.length - 1];
  const startMs = node.start ?? (first ? Date.parse(first.startTime) : 0);
  const endMs = node.end ?? (last ? Date.parse(last.endTime) : startMs);
  const itinerary: Itinerary = {
    legs,
    startTime: formatUtc(startMs),
    endTime: formatUtc(endMs),
    durationSeconds: Math.max(0, Math.round(node.duration ?? (endMs - startMs) / 1000)),
    walkDistanceMeters: Math.max(0, node.walkDistance ?? walked),
    transfers: Math.max(0, node.numberOfTransfers ?? transitLegs - 1),
    scheduleType: scheduleTypeOf(withRealtime, transitLegs),
    fingerprint: fingerprintOf(legs),
    disrupted,
    disruptionFlag: false,
  };
  return { itinerary, disrupted, accessibilityConfirmed, legAlerts };
}

/**
 * The response's realtimeUsed (rule 4) over every transit leg of the returned itineraries: realtime when
 * all have realtime data, scheduled when none do (or there is no transit), mixed otherwise.
 */
export function realtimeUsedOf(itineraries: readonly Itinerary[]): ScheduleType {
  const withTransit = itineraries.filter((it) => it.legs.some((leg) => leg.transit));
  if (withTransit.every((it) => it.scheduleType === 'scheduled')) return 'scheduled';
  if (withTransit.every((it) => it.scheduleType === 'realtime')) return 'realtime';
  return 'mixed';
}

/** Keeps the first itinerary of each fingerprint. */
export function dedupe(candidates: readonly Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    if (seen.has(candidate.itinerary.fingerprint)) return false;
    seen.add(candidate.itinerary.fingerprint);
    return true;
  });
}
