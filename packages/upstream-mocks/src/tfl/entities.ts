// TfL's presentation entities as they appear on the wire, each with its .NET `$type`.
import type { TimeFormat } from '../recorded.js';
import { dotNetUtcTimestamp, localDateTime, localDateTimeMs, LONDON } from '../time.js';
import type { TflStation } from './data.js';

const ENTITIES = 'Tfl.Api.Presentation.Entities';

/** `Tfl.Api.Presentation.Entities.<name>, Tfl.Api.Presentation.Entities` */
export function tflType(name: string): string {
  return `${ENTITIES}.${name}, ${ENTITIES}`;
}

/**
 * How TfL writes instants: London local time (journeys, fare taps), UTC to the second (disruptions, validity,
 * expected arrivals) and .NET's UTC with 7 fractional digits (prediction timestamps).
 */
export const TFL_TIMES: readonly TimeFormat[] = [
  {
    pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/,
    read: (text) => localDateTimeMs(text, LONDON),
    write: (ms) => localDateTime(ms, LONDON),
  },
  {
    pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    read: Date.parse,
    write: (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  },
  { pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/, read: Date.parse, write: dotNetUtcTimestamp },
];

/** A journey end point: a known station, or a coordinate / postcode / free-text location. */
export type TflLocation =
  | { readonly kind: 'station'; readonly station: TflStation }
  | { readonly kind: 'point'; readonly commonName: string; readonly lat: number; readonly lon: number };

export function stopPointEntity(
  location: TflLocation,
  side: 'from' | 'to' = 'from',
): Record<string, unknown> {
  if (location.kind === 'point') {
    // Coordinates and postcodes come back as StopPoints without a NaPTAN id and with a placeholder ICS code.
    return {
      $type: tflType('StopPoint'),
      platformName: '',
      icsCode: side === 'from' ? '99999997' : '99999998',
      individualStopId: '',
      commonName: location.commonName,
      placeType: 'StopPoint',
      additionalProperties: [],
      lat: location.lat,
      lon: location.lon,
    };
  }
  const s = location.station;
  return {
    $type: tflType('StopPoint'),
    naptanId: s.naptanId,
    platformName: '',
    ...('stopLetter' in s && s.stopLetter ? { stopLetter: s.stopLetter } : {}),
    icsCode: s.icsCode,
    individualStopId: s.naptanId,
    commonName: s.commonName,
    placeType: 'StopPoint',
    additionalProperties: [],
    lat: s.lat,
    lon: s.lon,
  };
}

export function locationName(location: TflLocation): string {
  return location.kind === 'station' ? location.station.commonName : location.commonName;
}
