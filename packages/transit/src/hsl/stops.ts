// find_stops: HSL stops by name/code (`stops(name:)`) or around a coordinate (`stopsByRadius`).
import type { FindStopsOutput, FoundStop, Language, Warning } from '@switchyard/contracts/transit';
import { z } from 'zod';
import { lenientList, nonEmpty, optionalNumber, optionalObject, optionalText, wireNumber } from '../wire.js';
import type { RoutingClient } from './client.js';
import { STOPS_BY_NAME_QUERY, STOPS_NEAR_QUERY } from './queries.js';
import { toTransitMode } from './realtime.js';

/** A stop; OTP's `lat`/`lon` are nullable, and a stop without them (or without an id) is left out. */
const StopSchema = z.object({
  gtfsId: z.string().min(1),
  name: optionalText,
  code: optionalText,
  platformCode: optionalText,
  lat: wireNumber,
  lon: wireNumber,
  vehicleMode: optionalText,
});
type OtpStop = z.infer<typeof StopSchema>;

export const StopsByNameDataSchema = z.object({ stops: lenientList(StopSchema) });
export const StopsNearDataSchema = z.object({
  stopsByRadius: optionalObject(
    z.object({
      edges: lenientList(z.object({ node: z.object({ distance: optionalNumber, stop: StopSchema }) })),
    }),
  ),
});

export function toFoundStop(stop: OtpStop, distance?: number): FoundStop {
  const code = nonEmpty(stop.code);
  return {
    stopId: stop.gtfsId,
    name: nonEmpty(stop.name) ?? code ?? stop.gtfsId,
    code,
    platform: nonEmpty(stop.platformCode),
    lat: stop.lat,
    lon: stop.lon,
    mode: stop.vehicleMode ? toTransitMode(stop.vehicleMode) : undefined,
    distanceMeters: typeof distance === 'number' && distance >= 0 ? distance : undefined,
  };
}

/** Exact name or code matches first, then names starting with the query, then the rest (OTP's order kept). */
export function rankByName(stops: readonly FoundStop[], query: string): FoundStop[] {
  const q = query.trim().toLocaleLowerCase();
  const rank = (stop: FoundStop): number => {
    const name = stop.name.toLocaleLowerCase();
    if (name === q || stop.code?.toLocaleLowerCase() === q) return 0;
    return name.startsWith(q) ? 1 : 2;
  };
  return stops
    .map((stop, index) => ({ stop, index, rank: rank(stop) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ stop }) => stop);
}

export interface FindStopsQuery {
  name?: string;
  near?: { lat: number; lon: number };
  radiusMeters: number;
  limit: number;
  language: Language;
  signal?: AbortSignal;
}

export async function findStops(routing: RoutingClient, query: FindStopsQuery): Promise<FindStopsOutput> {
  const signal = query.signal === undefined ? {} : { signal: query.signal };
  let found: FoundStop[];
  if (query.near !== undefined) {
    const data = await routing.query(
      {
        document: STOPS_NEAR_QUERY,
        variables: {
          lat: query.near.lat,
          lon: query.near.lon,
          radius: query.radiusMeters,
          first: query.limit + 1,
        },
        language: query.language,
        ...signal,
      },
      StopsNearDataSchema,
    );
    found = (data.stopsByRadius?.edges ?? [])
      .map((edge) => toFoundStop(edge.node.stop, edge.node.distance))
      .sort((a, b) => (a.distanceMeters ?? 0) - (b.distanceMeters ?? 0));
  } else {
    const name = query.name ?? '';
    const data = await routing.query(
      { document: STOPS_BY_NAME_QUERY, variables: { name }, language: query.language, ...signal },
      StopsByNameDataSchema,
    );
    found = rankByName(
      data.stops.map((stop) => toFoundStop(stop)),
      name,
    );
  }
  const warnings: Warning[] =
    found.length > query.limit
      ? [
          {
            code: 'truncated-results',
            message: `More stops matched than limit=${query.limit}; narrow the search or raise limit.`,
          },
        ]
      : [];
  return { stops: found.slice(0, query.limit), warnings: warnings.length === 0 ? undefined : warnings };
}
