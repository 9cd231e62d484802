// plan_trip (seed 003): resolve the ends, query planConnection, then the seed's business rules in order:
// walking limit, dedupe, disruption alternatives, accessibility and low-walking notes, limit, realtime summary.
import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  LOW_WALKING_DISTANCE_METERS,
  sameCoordinates,
  type Itinerary,
  type LocationRef,
  type PlanConstraints,
  type PlanTripOutput,
  type AnswerWarning,
  type PlanTripRequest,
} from '@switchyard/contracts/transit';
import type { RegionBounds } from '../config.js';
import type { LocationResolver } from '../places/resolve.js';
import { resolveLocation } from '../places/resolve.js';
import { formatUtc } from '../time.js';
import { malformed } from '../upstream.js';
import { serviceAlertWarnings, type AlertLimits, type AlertSource } from './alerts.js';
import { DIGITRANSIT, type RoutingClient } from './client.js';
import type { Geocoder } from './geocoding.js';
import {
  dedupe,
  itineraryNodes,
  PlanConnectionDataSchema,
  realtimeUsedOf,
  toCandidate,
  type Candidate,
  type RoutingError,
} from './itineraries.js';
import { planConnectionVariables, relaxConstraints, type PlanSearch } from './plan-request.js';
import { PLAN_CONNECTION_QUERY } from './queries.js';
import { dataFreshness } from './realtime.js';
import { assertInRegion } from './region.js';
import { noItineraryHint, throwIfUnroutable } from './routing-errors.js';

export interface PlanTripDeps {
  routing: RoutingClient;
  geocoder?: Geocoder;
  savedPlaces: LocationResolver['savedPlaces'];
  bounds: RegionBounds;
  alertLimits: AlertLimits;
  /** Logs a failed disruption-alternative search (the primary result is still returned). */
  onAlternativeFailure?: (error: SwitchyardError) => void;
}

export interface PlanTripCall {
  principal: string;
  correlationId: string;
  requestReceivedMs: number;
  signal?: AbortSignal;
}

interface SearchResult {
  candidates: Candidate[];
  /** How many itineraries OTP returned, duplicates included. */
  received: number;
  routingErrors: RoutingError[];
}

async function search(deps: PlanTripDeps, plan: PlanSearch, signal?: AbortSignal): Promise<SearchResult> {
  const data = await deps.routing.query(
    {
      document: PLAN_CONNECTION_QUERY,
      variables: planConnectionVariables(plan),
      language: plan.constraints.language,
      signal,
    },
    PlanConnectionDataSchema,
  );
  const { routingErrors, edges } = data.planConnection;
  const { nodes, received } = itineraryNodes(edges);
  if (received > 0 && nodes.length === 0) throw malformed(DIGITRANSIT, 'itinerary');
  if (nodes.length === 0) throwIfUnroutable(routingErrors);
  return { candidates: nodes.map(toCandidate), received: nodes.length, routingErrors };
}

/** Keeps itineraries that walk at most `maxWalkingDistance`; none qualifies: all of them, flagged unmet. */
function withinWalking(
  candidates: Candidate[],
  maxWalkingDistance: number,
): { kept: Candidate[]; unmet: boolean } {
  const kept = candidates.filter((c) => c.itinerary.walkDistanceMeters <= maxWalkingDistance);
  return kept.length > 0 || candidates.length === 0
    ? { kept, unmet: false }
    : { kept: candidates, unmet: true };
}

/**
 * Each alternative takes the place of a disrupted itinerary (the one it replaces moves to the end); spare
 * alternatives follow the primary ones. Disrupted itineraries nothing replaces keep their place: their
 * realtime times already include the delay.
 */
function insertAlternatives(primary: Candidate[], alternatives: Candidate[]): Candidate[] {
  const queue = [...alternatives];
  const out: Candidate[] = [];
  const replaced: Candidate[] = [];
  for (const candidate of primary) {
    if (candidate.disrupted && queue.length > 0) {
      out.push(queue.shift()!);
      replaced.push(candidate);
    } else {
      out.push(candidate);
    }
  }
  return [...out, ...queue, ...replaced];
}

function sameConstraints(a: PlanConstraints, b: PlanConstraints): boolean {
  return a.optimize === b.optimize && a.maxWalkingDistance === b.maxWalkingDistance;
}

/**
 * Each returned leg's alerts, needed from the leg's first to its last moment (scheduled or expected). A leg
 * without alerts adds nothing to the warnings, so it gets no source (most legs have none).
 */
function legAlertSources(returned: readonly Candidate[]): AlertSource[] {
  const sources: AlertSource[] = [];
  for (let itinerary = 0; itinerary < returned.length; itinerary += 1) {
    const candidate = returned[itinerary]!;
    const { legs } = candidate.itinerary;
    for (let index = 0; index < legs.length; index += 1) {
      const alerts = candidate.legAlerts[index];
      if (alerts === undefined || alerts.length === 0) continue;
      const leg = legs[index]!;
      sources.push({
        alerts,
        affects: { leg: { itinerary, leg: index } },
        window: {
          startMs: Math.min(Date.parse(leg.startTime), Date.parse(leg.scheduledStartTime)),
          endMs: Math.max(Date.parse(leg.endTime), Date.parse(leg.scheduledEndTime)),
        },
      });
    }
  }
  return sources;
}

function endpointLabel(ref: LocationRef, fallback: string): string {
  return ref.name ?? ref.label ?? fallback;
}

export async function planTrip(
  input: PlanTripRequest,
  deps: PlanTripDeps,
  call: PlanTripCall,
): Promise<PlanTripOutput> {
  const { constraints } = input;
  const resolver: LocationResolver = {
    savedPlaces: deps.savedPlaces,
    principal: call.principal,
    geocoder: deps.geocoder,
    language: constraints.language,
    bounds: deps.bounds,
    signal: call.signal,
  };
  // Both ends are geocoded at once (two upstream round trips in parallel, not in series); when both fail, the
  // origin's error is the answer, as if they had been resolved in order.
  const [resolvedOrigin, resolvedDestination] = await Promise.allSettled([
    resolveLocation(input.origin, resolver),
    resolveLocation(input.destination, resolver),
  ]);
  if (resolvedOrigin.status === 'rejected') throw resolvedOrigin.reason;
  if (resolvedDestination.status === 'rejected') throw resolvedDestination.reason;
  const origin = resolvedOrigin.value;
  const destination = resolvedDestination.value;
  if (sameCoordinates(origin.coordinate, destination.coordinate)) {
    throw new SwitchyardError('validation', 'origin and destination must differ (they are within 1 m)', {
      hint: 'Pick a destination that is not where you start.',
    });
  }
  assertInRegion({ origin: origin.coordinate, destination: destination.coordinate }, deps.bounds);

  const time =
    input.when.time === 'now' ? formatUtc(call.requestReceivedMs) : formatUtc(Date.parse(input.when.time));
  const plan = (c: PlanConstraints): PlanSearch => ({
    origin: { coordinate: origin.coordinate, label: endpointLabel(origin, 'Origin') },
    destination: { coordinate: destination.coordinate, label: endpointLabel(destination, 'Destination') },
    type: input.when.type,
    time,
    constraints: c,
    withAlerts: deps.alertLimits.max > 0,
  });
  const warnings: AnswerWarning[] = [];
  const relaxed = relaxConstraints(constraints);
  let received = 0;

  let first = await search(deps, plan(constraints), call.signal);
  const routingErrors = first.routingErrors;
  received += first.received;
  let walkingLimit = constraints.maxWalkingDistance;
  if (first.candidates.length === 0) {
    // Seed 003: no-itinerary-found only after one relax attempt.
    if (!sameConstraints(relaxed, constraints)) {
      first = await search(deps, plan(relaxed), call.signal);
      received += first.received;
      walkingLimit = relaxed.maxWalkingDistance;
    }
    if (first.candidates.length === 0) {
      throw new SwitchyardError('validation', 'No itineraries for given constraints', {
        code: 'no-itinerary-found',
        hint: noItineraryHint([...routingErrors, ...first.routingErrors]),
      });
    }
    warnings.push({
      code: 'preference-unmet',
      message:
        `Nothing matched the constraints as given; these itineraries come from a relaxed search ` +
        `(optimize=balanced, maxWalkingDistance=${relaxed.maxWalkingDistance} m).`,
    });
  }

  const unique = dedupe(first.candidates);
  const walking = withinWalking(unique, walkingLimit);
  if (walking.unmet) {
    warnings.push({
      code: 'preference-unmet',
      message: `No itinerary walks at most ${walkingLimit} m; the best ones found are returned (they walk more).`,
    });
  }
  let candidates = walking.kept;
  let all = unique;

  if (input.includeDisruptionAlt && candidates.some((c) => c.disrupted)) {
    try {
      const second = await search(deps, plan(relaxed), call.signal);
      received += second.received;
      const known = new Set(all.map((c) => c.itinerary.fingerprint));
      const fresh = dedupe(second.candidates).filter((c) => !known.has(c.itinerary.fingerprint));
      all = [...all, ...fresh];
      const alternatives = withinWalking(fresh, relaxed.maxWalkingDistance)
        .kept.filter((c) => !c.disrupted)
        .map((c) => ({ ...c, itinerary: { ...c.itinerary, disruptionFlag: true } }));
      candidates = insertAlternatives(candidates, alternatives);
    } catch (error) {
      if (!(error instanceof SwitchyardError) || error.kind === 'cancelled') throw error;
      deps.onAlternativeFailure?.(error);
    }
  }

  const returned = candidates.slice(0, input.limit);
  if (candidates.length > input.limit) {
    warnings.push({
      code: 'truncated-results',
      message: `${candidates.length} itineraries were found; limit=${input.limit} returned the first ${input.limit}.`,
    });
  }
  if (constraints.accessibility.stepFree && returned.some((c) => !c.accessibilityConfirmed)) {
    warnings.push({
      code: 'unsupported-accessibility-flag',
      message:
        'Wheelchair-accessible routing was requested, but the timetable data does not confirm step-free access ' +
        'for every vehicle and stop of these itineraries.',
    });
  }
  const itineraries: Itinerary[] = returned.map((c) => c.itinerary);
  if (constraints.accessibility.lowWalkingDistance) {
    const threshold = Math.min(LOW_WALKING_DISTANCE_METERS, constraints.maxWalkingDistance);
    for (const itinerary of itineraries)
      itinerary.lowWalkingDistance = itinerary.walkDistanceMeters <= threshold;
    if (itineraries.length > 0 && itineraries.every((it) => !it.lowWalkingDistance)) {
      warnings.push({
        code: 'preference-unmet',
        message: `Low walking was requested, but every itinerary walks more than ${threshold} m.`,
      });
    }
  }

  warnings.push(
    ...serviceAlertWarnings(legAlertSources(returned), {
      language: constraints.language,
      limits: deps.alertLimits,
    }),
  );

  const duplicates = received - all.length;
  return {
    origin,
    destination,
    requested: { type: input.when.type, time },
    constraints,
    itineraries,
    realtimeUsed: realtimeUsedOf(itineraries),
    dataFreshness: dataFreshness(
      call.requestReceivedMs,
      itineraries.flatMap((it) => it.legs.map((leg) => leg.lastRealtimeUpdate)),
    ),
    warnings: warnings.length === 0 ? undefined : warnings,
    correlationId: call.correlationId,
    meta: duplicates > 0 ? { deduplicatedFrom: received } : undefined,
  };
}
