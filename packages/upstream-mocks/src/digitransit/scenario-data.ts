// The data a scenario sets, below the resolvers that read it and the scenario table that names it.

/** A transit leg's realtime: a delay in seconds (UPDATED), or SCHEDULED / CANCELED. */
export type Realtime = number | 'SCHEDULED' | 'CANCELED';
/** A recorded itinerary, minutes after the search, and the realtime of each of its transit legs. */
export type Planned = readonly [itinerary: string, departIn: number, realtime: readonly Realtime[]];

export const S = 'SCHEDULED';
export const X = 'CANCELED';

export type DepartureVariant = 'mixed' | 'scheduled' | 'empty';
export type RoutingErrorCode = 'NO_TRANSIT_CONNECTION' | 'OUTSIDE_BOUNDS' | 'LOCATION_NOT_FOUND';

/** What a data scenario sets in the data the GraphQL query is executed against. */
export interface ScenarioData {
  /** The itineraries of each planConnection request of the selection, by its number (the last repeats). */
  readonly plans: readonly (readonly Planned[])[];
  /** The routing error planConnection answers instead of itineraries. */
  readonly routingError?: readonly [code: RoutingErrorCode, inputField: 'FROM' | null];
  readonly departures: DepartureVariant;
  /** Stops, routes and legs carry the service alerts of alerts.ts. */
  readonly alerts: boolean;
}
