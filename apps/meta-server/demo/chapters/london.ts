import type { Client } from '@modelcontextprotocol/client';
import {
  GetLineStatusOutputSchema,
  GetLondonArrivalsOutputSchema,
  PlanJourneyOutputSchema,
  SaveUserVariableOutputSchema,
  type JourneyOptionSummary,
} from '@switchyard/contracts/transit';
import type { TflMock } from '@switchyard/upstream-mocks';
import { callTool } from '../call.js';
import { chapter, clock, line, pence, step } from '../print.js';

function describeOption(option: JourneyOptionSummary, index: number): void {
  const disrupted = option.isDisrupted ? '  ⚠ disrupted' : '';
  line(
    `${index + 1}. ${clock(option.startDateTime)} → ${clock(option.arrivalDateTime)}  ` +
      `${option.durationMinutes} min, ${option.legCount} legs, ${pence(option.farePence)}${disrupted}`,
  );
  for (const leg of option.legs) line(`- ${leg.summary} (${leg.durationMinutes} min)`, 3);
}

/** planJourney with a disambiguation round (TfL knows several places called "Victoria"), then the next trains. */
export async function londonJourney(client: Client, tfl: TflMock): Promise<void> {
  chapter(
    '1. London: plan a journey with TfL, then catch the next train',
    'A rider asks for "Victoria" to King\'s Cross. TfL knows several places by that name, so the first\n' +
      'answer asks which one; the client picks a suggestion and asks again. Then the rider checks the lines\n' +
      'on the way, saves their station and asks when the next Victoria line trains leave it.',
  );
  // The mock plays TfL's answer for an ambiguous origin once; the retry resolves normally.
  tfl.scenario('disambiguation-from', { times: 1 });

  step('planJourney', 'from "Victoria" to "King\'s Cross"');
  const first = await callTool(
    client,
    'planJourney',
    { from: 'Victoria', to: "King's Cross" },
    PlanJourneyOutputSchema,
    { envelope: true },
  );
  line(`${first.code}: ${first.message}`);
  const suggestions = first.fromLocationDisambiguation ?? [];
  for (const suggestion of suggestions.slice(0, 4)) {
    const quality = suggestion.matchQuality === null ? '' : ` (match ${suggestion.matchQuality})`;
    line(
      `- ${suggestion.name}, ${suggestion.placeType ?? 'place'}${quality}: "${suggestion.parameterValue}"`,
      2,
    );
  }
  // A rider going by train means the station, not the museum that matches the name best.
  const chosen = suggestions.find((suggestion) => suggestion.placeType === 'StopPoint') ?? suggestions[0];
  if (first.code !== 'DISAMBIGUATION_REQUIRED' || chosen === undefined) {
    throw new Error(`expected DISAMBIGUATION_REQUIRED with suggestions, got ${first.code}`);
  }

  step('planJourney', `from "${chosen.parameterValue}" (${chosen.name}) to "King's Cross"`);
  const second = await callTool(
    client,
    'planJourney',
    { from: chosen.parameterValue, to: "King's Cross" },
    PlanJourneyOutputSchema,
    { envelope: true },
  );
  line(`${second.code}: ${second.message}`);
  if (!second.success || second.topJourneys === null)
    throw new Error(`expected journeys, got ${second.code}`);
  line('The fastest options, quickest first:');
  second.topJourneys.slice(0, 3).forEach(describeOption);

  await lineStatus(client);
  await nextTrains(client);
}

/** Whether the lines of the trip run well now. */
async function lineStatus(client: Client): Promise<void> {
  step('get_line_status', 'Victoria, Central and Northern lines, now');
  const answer = await callTool(
    client,
    'get_line_status',
    { lines: ['victoria', 'central', 'northern'] },
    GetLineStatusOutputSchema,
    { envelope: true },
  );
  if (!answer.success || answer.lines === null) throw new Error(`expected line status, got ${answer.code}`);
  line(`${answer.code}: ${answer.message}`);
  for (const status of answer.lines) {
    const [first] = status.statuses;
    const reason = status.disrupted && first?.reason !== undefined ? `: ${first.reason}` : '';
    line(`- ${status.name}: ${first?.description ?? 'no status'}${reason}`, 2);
  }
}

/** A saved London stop, and the next arrivals there on one line, soonest first. */
async function nextTrains(client: Client): Promise<void> {
  step('save_user_variable', '"my station" = Oxford Circus (940GZZLUOXC)');
  await callTool(
    client,
    'save_user_variable',
    { key: 'my station', value: { type: 'tfl-stop', naptanId: '940GZZLUOXC', name: 'Oxford Circus' } },
    SaveUserVariableOutputSchema,
  );
  step('get_london_arrivals', '"my station", Victoria line, the next 3');
  const answer = await callTool(
    client,
    'get_london_arrivals',
    { stop: { type: 'label', value: 'my station' }, lines: ['victoria'], limit: 3 },
    GetLondonArrivalsOutputSchema,
    { envelope: true },
  );
  if (!answer.success || answer.arrivals === null) throw new Error(`expected arrivals, got ${answer.code}`);
  line(`${answer.code}: ${answer.message}`);
  for (const arrival of answer.arrivals) {
    const platform = arrival.platform === undefined ? '' : `, ${arrival.platform}`;
    const due = arrival.minutesToArrival === 0 ? 'due' : `${arrival.minutesToArrival} min`;
    line(`- ${due}: ${arrival.lineName} to ${arrival.destination || arrival.towards || '?'}${platform}`, 2);
  }
}
