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
import type { CallLimiter } from '@switchyard/resilience';
import { londonLocalToIso } from '../time.js';
import type { TflClient } from './client.js';
import type { Disambiguation, DisambiguationResult, TflJourney, TflLeg } from './wire.js';

export interface PlanJourneyDeps {
  tfl: TflClient;
  /** PLAN_JOURNEY_TPS: throws rate-limited before TfL is asked. */
  limiter: CallLimiter;
}

function malformedTime(what: string): SwitchyardError {
  return new SwitchyardError('upstream-error', `TfL sent a journey with an unreadable ${what}`, {
    retryable: false,
    details: { upstream: 'TfL', reason: `unreadable ${what}` },
  });
}

function instant(local: string | null | undefined, what: string): string {
  const iso = local == null ? undefined : londonLocalToIso(local);
  if (iso === undefined) throw malformedTime(what);
  return iso;
}

function nonEmpty(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function toLeg(leg: TflLeg, journey: TflJourney): JourneyLegSummary {
  const line = leg.routeOptions?.map((option) => nonEmpty(option.name)).find((name) => name !== undefined);
  const from = nonEmpty(leg.departurePoint?.commonName) ?? 'start';
  const to = nonEmpty(leg.arrivalPoint?.commonName) ?? 'destination';
  const mode = nonEmpty(leg.mode?.id) ?? nonEmpty(leg.mode?.name) ?? 'unknown';
  return {
    mode,
    ...(line === undefined ? {} : { line }),
    summary: nonEmpty(leg.instruction?.summary) ?? `${mode} from ${from} to ${to}`,
    from,
    to,
    departureTime: instant(leg.departureTime ?? journey.startDateTime, 'leg departure time'),
    arrivalTime: instant(leg.arrivalTime ?? journey.arrivalDateTime, 'leg arrival time'),
    durationMinutes: Math.max(0, Math.round(leg.duration ?? 0)),
    ...(typeof leg.distance === 'number' && leg.distance >= 0 ? { distanceMeters: leg.distance } : {}),
    isDisrupted: leg.isDisrupted === true,
  };
}

export function toJourneyOption(journey: TflJourney): JourneyOptionSummary {
  const legs = (journey.legs ?? []).map((leg) => toLeg(leg, journey));
  const fare = journey.fare?.totalCost;
  return {
    durationMinutes: Math.max(0, Math.round(journey.duration)),
    startDateTime: instant(journey.startDateTime, 'start time'),
    arrivalDateTime: instant(journey.arrivalDateTime, 'arrival time'),
    legCount: legs.length,
    legs,
    ...(typeof fare === 'number' && Number.isInteger(fare) && fare >= 0 ? { farePence: fare } : {}),
    isDisrupted: legs.some((leg) => leg.isDisrupted),
  };
}

/** Fastest first; equal durations: the earlier arrival first. At most five. */
export function topJourneys(journeys: readonly TflJourney[]): JourneyOptionSummary[] {
  return journeys
    .map(toJourneyOption)
    .sort(
      (a, b) =>
        a.durationMinutes - b.durationMinutes ||
        Date.parse(a.arrivalDateTime) - Date.parse(b.arrivalDateTime),
    )
    .slice(0, MAX_TOP_JOURNEYS);
}

/** Suggestions for one side when TfL asks the user to choose (`matchStatus` list); null otherwise. */
export function suggestionsFor(
  side: Disambiguation | null | undefined,
): JourneyDisambiguationSuggestion[] | null {
  if (side?.matchStatus?.toLowerCase() !== 'list') return null;
  const suggestions = (side.disambiguationOptions ?? []).flatMap((option) => {
    const parameterValue = nonEmpty(option.parameterValue);
    if (parameterValue === undefined) return [];
    const place = option.place;
    const suggestion: JourneyDisambiguationSuggestion = {
      parameterValue,
      matchQuality: typeof option.matchQuality === 'number' ? option.matchQuality : null,
      name: nonEmpty(place?.commonName) ?? parameterValue,
      ...(nonEmpty(place?.placeType) === undefined ? {} : { placeType: nonEmpty(place?.placeType)! }),
      ...(typeof place?.lat === 'number' ? { lat: place.lat } : {}),
      ...(typeof place?.lon === 'number' ? { lon: place.lon } : {}),
    };
    return [suggestion];
  });
  if (suggestions.length === 0) return null;
  // Best match first; suggestions without a quality go last, in TfL's order (the sort is stable).
  return suggestions
    .sort((a, b) => (b.matchQuality ?? -Infinity) - (a.matchQuality ?? -Infinity))
    .slice(0, MAX_DISAMBIGUATION_SUGGESTIONS);
}

function describeAmbiguity(input: JourneyPlanRequest, from: unknown[] | null, to: unknown[] | null): string {
  const sides = [
    from !== null ? `from "${input.from}"` : undefined,
    to !== null ? `to "${input.to}"` : undefined,
  ]
    .filter((side) => side !== undefined)
    .join(' and ');
  return (
    `TfL could not uniquely identify ${sides}. Retry planJourney with one of the suggested ` +
    '`parameterValue` values as `from`/`to`.'
  );
}

function disambiguationOutcome(input: JourneyPlanRequest, result: DisambiguationResult): PlanJourneyOutput {
  const from = suggestionsFor(result.fromLocationDisambiguation);
  const to = suggestionsFor(result.toLocationDisambiguation);
  if (from === null && to === null) {
    // Nothing to choose from: TfL found no place at all for a side (matchStatus "empty").
    const unknown = [
      result.fromLocationDisambiguation?.matchStatus !== 'identified' ? `from "${input.from}"` : undefined,
      result.toLocationDisambiguation?.matchStatus !== 'identified' ? `to "${input.to}"` : undefined,
    ].filter((side) => side !== undefined);
    throw new SwitchyardError(
      'validation',
      `TfL found no place matching ${unknown.join(' and ') || 'the request'}; ` +
        'check the spelling, or use a postcode, a stop code or "lat,lon"',
    );
  }
  return {
    success: false,
    code: 'DISAMBIGUATION_REQUIRED',
    message: describeAmbiguity(input, from, to),
    topJourneys: null,
    fromLocationDisambiguation: from,
    toLocationDisambiguation: to,
  };
}

const STEP_FREE_NOTE = ' Only step-free routes (step-free access to the platform) were requested.';

/** 429 from TfL without a Retry-After still tells the caller how long to wait. */
function withWait(error: SwitchyardError): SwitchyardError {
  if (error.kind !== 'rate-limited' || error.retryAfterMs !== undefined) return error;
  return new SwitchyardError(
    'rate-limited',
    `${error.message}; TfL gave no Retry-After, so wait at least 1 s before retrying`,
    { retryAfterMs: 1000, retryable: true, cause: error, details: error.details ?? {} },
  );
}

/** planJourney (seed 000): TfL JourneyResults as the contract's envelope. Errors are thrown. */
export async function planJourney(
  input: JourneyPlanRequest,
  deps: PlanJourneyDeps,
  signal?: AbortSignal,
): Promise<PlanJourneyOutput> {
  await deps.limiter.consume();
  const stepFree = input.needAccessibleRoute === true;
  let outcome;
  try {
    outcome = await deps.tfl.journeyResults({ from: input.from, to: input.to, stepFree }, signal);
  } catch (error) {
    throw error instanceof SwitchyardError ? withWait(error) : error;
  }
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
