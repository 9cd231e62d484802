// Builds TfL `DisambiguationResult` bodies (HTTP 300, sometimes 200).
import { localDateTime, LONDON } from '../time.js';
import { HIGHGATE_OPTIONS, VICTORIA_OPTIONS } from './data.js';
import type { TflDisambiguationCandidate } from './data.js';
import { tflType } from './entities.js';
import { journeyUri, journeyVector } from './journeys.js';
import type { JourneyRequest } from './journeys.js';

export type MatchStatus = 'list' | 'identified' | 'empty';

function candidatesFor(text: string, side: 'from' | 'to'): readonly TflDisambiguationCandidate[] {
  const needle = text.toLowerCase();
  if (needle.includes('highgate')) return HIGHGATE_OPTIONS;
  if (needle.includes('victoria')) return VICTORIA_OPTIONS;
  return side === 'from' ? VICTORIA_OPTIONS : HIGHGATE_OPTIONS;
}

function optionEntity(
  candidate: TflDisambiguationCandidate,
  side: 'from' | 'to',
  request: JourneyRequest,
): Record<string, unknown> {
  const value = candidate.parameterValue ?? `lonlat:"${candidate.lon},${candidate.lat}"`;
  const uri =
    side === 'from' ? journeyUri(value, request.toText, '') : journeyUri(request.fromText, value, '');
  const isStop = candidate.placeType === 'StopPoint';
  return {
    $type: tflType('JourneyPlanner.DisambiguationOption'),
    ...(candidate.parameterValue !== undefined ? { parameterValue: candidate.parameterValue } : {}),
    uri,
    place: {
      $type: tflType(isStop ? 'StopPoint' : 'Place'),
      ...(isStop
        ? { naptanId: candidate.naptanId, modes: candidate.modes ?? [], icsCode: candidate.icsCode }
        : {}),
      ...(isStop ? { url: `/StopPoint/${candidate.naptanId ?? ''}` } : {}),
      commonName: candidate.commonName,
      placeType: candidate.placeType,
      additionalProperties: [],
      lat: candidate.lat,
      lon: candidate.lon,
    },
    matchQuality: candidate.matchQuality,
  };
}

function sideEntity(
  status: MatchStatus,
  side: 'from' | 'to',
  request: JourneyRequest,
): Record<string, unknown> {
  const $type = tflType('JourneyPlanner.Disambiguation');
  if (status !== 'list') return { $type, matchStatus: status };
  const text = side === 'from' ? request.fromText : request.toText;
  return {
    $type,
    disambiguationOptions: candidatesFor(text, side).map((c) => optionEntity(c, side, request)),
    matchStatus: 'list',
  };
}

export function buildDisambiguationResult(
  request: JourneyRequest,
  statuses: { readonly from: MatchStatus; readonly to: MatchStatus },
): Record<string, unknown> {
  return {
    $type: tflType('JourneyPlanner.DisambiguationResult'),
    toLocationDisambiguation: sideEntity(statuses.to, 'to', request),
    fromLocationDisambiguation: sideEntity(statuses.from, 'from', request),
    viaLocationDisambiguation: { $type: tflType('JourneyPlanner.Disambiguation'), matchStatus: 'empty' },
    recommendedMaxAgeMinutes: 1440,
    searchCriteria: {
      $type: tflType('JourneyPlanner.SearchCriteria'),
      dateTime: localDateTime(request.dateTimeMs, LONDON),
      dateTimeType: request.timeIs,
    },
    journeyVector: journeyVector(request),
  };
}
