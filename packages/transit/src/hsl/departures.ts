import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  GTFS_ID_PATTERN,
  type Departure,
  type GetDeparturesOutput,
  type AnswerWarning,
  type GetDeparturesRequest,
} from '@switchyard/contracts/transit';
import { z } from 'zod';
import { formatUtc } from '../time.js';
import { lenientList, nonEmpty, optionalBoolean, optionalObject, optionalText, wireNumber } from '../wire.js';
import {
  OtpAlertsSchema,
  serviceAlertWarnings,
  type AlertLimits,
  type AlertSource,
  type OtpAlert,
} from './alerts.js';
import type { RoutingClient } from './client.js';
import { STOP_DEPARTURES_QUERY } from './queries.js';
import { dataFreshness, departureStatus, REALTIME_STATES, toTransitMode } from './realtime.js';

const RouteSchema = z.object({
  gtfsId: optionalText,
  shortName: optionalText,
  longName: optionalText,
  mode: optionalText,
});

/** Epoch seconds of a service day: 1970 to 2100 (anything else is not a time this server can show). */
const serviceDaySeconds = wireNumber.pipe(z.number().min(0).max(4_102_444_800));
/** Seconds from the service day's start: GTFS allows beyond 24 h (trips after midnight), not beyond days. */
const daySeconds = wireNumber.pipe(z.number().min(-172_800).max(345_600));

/**
 * One `Stoptime` as selected by STOP_DEPARTURES_QUERY (also accepts the pattern-based route of older
 * captures). Without `serviceDay` and `scheduledDeparture` a stoptime cannot be placed in time, and is left out.
 */
export const StoptimeSchema = z.object({
  serviceDay: serviceDaySeconds,
  scheduledDeparture: daySeconds,
  realtimeDeparture: daySeconds.optional().catch(undefined),
  realtime: optionalBoolean,
  realtimeState: optionalText,
  headsign: optionalText,
  stop: optionalObject(z.object({ platformCode: optionalText })),
  trip: optionalObject(
    z.object({
      tripHeadsign: optionalText,
      alerts: OtpAlertsSchema,
      route: optionalObject(RouteSchema),
      pattern: optionalObject(z.object({ route: optionalObject(RouteSchema) })),
    }),
  ),
});
export type Stoptime = z.infer<typeof StoptimeSchema>;

export const StopDeparturesDataSchema = z.object({
  stop: z
    .object({
      gtfsId: optionalText,
      name: optionalText,
      alerts: OtpAlertsSchema,
      routes: lenientList(z.object({ gtfsId: optionalText, alerts: OtpAlertsSchema })),
      stoptimesWithoutPatterns: lenientList(StoptimeSchema),
    })
    .nullable(),
});

interface MappedDeparture {
  departure: Departure;
  /** Realtime time if present, else scheduled (epoch ms): the sort key of rule 4. */
  effectiveMs: number;
  cancelled: boolean;
  /** Its route's GTFS id, when known (route alerts come once per route, with the stop). */
  routeId: string | undefined;
  /** The alerts of its trip. */
  tripAlerts: OtpAlert[];
}

/**
 * Whether OTP has realtime data for the stoptime: its `realtime` flag, or (when a provider leaves the flag
 * out) a realtime state other than SCHEDULED: UPDATED, ADDED (an extra trip) or MODIFIED (a changed one).
 */
function hasRealtimeData(stoptime: Stoptime): boolean {
  if (stoptime.realtime !== undefined) return stoptime.realtime;
  const state = stoptime.realtimeState?.toUpperCase();
  return state !== undefined && REALTIME_STATES.has(state);
}

/** A stoptime as a Departure: absolute times from `serviceDay + seconds`, delay and status per seed 001. */
export function toDeparture(stoptime: Stoptime): MappedDeparture {
  const scheduledMs = (stoptime.serviceDay + stoptime.scheduledDeparture) * 1000;
  const cancelled = stoptime.realtimeState?.toUpperCase() === 'CANCELED';
  const realtimeSeconds = hasRealtimeData(stoptime) && !cancelled ? stoptime.realtimeDeparture : undefined;
  const realtimeMs =
    realtimeSeconds === undefined ? undefined : (stoptime.serviceDay + realtimeSeconds) * 1000;
  const delaySeconds = realtimeMs === undefined ? undefined : Math.round((realtimeMs - scheduledMs) / 1000);
  const route = stoptime.trip?.route ?? stoptime.trip?.pattern?.route;
  const platform = nonEmpty(stoptime.stop?.platformCode);
  const departure: Departure = {
    line: nonEmpty(route?.shortName) ?? nonEmpty(route?.longName) ?? '',
    mode: toTransitMode(route?.mode),
    destination: nonEmpty(stoptime.headsign) ?? nonEmpty(stoptime.trip?.tripHeadsign) ?? '',
    scheduledTime: formatUtc(scheduledMs),
    realtimeTime: realtimeMs === undefined ? undefined : formatUtc(realtimeMs),
    delaySeconds,
    status: departureStatus({ cancelled, delaySeconds }),
    platform,
  };
  return {
    departure,
    effectiveMs: realtimeMs ?? scheduledMs,
    cancelled,
    routeId: nonEmpty(route?.gtfsId),
    tripAlerts: stoptime.trip?.alerts ?? [],
  };
}

export interface DepartureBoard {
  departures: Departure[];
  truncated: boolean;
  realtimeUsed: boolean;
  dataFreshness: string;
  /** The departures kept that name a line: the line, its route and the trip's alerts. */
  served: { line: string; routeId: string | undefined; tripAlerts: OtpAlert[] }[];
}

/**
 * Seed 001 rules 3 to 6 over mapped stoptimes: drop those past the window, sort by realtime-else-scheduled
 * time, keep `limit`, flag truncation, realtimeUsed and dataFreshness.
 */
export function buildBoard(
  stoptimes: readonly Stoptime[],
  options: { limit: number; windowEndMs: number; requestReceivedMs: number },
): DepartureBoard {
  const mapped = stoptimes
    .map(toDeparture)
    .filter((item) => item.effectiveMs <= options.windowEndMs)
    .sort((a, b) => a.effectiveMs - b.effectiveMs);
  const kept = mapped.slice(0, options.limit);
  return {
    departures: kept.map((item) => item.departure),
    truncated: mapped.length > options.limit,
    realtimeUsed: kept.some((item) => item.cancelled || item.departure.realtimeTime !== undefined),
    // OTP's Stoptime carries no update timestamp, so the request time is the freshness floor here.
    dataFreshness: dataFreshness(options.requestReceivedMs, []),
    served: kept
      .filter((item) => item.departure.line !== '')
      .map(({ departure, routeId, tripAlerts }) => ({ line: departure.line, routeId, tripAlerts })),
  };
}

export function parseStopId(value: string): string {
  const id = value.trim();
  if (!GTFS_ID_PATTERN.test(id)) {
    throw new SwitchyardError('validation', `"${id}" is not a stop id: expected FEED:ID, e.g. HSL:1040129`, {
      hint: 'Use find_stops to look up the stop id by name or near a coordinate.',
    });
  }
  return id;
}

export interface DeparturesQuery {
  stopId: string;
  request: GetDeparturesRequest;
  correlationId: string;
  requestReceivedMs: number;
  alertLimits: AlertLimits;
  signal?: AbortSignal;
}

/** get_departures for a resolved stop id: one GraphQL query, then the seed's rules. */
export async function getDepartures(
  routing: RoutingClient,
  query: DeparturesQuery,
): Promise<GetDeparturesOutput> {
  const { request, requestReceivedMs } = query;
  const startTime = Math.floor(requestReceivedMs / 1000);
  const timeRange = request.windowMinutes * 60;
  const data = await routing.query(
    {
      document: STOP_DEPARTURES_QUERY,
      // One more than asked for, so that "more existed than limit" can be told.
      variables: {
        id: query.stopId,
        startTime,
        timeRange,
        numberOfDepartures: request.limit + 1,
        withAlerts: query.alertLimits.max > 0,
      },
      language: request.language,
      signal: query.signal,
    },
    StopDeparturesDataSchema,
  );
  if (data.stop === null) {
    throw new SwitchyardError('validation', `stop not found: ${query.stopId}`, {
      hint: 'Check the id, or use find_stops to look it up by name or near a coordinate.',
    });
  }
  const board = buildBoard(data.stop.stoptimesWithoutPatterns, {
    limit: request.limit,
    windowEndMs: (startTime + timeRange) * 1000,
    requestReceivedMs,
  });
  const stopId = nonEmpty(data.stop.gtfsId) ?? query.stopId;
  const window = { startMs: startTime * 1000, endMs: (startTime + timeRange) * 1000 };
  // The alerts of each route serving the stop, by route id; a departure's line shows those of its route.
  const routeAlerts = new Map<string, OtpAlert[]>();
  for (const route of data.stop.routes) {
    const id = nonEmpty(route.gtfsId);
    if (id !== undefined) routeAlerts.set(id, route.alerts);
  }
  const alertSources: AlertSource[] = [
    { alerts: data.stop.alerts, affects: { stopId }, window },
    ...board.served.map(({ line, routeId, tripAlerts }) => ({
      alerts: [...((routeId && routeAlerts.get(routeId)) || []), ...tripAlerts],
      affects: { line },
      window,
    })),
  ];
  const warnings: AnswerWarning[] = board.truncated
    ? [
        {
          code: 'truncated-results',
          message: `More departures exist in the next ${request.windowMinutes} minutes than limit=${request.limit}; raise limit to see them.`,
        },
      ]
    : [];
  warnings.push(
    ...serviceAlertWarnings(alertSources, { language: request.language, limits: query.alertLimits }),
  );
  return {
    stopId,
    stopName: nonEmpty(data.stop.name),
    realtimeUsed: board.realtimeUsed,
    dataFreshness: board.dataFreshness,
    departures: board.departures,
    correlationId: query.correlationId,
    warnings: warnings.length === 0 ? undefined : warnings,
  };
}
