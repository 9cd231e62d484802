import { SwitchyardError } from '@switchyard/contracts/errors';
import {
  MAX_DISAMBIGUATION_SUGGESTIONS,
  MAX_TOP_JOURNEYS,
  type JourneyDisambiguationSuggestion,
  type JourneyLegSummary,
  type JourneyOptionSummary,
  type JourneyPlanRequest,
  type PlanJourneyOutput,
} from '@switchyard/contracts/transit';
import { londonLocalToIso } from '../time.js';
import { malformed } from '../upstream.js';
import { nonEmpty } from '../wire.js';
import { TFL, type TflClient } from './client.js';
import { tflAnswer } from './tfl-answer.js';
import type { Disambiguation, DisambiguationResult, TflFare, TflJourney, TflLeg } from './wire.js';

export interface PlanJourneyDeps {
  /** Under PLAN_JOURNEY_TPS: rate-limited before TfL is asked, once the request's path is built. */
  tfl: TflClient;
}

/** A TfL date-time as an instant with the London offset; undefined when absent or unreadable. */
function instant(value: string | undefined): string | undefined {
  return value === undefined ? undefined : londonLocalToIso(value);
}

function minutesBetween(fromIso: string, toIso: string): number {
  return Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000);
}

/** A whole, non-negative number of minutes, or the fallback when TfL's value is missing or odd. */
function minutes(value: number | undefined, fallback: number): number {
  const chosen = value !== undefined && value >= 0 ? value : fallback;
  return Math.max(0, Math.round(chosen));
}

interface JourneyTimes {
  start: string;
  arrival: string;
}

function toLeg(leg: TflLeg, journey: JourneyTimes): JourneyLegSummary {
  const line = leg.routeOptions.map((option) => nonEmpty(option.name)).find((name) => name !== undefined);
  const from = nonEmpty(leg.departurePoint?.commonName) ?? 'start';
  const to = nonEmpty(leg.arrivalPoint?.commonName) ?? 'destination';
  const mode = nonEmpty(leg.mode?.id) ?? nonEmpty(leg.mode?.name) ?? 'unknown';
  // A leg without readable times (rare) is placed at the journey's ends.
  const departureTime = instant(leg.departureTime) ?? journey.start;
  const arrivalTime = instant(leg.arrivalTime) ?? journey.arrival;
  return {
    mode,
    line,
    summary: nonEmpty(leg.instruction?.summary) ?? `${mode} from ${from} to ${to}`,
    from,
    to,
    departureTime,
    arrivalTime,
    durationMinutes: minutes(leg.duration, minutesBetween(departureTime, arrivalTime)),
    distanceMeters: leg.distance !== undefined && leg.distance >= 0 ? leg.distance : undefined,
    isDisrupted: leg.isDisrupted === true,
  };
}

/** Pence: `totalCost`, else the sum of the single fares when every one has a cost. */
function farePence(fare: TflFare | undefined): number | undefined {
  const costs = fare?.fares.map((single) => single.cost) ?? [];
  const summed =
    costs.length > 0 && costs.every((cost) => cost !== undefined)
      ? costs.reduce<number>((sum, cost) => sum + cost!, 0)
      : undefined;
  const pence = fare?.totalCost ?? summed;
  return pence !== undefined && Number.isInteger(pence) && pence >= 0 ? pence : undefined;
}

/** A journey as the contract's summary; undefined when its start or arrival time cannot be read. */
export function toJourneyOption(journey: TflJourney): JourneyOptionSummary | undefined {
  const start = instant(journey.startDateTime);
  const arrival = instant(journey.arrivalDateTime);
  if (start === undefined || arrival === undefined) return undefined;
  const legs = journey.legs.map((leg) => toLeg(leg, { start, arrival }));
  const pence = farePence(journey.fare);
  return {
    durationMinutes: minutes(journey.duration, minutesBetween(start, arrival)),
    startDateTime: start,
    arrivalDateTime: arrival,
    legCount: legs.length,
    legs,
    farePence: pence,
    isDisrupted: legs.some((leg) => leg.isDisrupted),
  };
}

/**
 * Fastest first; equal durations: the earlier arrival first. At most five. Journeys whose times cannot be
 * read are left out; when that is all of them, TfL's answer is malformed.
 */
export function topJourneys(journeys: readonly TflJourney[]): JourneyOptionSummary[] {
  const options = journeys.flatMap((journey) => toJourneyOption(journey) ?? []);
  if (journeys.length > 0 && options.length === 0) throw malformed(TFL, 'journey result (no readable times)');
  return options
    .sort(
      (a, b) =>
        a.durationMinutes - b.durationMinutes ||
        Date.parse(a.arrivalDateTime) - Date.parse(b.arrivalDateTime),
    )
    .slice(0, MAX_TOP_JOURNEYS);
}

/**
 * How TfL resolved one side. `list`: the user must choose (also a side with options but no `matchStatus`);
 * `identified`: resolved; `unmatched`: nothing found (`notidentified`, `empty`, or a list with no usable
 * option); `absent`: TfL said nothing about the side.
 */
type SideState = 'list' | 'identified' | 'unmatched' | 'absent';

function statusOf(side: Disambiguation): string | undefined {
  return nonEmpty(side.matchStatus)?.toLowerCase();
}

function stateOf(side: Disambiguation | undefined): SideState {
  if (side === undefined) return 'absent';
  if (statusOf(side) === 'identified') return 'identified';
  return suggestionsFor(side) === null ? 'unmatched' : 'list';
}

/** Suggestions for one side when TfL asks the user to choose; null otherwise. */
export function suggestionsFor(side: Disambiguation | undefined): JourneyDisambiguationSuggestion[] | null {
  if (side === undefined) return null;
  const status = statusOf(side);
  if (status !== 'list' && status !== undefined) return null;
  const suggestions = side.disambiguationOptions.flatMap((option) => {
    const parameterValue = nonEmpty(option.parameterValue);
    if (parameterValue === undefined) return [];
    const place = option.place;
    const suggestion: JourneyDisambiguationSuggestion = {
      parameterValue,
      matchQuality: option.matchQuality ?? null,
      name: nonEmpty(place?.commonName) ?? parameterValue,
      placeType: nonEmpty(place?.placeType),
      lat: place?.lat,
      lon: place?.lon,
    };
    return [suggestion];
  });
  if (suggestions.length === 0) return null;
  // Best match first; suggestions without a quality go last, in TfL's order (the sort is stable).
  return suggestions
    .sort((a, b) => (b.matchQuality ?? -Infinity) - (a.matchQuality ?? -Infinity))
    .slice(0, MAX_DISAMBIGUATION_SUGGESTIONS);
}

const UNMATCHED_ADVICE = 'check the spelling, or use a postcode, a stop code or "lat,lon"';

function sideNames(input: JourneyPlanRequest, from: boolean, to: boolean): string {
  return [from ? `from "${input.from}"` : undefined, to ? `to "${input.to}"` : undefined]
    .filter((side) => side !== undefined)
    .join(' and ');
}

function disambiguationOutcome(input: JourneyPlanRequest, result: DisambiguationResult): PlanJourneyOutput {
  const from = suggestionsFor(result.fromLocationDisambiguation);
  const to = suggestionsFor(result.toLocationDisambiguation);
  const unmatched = sideNames(
    input,
    stateOf(result.fromLocationDisambiguation) === 'unmatched',
    stateOf(result.toLocationDisambiguation) === 'unmatched',
  );
  if (from === null && to === null) {
    // Nothing to choose from: TfL found no place at all for a side.
    throw new SwitchyardError(
      'validation',
      unmatched === ''
        ? `TfL could not resolve the places of this journey; ${UNMATCHED_ADVICE}`
        : `TfL found no place matching ${unmatched}; ${UNMATCHED_ADVICE}`,
    );
  }
  return {
    success: false,
    code: 'DISAMBIGUATION_REQUIRED',
    message:
      `TfL could not uniquely identify ${sideNames(input, from !== null, to !== null)}. Retry planJourney ` +
      'with one of the suggested `parameterValue` values as `from`/`to`.' +
      (unmatched === '' ? '' : ` TfL also found no place matching ${unmatched}; ${UNMATCHED_ADVICE}.`),
    topJourneys: null,
    fromLocationDisambiguation: from,
    toLocationDisambiguation: to,
  };
}

const STEP_FREE_NOTE = ' Only step-free routes (step-free access to the platform) were requested.';

/** planJourney (seed 000): TfL JourneyResults as the contract's envelope. Errors are thrown. */
export async function planJourney(
  input: JourneyPlanRequest,
  deps: PlanJourneyDeps,
  signal?: AbortSignal,
): Promise<PlanJourneyOutput> {
  const stepFree = input.needAccessibleRoute === true;
  const outcome = await tflAnswer(() =>
    deps.tfl.journeyResults({ from: input.from, to: input.to, stepFree }, signal),
  );
  const note = stepFree ? STEP_FREE_NOTE : '';
  if (outcome.kind === 'disambiguation') return disambiguationOutcome(input, outcome.result);
  const journeys = outcome.kind === 'journeys' ? topJourneys(outcome.result.journeys) : [];
  const message =
    journeys.length === 0
      ? `No journey found from "${input.from}" to "${input.to}".${note}`
      : `${journeys.length} fastest ${journeys.length === 1 ? 'journey' : 'journeys'} from "${input.from}" ` +
        `to "${input.to}", shortest first.${note}`;
  return {
    success: true,
    code: 'OK',
    message,
    topJourneys: journeys,
    fromLocationDisambiguation: null,
    toLocationDisambiguation: null,
  };
}
