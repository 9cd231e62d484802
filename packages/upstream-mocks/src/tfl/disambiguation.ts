// TfL `DisambiguationResult` bodies (HTTP 300, sometimes 200): the recorded answer in
// fixtures/tfl/disambiguation-300.json ("Victoria" to "Highgate", both sides lists), each side set to the
// scenario's match status and the option list its text names, echoing the request.
import { localDateTime, LONDON } from '../time.js';
import { readFixture } from '../recorded.js';
import { journeyUri, journeyVector } from './journeys.js';
import type { JourneyRequest } from './journeys.js';

export type MatchStatus = 'list' | 'identified' | 'empty';

/** A `DisambiguationOption` as TfL sends it; `parameterValue` is absent on some real options. */
interface TflDisambiguationOption {
  readonly parameterValue?: string;
  readonly uri: string;
  readonly place: { readonly commonName: string; readonly lat: number; readonly lon: number };
  readonly matchQuality: number;
}

interface Side {
  readonly $type: string;
  readonly disambiguationOptions: readonly TflDisambiguationOption[];
}

const RECORDED = readFixture<{
  fromLocationDisambiguation: Side;
  toLocationDisambiguation: Side;
  searchCriteria: object;
}>('tfl/disambiguation-300.json');

/** "Victoria": 7 options, unsorted by matchQuality, a point of interest outranking the stations, one without parameterValue. */
const VICTORIA_OPTIONS = RECORDED.fromLocationDisambiguation.disambiguationOptions;
/** "Highgate": 6 options, unsorted by matchQuality. */
const HIGHGATE_OPTIONS = RECORDED.toLocationDisambiguation.disambiguationOptions;

function optionsFor(text: string, side: 'from' | 'to'): readonly TflDisambiguationOption[] {
  const needle = text.toLowerCase();
  if (needle.includes('highgate')) return HIGHGATE_OPTIONS;
  if (needle.includes('victoria')) return VICTORIA_OPTIONS;
  return side === 'from' ? VICTORIA_OPTIONS : HIGHGATE_OPTIONS;
}

/** The option with its `uri`: this request with the option in place of the side's text. */
function withUri(option: TflDisambiguationOption, side: 'from' | 'to', request: JourneyRequest) {
  const value = option.parameterValue ?? `lonlat:"${option.place.lon},${option.place.lat}"`;
  const uri =
    side === 'from' ? journeyUri(value, request.toText, '') : journeyUri(request.fromText, value, '');
  return { ...option, uri };
}

function sideEntity(status: MatchStatus, side: 'from' | 'to', request: JourneyRequest): object {
  const { $type } = RECORDED.fromLocationDisambiguation;
  if (status !== 'list') return { $type, matchStatus: status };
  const text = side === 'from' ? request.fromText : request.toText;
  return {
    $type,
    disambiguationOptions: optionsFor(text, side).map((option) => withUri(option, side, request)),
    matchStatus: 'list',
  };
}

export function buildDisambiguationResult(
  request: JourneyRequest,
  statuses: { readonly from: MatchStatus; readonly to: MatchStatus },
): Record<string, unknown> {
  return {
    ...RECORDED,
    toLocationDisambiguation: sideEntity(statuses.to, 'to', request),
    fromLocationDisambiguation: sideEntity(statuses.from, 'from', request),
    searchCriteria: {
      ...RECORDED.searchCriteria,
      dateTime: localDateTime(request.dateTimeMs, LONDON),
      dateTimeType: request.timeIs,
    },
    journeyVector: journeyVector(request),
  };
}
