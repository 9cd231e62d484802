// TfL `ItineraryResult` bodies: the recorded answer in fixtures/tfl/itinerary-result.json (seven journeys from
// King's Cross to Waterloo with unsorted durations and a tie, fares on four, one disrupted leg), moved to the
// requested time and ends. The recorded walking steps and path lines stay as they are.
import { compactDate, localDateTime, localDateTimeMs, LONDON, zonedParts } from '../time.js';
import { movableTimes, readFixture } from '../recorded.js';
import { locationName, stopPointEntity, TFL_TIMES, tflType } from './entities.js';
import type { TflLocation } from './entities.js';

export interface JourneyRequest {
  readonly from: TflLocation;
  readonly to: TflLocation;
  readonly fromText: string;
  readonly toText: string;
  /** Requested instant (ms), already rounded to the minute. */
  readonly dateTimeMs: number;
  readonly timeIs: 'Departing' | 'Arriving';
  /** Query string of the request without `app_key`, for the echoed URIs. */
  readonly queryWithoutKey: string;
}

interface RecordedLeg {
  instruction: { summary: string; detailed: string };
  departurePoint: unknown;
  arrivalPoint: { commonName: string };
}

interface RecordedJourney {
  startDateTime: string;
  arrivalDateTime: string;
  legs: RecordedLeg[];
}

const RECORDED = readFixture<{ journeys: RecordedJourney[]; searchCriteria: { dateTime: string } }>(
  'tfl/itinerary-result.json',
);
const RECORDED_SEARCH_MS = localDateTimeMs(RECORDED.searchCriteria.dateTime, LONDON);

const movable = <T>(value: T) => movableTimes(value, RECORDED_SEARCH_MS, TFL_TIMES);
/** The result around the journeys (the lines' status), and each journey, with their times to move. */
const RESULT_AT = movable({ ...RECORDED, journeys: [] });
const JOURNEYS_AT = RECORDED.journeys.map((journey) => ({ journey, at: movable(journey) }));

/** How far a journey moves: with the search when departing; arriving, it ends as long before as it left after. */
function journeyShift(journey: RecordedJourney, request: JourneyRequest): number {
  if (request.timeIs === 'Departing') return request.dateTimeMs - RECORDED_SEARCH_MS;
  const leftAfterSearch = localDateTimeMs(journey.startDateTime, LONDON) - RECORDED_SEARCH_MS;
  return request.dateTimeMs - leftAfterSearch - localDateTimeMs(journey.arrivalDateTime, LONDON);
}

/** The journey from the request's origin to its destination: the first leg's start, the last leg's end. */
function withEnds(journey: RecordedJourney, request: JourneyRequest): RecordedJourney {
  const first = journey.legs[0];
  const last = journey.legs.at(-1);
  if (first === undefined || last === undefined) return journey;
  const recordedTo = last.arrivalPoint.commonName;
  const toName = locationName(request.to);
  first.departurePoint = stopPointEntity(request.from, 'from');
  last.instruction.summary = last.instruction.summary.replace(recordedTo, () => toName);
  last.instruction.detailed = last.instruction.detailed.replace(recordedTo, () => toName);
  last.arrivalPoint = stopPointEntity(request.to, 'to') as RecordedLeg['arrivalPoint'];
  return journey;
}

export function journeyUri(fromText: string, toText: string, query: string): string {
  const path = `/journey/journeyresults/${encodeURIComponent(fromText)}/to/${encodeURIComponent(toText)}`;
  return `${path}${query ? `?${query}` : ''}`.toLowerCase();
}

function timeAdjustment(ms: number, timeIs: string, request: JourneyRequest): Record<string, unknown> {
  const p = zonedParts(ms, LONDON);
  const date = compactDate(ms, LONDON);
  const time = `${String(p.hour).padStart(2, '0')}${String(p.minute).padStart(2, '0')}`;
  const base = journeyUri(request.fromText, request.toText, '');
  return {
    $type: tflType('JourneyPlanner.TimeAdjustment'),
    date,
    time,
    timeIs,
    uri: `${base}?date=${date}&time=${time}&timeis=${timeIs.toLowerCase()}`,
  };
}

export function buildItineraryResult(request: JourneyRequest): Record<string, unknown> {
  const t = request.dateTimeMs;
  return {
    ...RESULT_AT(t - RECORDED_SEARCH_MS),
    journeys: JOURNEYS_AT.map(({ journey, at }) => withEnds(at(journeyShift(journey, request)), request)),
    searchCriteria: {
      $type: tflType('JourneyPlanner.SearchCriteria'),
      dateTime: localDateTime(t, LONDON),
      dateTimeType: request.timeIs,
      timeAdjustments: {
        $type: tflType('JourneyPlanner.TimeAdjustments'),
        earliest: timeAdjustment(t - 4 * 3600_000, 'Departing', request),
        earlier: timeAdjustment(t - 20 * 60_000, request.timeIs, request),
        later: timeAdjustment(t + 20 * 60_000, request.timeIs, request),
        latest: timeAdjustment(t + 8 * 3600_000, 'Departing', request),
      },
    },
    journeyVector: journeyVector(request),
  };
}

/** The `journeyVector` both result kinds end with: the request as TfL understood it. */
export function journeyVector(request: JourneyRequest): Record<string, unknown> {
  return {
    $type: tflType('JourneyPlanner.JourneyVector'),
    from: request.fromText,
    to: request.toText,
    via: '',
    uri: journeyUri(request.fromText, request.toText, request.queryWithoutKey),
  };
}
