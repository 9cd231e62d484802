import type { Client } from '@modelcontextprotocol/client';
import {
  GetLineStatusOutputSchema,
  GetLondonArrivalsOutputSchema,
  PlanJourneyOutputSchema,
  SaveUserVariableOutputSchema,
  type JourneyOptionSummary,
  type PlanJourneyOutput,
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

/**
 * planJourney for the journey the TfL stand-in holds a recording of (King's Cross St. Pancras to Waterloo), so
 * that every leg shown is one TfL planned; then an ambiguous request, answered with the recorded suggestions.
 */
export async function londonJourney(client: Client, tfl: TflMock): Promise<void> {
  chapter(
    '1. London: plan a journey with TfL, then catch the next train',
    "A rider at King's Cross asks for the way to Waterloo and gets TfL's fastest journeys. Asked for\n" +
      '"Victoria" to "Highgate", TfL knows several places by each name, so it answers with suggestions to\n' +
      'choose from. Then the rider checks the lines on the way, saves their station and asks when the next\n' +
      'Victoria line trains leave it.',
  );
  await fastestJourneys(client, { from: "King's Cross St. Pancras", to: 'Waterloo' });
  // The mock plays TfL's answer for two ambiguous places once.
  tfl.scenario('disambiguation-both', { times: 1 });
  await suggestions(client, { from: 'Victoria', to: 'Highgate' });
  await lineStatus(client);
  await nextTrains(client);
}

interface JourneyAsked {
  from: string;
  to: string;
}

/** planJourney as the rider asks it, with TfL's code and message. */
async function askTfl(client: Client, journey: JourneyAsked): Promise<PlanJourneyOutput> {
  step('planJourney', `from "${journey.from}" to "${journey.to}"`);
  const answer = await callTool(client, 'planJourney', { ...journey }, PlanJourneyOutputSchema, {
    envelope: true,
  });
  line(`${answer.code}: ${answer.message}`);
  return answer;
}

async function fastestJourneys(client: Client, journey: JourneyAsked): Promise<void> {
  const answer = await askTfl(client, journey);
  if (!answer.success || answer.topJourneys === null)
    throw new Error(`expected journeys, got ${answer.code}`);
  line('The fastest options, quickest first:');
  answer.topJourneys.slice(0, 3).forEach(describeOption);
}

/** What TfL suggests for each side it could not place; a client calls again with a `parameterValue`. */
async function suggestions(client: Client, journey: JourneyAsked): Promise<void> {
  const answer = await askTfl(client, journey);
  const sides = [
    [journey.from, answer.fromLocationDisambiguation],
    [journey.to, answer.toLocationDisambiguation],
  ] as const;
  if (answer.code !== 'DISAMBIGUATION_REQUIRED' || sides.every(([, options]) => options === null)) {
    throw new Error(`expected DISAMBIGUATION_REQUIRED with suggestions, got ${answer.code}`);
  }
  for (const [asked, options] of sides) {
    if (options === null) continue;
    line(`"${asked}" could be:`, 2);
    for (const suggestion of options.slice(0, 3)) {
      const quality = suggestion.matchQuality === null ? '' : ` (match ${suggestion.matchQuality})`;
      line(
        `- ${suggestion.name}, ${suggestion.placeType ?? 'place'}${quality}: "${suggestion.parameterValue}"`,
        3,
      );
    }
  }
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
