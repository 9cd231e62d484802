// plan_trip constraints as planConnection variables. OTP2 has no maximum walking distance, so the limit is
// expressed as walk reluctance here and enforced afterwards by filtering on each itinerary's walking distance.
import { MAX_WALKING_DISTANCE_LIMIT, type PlanConstraints } from '@switchyard/contracts/transit';
import type { Coordinate } from '@switchyard/contracts/transit';

/** Itineraries asked for: room above the largest limit (3) for duplicates and walking-distance filtering. */
export const ITINERARIES_REQUESTED = 6;

/** Walking distance at which the optimisation's own walk reluctance applies unchanged (OTP's defaults fit it). */
const REFERENCE_WALK_METERS = 1500;
const MAX_WALK_FACTOR = 4;
const LOW_WALKING_FACTOR = 1.5;

/** Per optimisation: OTP's walk reluctance and the generalized cost added per transfer (OTP defaults: 2, 0). */
export const OPTIMIZE_PREFERENCES = {
  balanced: { walkReluctance: 2, transferCost: 0 },
  few_transfers: { walkReluctance: 2, transferCost: 600 },
  shortest_time: { walkReluctance: 1, transferCost: 0 },
} as const satisfies Record<PlanConstraints['optimize'], { walkReluctance: number; transferCost: number }>;

/** Shorter walking limits make walking costlier: 1500 m or more x1, 750 m x2, 375 m or less x4. */
export function walkReluctanceFor(constraints: PlanConstraints): number {
  const base = OPTIMIZE_PREFERENCES[constraints.optimize].walkReluctance;
  const factor = Math.min(
    MAX_WALK_FACTOR,
    Math.max(1, REFERENCE_WALK_METERS / constraints.maxWalkingDistance),
  );
  const lowWalking = constraints.accessibility.lowWalkingDistance ? LOW_WALKING_FACTOR : 1;
  return Math.round(base * factor * lowWalking * 100) / 100;
}

/** Seed 003 business rule 2's relaxation: optimize=balanced, maxWalkingDistance +25% capped at 3000. */
export function relaxConstraints(constraints: PlanConstraints): PlanConstraints {
  return {
    ...constraints,
    optimize: 'balanced',
    maxWalkingDistance: Math.min(MAX_WALKING_DISTANCE_LIMIT, constraints.maxWalkingDistance * 1.25),
  };
}

export interface PlanEndpoint {
  coordinate: Coordinate;
  /** Shown by OTP as the name of the first/last place. */
  label: string;
}

export interface PlanSearch {
  origin: PlanEndpoint;
  destination: PlanEndpoint;
  type: 'depart' | 'arrive';
  /** The instant searched, ISO 8601. */
  time: string;
  constraints: PlanConstraints;
  /** Ask for each leg's service alerts (HSL_ALERTS_MAX > 0); absent: the document's default, true. */
  withAlerts?: boolean;
}

export function planConnectionVariables(search: PlanSearch): Record<string, unknown> {
  const endpoint = (e: PlanEndpoint) => ({
    location: { coordinate: { latitude: e.coordinate.lat, longitude: e.coordinate.lon } },
    label: e.label,
  });
  return {
    origin: endpoint(search.origin),
    destination: endpoint(search.destination),
    dateTime: search.type === 'arrive' ? { latestArrival: search.time } : { earliestDeparture: search.time },
    first: ITINERARIES_REQUESTED,
    maximumTransfers: search.constraints.maxTransfers,
    transferCost: OPTIMIZE_PREFERENCES[search.constraints.optimize].transferCost,
    walkReluctance: walkReluctanceFor(search.constraints),
    wheelchair: search.constraints.accessibility.stepFree,
    withAlerts: search.withAlerts,
  };
}
