import type { Client } from '@modelcontextprotocol/client';
import {
  FindStopsOutputSchema,
  GetDeparturesOutputSchema,
  PlanTripOutputSchema,
  SaveUserVariableOutputSchema,
} from '@switchyard/contracts/transit';
import { callTool } from '../call.js';
import { chapter, clock, line, minutes, signedDelay, step } from '../print.js';

const STATUS_TEXT = {
  on_time: 'on time',
  delayed: 'delayed',
  cancelled: 'CANCELLED',
  scheduled_only: 'timetable only',
} as const;

/** find_stops, saved places, get_departures by label, and plan_trip from a saved place. */
export async function helsinkiTrip(client: Client): Promise<void> {
  chapter(
    '2. Helsinki: departures and a trip from a saved place',
    'The same rider is in Helsinki. They look up their stop, save it and their home under short names,\n' +
      'then ask for departures and a trip plan by those names.',
  );

  step('find_stops', 'stops named "Rautatientori"');
  const found = await callTool(
    client,
    'find_stops',
    { name: 'Rautatientori', limit: 3 },
    FindStopsOutputSchema,
  );
  for (const stop of found.stops)
    line(`- ${stop.name} ${stop.code ?? ''} (${stop.stopId}, ${stop.mode ?? 'stop'})`);
  const stop = found.stops[0];
  if (stop === undefined) throw new Error('find_stops found no stop called Rautatientori');

  step('save_user_variable', `"my stop" = ${stop.stopId}, and "home" = a flat near Kamppi`);
  await callTool(
    client,
    'save_user_variable',
    { key: 'my stop', value: { type: 'stop', stopId: stop.stopId, name: stop.name } },
    SaveUserVariableOutputSchema,
  );
  const home = await callTool(
    client,
    'save_user_variable',
    {
      key: 'home',
      value: { type: 'location', lat: 60.1686, lon: 24.9312, name: 'Home', address: 'Fredrikinkatu 20' },
    },
    SaveUserVariableOutputSchema,
  );
  line(`saved "${home.saved.key}" (and "my stop"); they stay saved across restarts`);

  step('get_departures', 'the next 6 departures from "my stop" in the coming 30 minutes');
  const board = await callTool(
    client,
    'get_departures',
    { stop: { type: 'label', value: 'my stop' }, windowMinutes: 30, limit: 6 },
    GetDeparturesOutputSchema,
  );
  line(`${board.stopName ?? board.stopId}: ${board.realtimeUsed ? 'with realtime data' : 'timetable only'}`);
  for (const departure of board.departures) {
    const when = clock(departure.realtimeTime ?? departure.scheduledTime);
    const delay = departure.status === 'delayed' ? ` (${signedDelay(departure.delaySeconds)})` : '';
    line(
      `${when}  ${departure.mode.padEnd(6)} ${departure.line.padEnd(4)} → ${departure.destination}  ` +
        `${STATUS_TEXT[departure.status]}${delay}`,
      2,
    );
  }
  for (const warning of board.warnings ?? []) line(`note: ${warning.message}`, 2);

  step('plan_trip', 'from "home" to Pasila station, leaving now, at most 2 options');
  const trip = await callTool(
    client,
    'plan_trip',
    {
      origin: { type: 'label', value: 'home' },
      destination: { type: 'coords', value: { lat: 60.1989, lon: 24.9336 } },
      limit: 2,
    },
    PlanTripOutputSchema,
  );
  line(`from ${trip.origin.name ?? trip.origin.label ?? 'home'}; realtime: ${trip.realtimeUsed}`);
  trip.itineraries.forEach((itinerary, index) => {
    line(
      `${index + 1}. ${clock(itinerary.startTime)} → ${clock(itinerary.endTime)}  ${minutes(itinerary.durationSeconds)}, ` +
        `${itinerary.transfers} transfers, ${Math.round(itinerary.walkDistanceMeters)} m walking` +
        (itinerary.disrupted ? '  ⚠ disrupted' : ''),
      2,
    );
    for (const leg of itinerary.legs) {
      const what = leg.transit ? `${leg.mode} ${leg.line ?? ''} (${STATUS_TEXT[leg.status]})` : 'walk';
      line(`- ${what} ${leg.from.name} → ${leg.to.name}`, 4);
    }
  });
  for (const warning of trip.warnings ?? []) line(`note: ${warning.message}`, 2);
}
